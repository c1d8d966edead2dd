import { LookupCache } from './lookup-cache';

/** A lookup that answers when told to, as a database read that has not returned yet. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)));
  return { promise, resolve, reject };
}

/** Looks `key` up while `meanwhile` runs (an eviction, say), the lookup answering `value` after it: its answer. */
async function lookUpWhile(
  cache: LookupCache<string, string>,
  key: string,
  value: string | null,
  meanwhile: () => void,
): Promise<string | null> {
  const lookup = deferred<string | null>();
  const answer = cache.get(key, () => lookup.promise);
  meanwhile();
  lookup.resolve(value);
  return answer;
}

describe('LookupCache', () => {
  let time: number;
  const now = () => time;
  beforeEach(() => (time = 1_000));
  const cacheOf = (staleIfError = false) =>
    new LookupCache<string, string>({ found: { maxEntries: 10, ttlMs: 100, now }, missing: { maxEntries: 10, ttlMs: 10 }, staleIfError });

  // The redirect's hot path awaits nothing on a hit: the answer itself, not a promise of it.
  it('answers a hit at once, not as a promise, and "nothing" as null', async () => {
    const cache = cacheOf();
    expect(await cache.get('a', async () => 'A')).toBe('A');
    expect(await cache.get('none', async () => null)).toBeNull();
    expect(cache.get('a', async () => 'other')).toBe('A');
    expect(cache.get('none', async () => 'other')).toBeNull();
    expect(cache.cached('unknown')).toBeUndefined();
  });

  // A flood of misses of one key (a link shared at once) must cost the database one lookup.
  it('makes one lookup for concurrent misses of one key', async () => {
    const cache = cacheOf();
    const slow = deferred<string | null>();
    let lookups = 0;
    const answers = Array.from({ length: 50 }, () => cache.get('a', () => (lookups++, slow.promise)));
    slow.resolve('A');
    expect(await Promise.all(answers)).toEqual(Array(50).fill('A'));
    expect(lookups).toBe(1);
  });

  // The generation guard. A lookup read the row before a change committed; the change's eviction ran
  // while it was on its way back. Kept, the old row would be served until its time (a disabled link still
  // redirecting, a revoked token still accepted). This fails without the guard.
  it('does not keep a lookup an eviction overtook, though it answers the requests that waited for it', async () => {
    const cache = cacheOf();
    expect(await lookUpWhile(cache, 'a', 'old', () => cache.delete('a'))).toBe('old');
    expect(cache.cached('a')).toBeUndefined();
    expect(await cache.get('a', async () => 'new')).toBe('new');
    expect(cache.cached('a')).toBe('new');
  });

  it('does not keep a lookup a clear overtook, even of another key', async () => {
    const cache = cacheOf();
    expect(await lookUpWhile(cache, 'a', null, () => cache.clear())).toBeNull();
    expect(cache.cached('a')).toBeUndefined();
  });

  // The guard is per key: links change all the time, and one link's eviction must not keep every other
  // lookup then in flight out of the cache (each would ask the database again). Fails with one counter.
  it("keeps a lookup when another key's eviction came while it ran, drops it when its own key's did", async () => {
    const cache = cacheOf();
    expect(await lookUpWhile(cache, 'b', 'B', () => cache.delete('a'))).toBe('B');
    expect(cache.cached('b')).toBe('B');
    expect(await lookUpWhile(cache, 'c', 'C', () => cache.delete('c'))).toBe('C');
    expect(cache.cached('c')).toBeUndefined();
  });

  it('drops every lookup a clear overtook, and keeps no record of a lookup once it is done', async () => {
    const cache = cacheOf();
    const loads = ['a', 'b', 'c'].map((key) => ({ key, load: deferred<string | null>() }));
    const answers = loads.map(({ key, load }) => cache.get(key, () => load.promise));
    cache.clear();
    for (const { key, load } of loads) load.resolve(key.toUpperCase());
    expect(await Promise.all(answers)).toEqual(['A', 'B', 'C']);
    for (const key of ['a', 'b', 'c']) expect(cache.cached(key)).toBeUndefined();
    expect(cache.loading).toBe(0);
    // A lookup started after the clear is kept.
    expect(await cache.get('a', async () => 'A2')).toBe('A2');
    expect(cache.cached('a')).toBe('A2');
  });

  it('keeps a value no longer than its own time when it is shorter (a token expiring sooner)', async () => {
    const cache = cacheOf();
    await cache.get(
      'a',
      async () => 'A',
      () => 20,
    );
    time += 21;
    expect(cache.cached('a')).toBeUndefined();
  });

  it('keeps "nothing" apart, for its own shorter time, and found values for theirs', async () => {
    const cache = cacheOf();
    await cache.get('a', async () => 'A');
    await cache.get('none', async () => null);
    time += 11;
    expect(cache.cached('none')).toBeUndefined();
    expect(cache.cached('a')).toBe('A');
    expect(cache.size).toEqual({ found: 1, missing: 1 });
  });

  // While the database is away a held answer past its time is better than an error, where changes evict.
  it('answers what it held past its time when a lookup fails, only when told to', async () => {
    const failing = async (): Promise<string | null> => {
      throw new Error('database away');
    };
    const stale = cacheOf(true);
    const strict = cacheOf(false);
    for (const cache of [stale, strict]) await cache.get('a', async () => 'A');
    time += 500;
    expect(await stale.get('a', failing)).toBe('A');
    await expect(strict.get('a', failing)).rejects.toThrow('database away');
    await expect(stale.get('never', failing)).rejects.toThrow('database away');
    // A failure is not kept: the next request asks again.
    expect(await stale.get('a', async () => 'B')).toBe('B');
  });

  it('keeps no "nothing" when not told how', async () => {
    const cache = new LookupCache<string, string>({ found: { maxEntries: 10, ttlMs: 100, now } });
    let lookups = 0;
    await cache.get('none', async () => (lookups++, null));
    await cache.get('none', async () => (lookups++, null));
    expect(lookups).toBe(2);
  });
});
