/**
 * Denial tracking, per session and per tool call (a batch with two blocked calls counts two).
 * After `consecutive` classifier blocks in a row, or `total` in the session, later calls skip the
 * classifier and go to the user. A user approval resets both counters; a rejection keeps them; a
 * mode switch resets them. Counters persist across turns.
 */
export interface DenialLimits {
  /** Default 3. */
  consecutive: number;
  /** Default 20. */
  total: number;
}

export const DEFAULT_DENIAL_LIMITS: DenialLimits = { consecutive: 3, total: 20 };

interface Counters {
  consecutive: number;
  total: number;
}

export class DenialTracker {
  readonly limits: DenialLimits;
  private readonly sessions = new Map<string, Counters>();

  constructor(limits: Partial<DenialLimits> = {}) {
    this.limits = { ...DEFAULT_DENIAL_LIMITS, ...limits };
  }

  counters(session: string): Counters {
    let c = this.sessions.get(session);
    if (!c) {
      c = { consecutive: 0, total: 0 };
      this.sessions.set(session, c);
    }
    return c;
  }

  /** Why the classifier must be skipped for this session, or null. */
  shouldSkip(session: string): string | null {
    const c = this.counters(session);
    if (c.consecutive >= this.limits.consecutive) return `${c.consecutive} classifier blocks in a row`;
    if (c.total >= this.limits.total) return `${c.total} classifier blocks in this session`;
    return null;
  }

  block(session: string): void {
    const c = this.counters(session);
    c.consecutive++;
    c.total++;
  }

  pass(session: string): void {
    this.counters(session).consecutive = 0;
  }

  reset(session: string): void {
    this.sessions.set(session, { consecutive: 0, total: 0 });
  }
}
