import { LRUCache } from 'lru-cache';

export interface CacheBounds<K, V> {
  /** Entries held at most; past it the least recently used goes first. */
  maxEntries: number;
  /** How long an entry is an answer; omitted: until it is pushed out, replaced or deleted. */
  ttlMs?: number;
  /** The weight of every entry held, at most (with `weigh`): an entry heavier than `maxEntryWeight` is not kept. */
  maxWeight?: number;
  maxEntryWeight?: number;
  weigh?: (value: V, key: K) => number;
  /** Told when an entry leaves (pushed out, deleted or cleared); not when a `set` of its key replaces it. */
  onRemove?: (value: V, key: K) => void;
  /** The clock in milliseconds (tests move it); the process's monotonic clock by default. */
  now?: () => number;
}

/**
 * A bounded in-process map, on lru-cache: the least recently used entry goes first past `maxEntries` (or
 * `maxWeight`), an entry past its time is no answer. An entry past its time stays held (bounded like the
 * rest) for `stale`: the answer to give when asking again failed. A hit allocates nothing and awaits
 * nothing: the redirect answers from here.
 */
export class BoundedCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly lru: LRUCache<K, V>;
  private readonly ttlMs: number | undefined;

  constructor(bounds: CacheBounds<K, V>) {
    this.ttlMs = bounds.ttlMs !== undefined && Number.isFinite(bounds.ttlMs) ? Math.max(1, Math.ceil(bounds.ttlMs)) : undefined;
    const weighed = bounds.maxWeight !== undefined && bounds.weigh !== undefined;
    const dispose = bounds.onRemove;
    this.lru = new LRUCache<K, V>({
      max: Math.max(1, bounds.maxEntries),
      ...(this.ttlMs !== undefined ? { ttl: this.ttlMs } : {}),
      // Past its time an entry is kept for `stale` until pushed out (a get does not delete it).
      noDeleteOnStaleGet: true,
      ...(weighed
        ? {
            maxSize: Math.max(1, bounds.maxWeight as number),
            maxEntrySize: Math.max(1, bounds.maxEntryWeight ?? (bounds.maxWeight as number)),
            sizeCalculation: (value: V, key: K) => Math.max(1, Math.ceil((bounds.weigh as (v: V, k: K) => number)(value, key))),
          }
        : {}),
      ...(dispose ? { dispose: (value: V, key: K, reason: LRUCache.DisposeReason) => reason !== 'set' && dispose(value, key) } : {}),
      // A given clock is read on every check (the library would otherwise keep a reading for a millisecond),
      // one past it: lru-cache takes an entry stored at time 0 for one without a time (a test's clock starts there).
      ...(bounds.now
        ? {
            perf: {
              now: (
                (now) => () =>
                  now() + 1
              )(bounds.now),
            },
            ttlResolution: 0,
          }
        : {}),
    });
  }

  /** The value, or undefined when it is absent or past its time (an entry is an answer through its `ttlMs`th millisecond). */
  get(key: K): V | undefined {
    return this.lru.get(key);
  }

  /** The value even past its time, while it is still held: what to answer when asking again failed. */
  stale(key: K): V | undefined {
    return this.lru.get(key, { allowStale: true });
  }

  /**
   * Keeps the value for the cache's time, or for `ttlMs` when that is shorter (say, a token expiring
   * sooner); nothing when `ttlMs` is not positive, or the value is heavier than one entry may be.
   */
  set(key: K, value: V, ttlMs?: number): void {
    if (ttlMs === undefined || !Number.isFinite(ttlMs)) {
      this.lru.set(key, value);
      return;
    }
    if (ttlMs <= 0) {
      this.lru.delete(key);
      return;
    }
    this.lru.set(key, value, { ttl: Math.max(1, Math.ceil(this.ttlMs === undefined ? ttlMs : Math.min(ttlMs, this.ttlMs))) });
  }

  delete(key: K): void {
    this.lru.delete(key);
  }

  clear(): void {
    this.lru.clear();
  }

  /**
   * The entries held and answering now, most recently used first, without counting as a use (a sweep
   * does not reorder them); a copy, so deleting while going through it is safe.
   */
  entries(): [K, V][] {
    return [...this.lru.entries()];
  }

  /** Entries held, those past their time included. */
  get size(): number {
    return this.lru.size;
  }

  /** Their weight in all (0 without `weigh`). */
  get weight(): number {
    return this.lru.calculatedSize;
  }
}
