interface Entry<V> {
  value: V;
  /** Served while `now()` is before this. */
  until: number;
  /** When the entry last went to the back of the map (a counter of insertions and moves). */
  seq: number;
}

/**
 * A bounded in-process map that forgets entries past their time and, when full, the least recently used
 * one (the Map's insertion order is the recency order). It is on the redirect path, so a hit is a Map
 * lookup and a time check and allocates nothing: it moves its entry to the back only once the entry has
 * drifted past a quarter of the map (a Map delete and insert per hit cost more than the lookup), so hot
 * entries stay near the back and are moved about four times per `maxEntries` insertions or moves.
 */
export class TtlLruCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly maxEntries: number;
  private readonly ttlMs: number;
  private seq = 0;
  private evictionCount = 0;

  constructor(
    options: { maxEntries: number; ttlMs: number },
    private readonly now: () => number,
  ) {
    this.maxEntries = Math.max(1, options.maxEntries);
    this.ttlMs = options.ttlMs;
  }

  /** The value, or undefined when it is absent or past its time (an entry past its time stays held, for `stale`, until it is replaced or pushed out). */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.until <= this.now()) return undefined;
    if (this.seq - entry.seq > this.maxEntries >> 2) {
      this.entries.delete(key);
      entry.seq = ++this.seq;
      this.entries.set(key, entry);
    }
    return entry.value;
  }

  /** Keeps the value for the cache's TTL, or for `ttlMs` when that is shorter (say, a token expiring sooner). */
  set(key: K, value: V, ttlMs = this.ttlMs): void {
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as K);
    this.entries.set(key, { value, until: this.now() + Math.min(ttlMs, this.ttlMs), seq: ++this.seq });
  }

  /** The value even past its time, while the entry is still held: what to answer when asking again failed. */
  stale(key: K): V | undefined {
    return this.entries.get(key)?.value;
  }

  delete(key: K): void {
    this.evictionCount++;
    this.entries.delete(key);
  }

  clear(): void {
    this.evictionCount++;
    this.entries.clear();
  }

  /** Counts `delete` and `clear` calls: read it before loading a value, and give it to `setIfNotEvicted`. */
  get evictions(): number {
    return this.evictionCount;
  }

  /**
   * Keeps the value only when nothing was deleted or cleared since `evictions` was read: a value loaded
   * while an eviction ran may be the very row or token it evicted (read before the change committed), and
   * kept now it would be served until its TTL. The caller still answers with it.
   */
  setIfNotEvicted(evictions: number, key: K, value: V, ttlMs = this.ttlMs): void {
    if (evictions === this.evictionCount) this.set(key, value, ttlMs);
  }

  /** Entries held, expired ones not yet looked up included. */
  get size(): number {
    return this.entries.size;
  }
}
