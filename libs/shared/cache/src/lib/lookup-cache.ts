import { BoundedCache, CacheBounds } from './bounded-cache';

/** A lookup under way: the answer its callers share, and whether an eviction of its key (or a clear) overtook it. */
interface Lookup<V> {
  answer: Promise<V | null>;
  overtaken: boolean;
}

export interface LookupCacheOptions<K, V> {
  /** Values found. */
  found: CacheBounds<K, V>;
  /**
   * Answers "nothing" (a lookup gave null), kept apart so a flood of unknown keys (scanners) cannot push
   * found values out; omitted, "nothing" is not kept and each such lookup asks again.
   */
  missing?: Omit<CacheBounds<K, true>, 'now' | 'onRemove'>;
  /**
   * When a lookup fails, answer what is still held past its time instead of the error (stale if error):
   * only where a change evicts its entry, so that a held answer is the last one the source gave.
   */
  staleIfError?: boolean;
}

/**
 * A cache of lookups whose answer may be "nothing": a hit is answered at once (not a promise), and
 * concurrent misses of one key share one lookup (single flight).
 *
 * The generation guard: a load that an eviction overtook is not kept. A lookup reads the source before a
 * change commits, the change's eviction (`delete`, `clear`) runs, then the lookup returns the old value:
 * kept, it would be served until its time. An eviction of its key, or a clear, while a lookup runs keeps
 * that lookup's answer out (it still answers the requests that waited for it); an eviction of another key
 * does not. The mark is the lookup's own record, gone with it: nothing is kept per key past its lookup.
 * lru-cache's own `fetch` drops such a load too, but rejects the callers that waited for it, so the loads
 * are run here.
 */
export class LookupCache<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  private readonly found: BoundedCache<K, V>;
  private readonly missing: BoundedCache<K, true> | null;
  private readonly inFlight = new Map<K, Lookup<V>>();
  private readonly staleIfError: boolean;

  constructor(options: LookupCacheOptions<K, V>) {
    this.found = new BoundedCache(options.found);
    this.missing = options.missing ? new BoundedCache<K, true>({ ...options.missing, now: options.found.now }) : null;
    this.staleIfError = options.staleIfError ?? false;
  }

  /** The cached answer (a value, or null for "nothing"), or undefined when the cache does not know. */
  cached(key: K): V | null | undefined {
    const hit = this.found.get(key);
    if (hit !== undefined) return hit;
    return this.missing !== null && this.missing.get(key) ? null : undefined;
  }

  /**
   * The cached answer, else the one `load` gives (shared with every concurrent miss of the key), kept
   * unless an eviction ran meanwhile; `ttlOf` may shorten a value's time (a token that expires sooner).
   */
  get(key: K, load: () => Promise<V | null>, ttlOf?: (value: V) => number): V | null | Promise<V | null> {
    const known = this.cached(key);
    if (known !== undefined) return known;
    return this.inFlight.get(key)?.answer ?? this.load(key, load, ttlOf);
  }

  /** Lookups running now (a bound on them is the caller's: see CachedCertificateHostLookup). */
  get loading(): number {
    return this.inFlight.size;
  }

  /** Whether a lookup of the key is running (a caller's `get` would share it). */
  isLoading(key: K): boolean {
    return this.inFlight.has(key);
  }

  delete(key: K): void {
    this.found.delete(key);
    this.missing?.delete(key);
    const lookup = this.inFlight.get(key);
    if (lookup === undefined) return;
    lookup.overtaken = true;
    this.inFlight.delete(key);
  }

  clear(): void {
    this.found.clear();
    this.missing?.clear();
    for (const lookup of this.inFlight.values()) lookup.overtaken = true;
    this.inFlight.clear();
  }

  /** The weight of the values held (0 without `found.weigh`). */
  get weight(): number {
    return this.found.weight;
  }

  /** Values and "nothing" answers held. */
  get size(): { found: number; missing: number } {
    return { found: this.found.size, missing: this.missing?.size ?? 0 };
  }

  private load(key: K, load: () => Promise<V | null>, ttlOf?: (value: V) => number): Promise<V | null> {
    const lookup: Lookup<V> = { answer: Promise.resolve(null), overtaken: false };
    lookup.answer = load().then(
      (value) => {
        this.settle(key, lookup);
        if (!lookup.overtaken) this.keep(key, value, ttlOf);
        return value;
      },
      (error: unknown) => {
        this.settle(key, lookup);
        if (!this.staleIfError) throw error;
        const stale = this.found.stale(key);
        if (stale !== undefined) return stale;
        if (this.missing?.stale(key)) return null;
        throw error;
      },
    );
    this.inFlight.set(key, lookup);
    return lookup.answer;
  }

  /** The lookup is done: its key's next miss starts another (unless an eviction already let it go). */
  private settle(key: K, lookup: Lookup<V>): void {
    if (this.inFlight.get(key) === lookup) this.inFlight.delete(key);
  }

  /** One answer per key: the other map's older one must not come back as a stale answer. */
  private keep(key: K, value: V | null, ttlOf?: (value: V) => number): void {
    if (value === null) {
      this.found.delete(key);
      this.missing?.set(key, true);
    } else {
      this.missing?.delete(key);
      this.found.set(key, value, ttlOf?.(value));
    }
  }
}
