/**
 * A small in-process cache of hot public reads, with a short time to live. Concurrent misses for one
 * key share a single load (a link going viral costs one query per TTL per instance, not one per
 * visitor); chosen failures (a 404) are cached too, so a flood of bad tokens does not reach the
 * database each time; other failures are not kept. The oldest entry goes when the cache is full.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { expires: number; value: Promise<V> }>();

  constructor(
    private readonly options: {
      ttlMs: number;
      maxEntries: number;
      /** Whether a load's failure may be served again until the TTL ends. */
      cacheFailure?: (error: unknown) => boolean;
      now?: () => number;
    },
  ) {}

  get size(): number {
    return this.entries.size;
  }

  get(key: string, load: () => Promise<V>): Promise<V> {
    if (this.options.ttlMs <= 0) return load();
    const now = (this.options.now ?? Date.now)();
    const hit = this.entries.get(key);
    if (hit && hit.expires > now) return hit.value;
    if (hit) this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) {
      // Maps iterate in insertion order: the first key is the oldest entry.
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    const value = load();
    const entry = { expires: now + this.options.ttlMs, value };
    this.entries.set(key, entry);
    value.catch((error: unknown) => {
      const keep = this.options.cacheFailure?.(error) ?? false;
      if (!keep && this.entries.get(key) === entry) this.entries.delete(key);
    });
    return value;
  }

  /** Drops every entry: a change whose keys are not known one by one shows on the next read. */
  clear(): void {
    this.entries.clear();
  }

  /** Drops keys at once: an edit on this instance shows on its next read (others within the TTL). */
  invalidate(keys: Iterable<string>): void {
    for (const key of keys) this.entries.delete(key);
  }
}
