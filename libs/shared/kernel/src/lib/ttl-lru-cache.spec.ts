import { TtlLruCache } from './ttl-lru-cache';

describe('TtlLruCache', () => {
  let time: number;
  const now = () => time;
  beforeEach(() => (time = 1_000));

  // A stale answer served past its TTL would outlive the change it missed (a link disabled elsewhere).
  it('forgets an entry once its time is up, not before', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 10, ttlMs: 100 }, now);
    cache.set('a', 1);
    time += 99;
    expect(cache.get('a')).toBe(1);
    time += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  // Past its time an entry is no answer, but it stays held (bounded like the rest) as the answer to give
  // when asking again fails: the last one known, rather than none while the database is away.
  it('keeps what is past its time for stale(), until it is replaced, deleted or pushed out', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 2, ttlMs: 100 }, now);
    cache.set('a', 1);
    time += 500;
    expect(cache.get('a')).toBeUndefined();
    expect(cache.stale('a')).toBe(1);
    cache.set('a', 2);
    expect(cache.stale('a')).toBe(2);
    cache.delete('a');
    expect(cache.stale('a')).toBeUndefined();
    cache.set('b', 1);
    cache.set('c', 1);
    cache.set('d', 1);
    expect(cache.stale('b')).toBeUndefined();
    expect(cache.size).toBe(2);
  });

  // A token expiring before the cache's TTL must not be accepted from the cache after it expired.
  it('keeps an entry for a shorter time when asked, never a longer one', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 10, ttlMs: 100 }, now);
    cache.set('short', 1, 30);
    cache.set('long', 2, 500);
    time += 30;
    expect(cache.get('short')).toBeUndefined();
    time += 70;
    expect(cache.get('long')).toBeUndefined();
  });

  // The cache is bounded: a flood of distinct keys (scanners) cannot grow the process without end.
  it('never holds more than maxEntries', () => {
    const cache = new TtlLruCache<number, number>({ maxEntries: 50, ttlMs: 60_000 }, now);
    for (let i = 0; i < 1_000; i++) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(50);
    }
    expect(cache.get(999)).toBe(999);
    expect(cache.get(949)).toBeUndefined();
  });

  // The popular entries must survive a stream of one-off lookups.
  it('evicts the least recently used entry first: a looked-up entry outlives untouched newer ones', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 4, ttlMs: 60_000 }, now);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0);
    cache.set('e', 4);
    cache.set('f', 5);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')).toBe(0);
    expect(cache.get('d')).toBe(3);
  });

  it('replaces a value set again, renewing its time and its place', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 2, ttlMs: 100 }, now);
    cache.set('a', 1);
    cache.set('b', 2);
    time += 60;
    cache.set('a', 10);
    cache.set('c', 3);
    expect(cache.get('b')).toBeUndefined();
    time += 60;
    expect(cache.get('a')).toBe(10);
  });

  it('deletes one entry or all of them', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 10, ttlMs: 100 }, now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBe(2);
    cache.clear();
    expect(cache.size).toBe(0);
  });

  // A value read before a change committed and stored after the change's eviction would be served stale
  // until its TTL (a revoked token accepted, an old account shown): such a load is not kept.
  it('keeps a loaded value only when nothing was deleted or cleared while it loaded', () => {
    const cache = new TtlLruCache<string, number>({ maxEntries: 10, ttlMs: 100 }, now);
    let before = cache.evictions;
    cache.delete('a');
    cache.setIfNotEvicted(before, 'a', 1);
    expect(cache.get('a')).toBeUndefined();
    before = cache.evictions;
    cache.setIfNotEvicted(before, 'a', 2);
    expect(cache.get('a')).toBe(2);
    before = cache.evictions;
    cache.clear();
    cache.setIfNotEvicted(before, 'b', 3);
    expect(cache.size).toBe(0);
  });
});

