/**
 * A stopwatch over a verdict's stages, for bench/stages.mjs only: not exported from index.ts and
 * not part of the public API. The analyser calls `lap(stage)` at the end of each stage; a clock
 * attributes the time since the previous lap to that stage. Unset (the default), it costs one
 * property read per analysis.
 */
export type Stage = 'parse' | 'walk' | 'ops' | 'guard' | 'other';

export interface StageClock {
  /** The time since the previous lap belongs to `stage`. */
  lap(stage: Stage): void;
}

/** The clock in force for every analyser of the process, or null. */
export const stageClock: { current: StageClock | null } = { current: null };
