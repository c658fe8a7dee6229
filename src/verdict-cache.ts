/**
 * A bounded verdict cache with second-chance eviction (CLOCK), an approximation of LRU whose hit
 * costs one Map lookup and a flag write, where exact LRU would delete and re-insert the entry.
 * When full, the oldest entry is dropped unless it was used since it was last looked at, in which
 * case it moves to the back and loses its mark. A working set that fits is never evicted.
 *
 * Entries also expire `ttlMs` after they were made: a verdict depends on the filesystem
 * (symlinks, .git/config, sourced files), which the commands being judged change.
 */
interface Entry<V> {
  value: V;
  used: boolean;
  at: number;
}

export class VerdictCache<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(
    private readonly capacity: number,
    private readonly ttlMs: number = Infinity,
    private readonly now: () => number = () => performance.now(),
  ) {}

  get(key: string): V | undefined {
    const e = this.entries.get(key);
    if (e === undefined) return undefined;
    if (this.now() - e.at > this.ttlMs) {
      this.entries.delete(key);
      return undefined;
    }
    e.used = true;
    return e.value;
  }

  set(key: string, value: V): void {
    if (this.entries.size >= this.capacity && !this.entries.has(key)) this.evictOne();
    this.entries.set(key, { value, used: false, at: this.now() });
  }

  get size(): number {
    return this.entries.size;
  }

  private evictOne(): void {
    // Each pass clears a mark, so this ends within capacity + 1 steps.
    for (;;) {
      const [key, e] = this.entries.entries().next().value as [string, Entry<V>];
      this.entries.delete(key);
      if (!e.used) return;
      e.used = false;
      this.entries.set(key, e);
    }
  }
}
