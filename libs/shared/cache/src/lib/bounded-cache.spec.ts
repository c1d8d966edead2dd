import { BoundedCache } from './bounded-cache';

describe('BoundedCache', () => {
  let time: number;
  const now = () => time;
  beforeEach(() => (time = 1_000));

  // A stale answer served past its TTL would outlive the change it missed (a link disabled elsewhere).
  it('forgets an entry once its time is up, not before', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 10, ttlMs: 100, now });
    cache.set('a', 1);
    time += 100;
    expect(cache.get('a')).toBe(1);
    time += 1;
    expect(cache.get('a')).toBeUndefined();
  });

  // Past its time an entry is no answer, but it stays held (bounded like the rest) as the answer to give
  // when asking again fails: the last one known, rather than none while the database is away.
  it('keeps what is past its time for stale(), until it is replaced, deleted or pushed out', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2, ttlMs: 100, now });
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
  it('keeps an entry for a shorter time when asked, never a longer one, and not at all for none', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 10, ttlMs: 100, now });
    cache.set('short', 1, 30);
    cache.set('long', 2, 500);
    cache.set('expired', 3, 0);
    expect(cache.get('expired')).toBeUndefined();
    time += 31;
    expect(cache.get('short')).toBeUndefined();
    time += 70;
    expect(cache.get('long')).toBeUndefined();
  });

  // The cache is bounded: a flood of distinct keys (scanners) cannot grow the process without end.
  it('never holds more than maxEntries', () => {
    const cache = new BoundedCache<number, number>({ maxEntries: 50, ttlMs: 60_000, now });
    for (let i = 0; i < 1_000; i++) {
      cache.set(i, i);
      expect(cache.size).toBeLessThanOrEqual(50);
    }
    expect(cache.get(999)).toBe(999);
    expect(cache.get(949)).toBeUndefined();
  });

  // The popular entries must survive a stream of one-off lookups.
  it('evicts the least recently used entry first: a looked-up entry outlives untouched newer ones', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 4, ttlMs: 60_000, now });
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) cache.set(key, i);
    expect(cache.get('a')).toBe(0);
    cache.set('e', 4);
    cache.set('f', 5);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('c')).toBeUndefined();
    expect(cache.get('a')).toBe(0);
    expect(cache.get('d')).toBe(3);
  });

  // Large answers (a page of links) bound the memory, not only the count: a few huge ones cannot hold it all.
  it('bounds the weight of what it holds, and keeps nothing heavier than one entry may be', () => {
    const removed: string[] = [];
    const cache = new BoundedCache<string, string>({
      maxEntries: 100,
      maxWeight: 10,
      maxEntryWeight: 4,
      weigh: (v) => v.length,
      onRemove: (_v, k) => removed.push(k),
    });
    cache.set('a', 'xxxx');
    cache.set('b', 'xxxx');
    cache.set('c', 'xxxx');
    expect(cache.get('a')).toBeUndefined();
    expect(cache.weight).toBe(8);
    cache.set('huge', 'xxxxx');
    expect(cache.get('huge')).toBeUndefined();
    expect(cache.weight).toBeLessThanOrEqual(10);
    expect(removed).toContain('a');
    // A key's new value replaces the old one without telling: the key is still held.
    cache.set('c', 'yy');
    expect(removed).not.toContain('c');
  });

  // lru-cache takes an entry stored at time 0 for one without a time: a clock that starts at 0 must still age entries.
  it('ages entries stored at time 0 of the clock given', () => {
    time = 0;
    const cache = new BoundedCache<string, number>({ maxEntries: 10, ttlMs: 100, now });
    cache.set('a', 1);
    time = 101;
    expect(cache.get('a')).toBeUndefined();
  });

  // A sweep goes through what is held: it must not reorder it (the least recently used stays first out).
  it('lists its entries, most recently used first, without counting that as a use', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 2, now });
    cache.set('a', 1);
    cache.set('b', 2);
    expect(cache.entries()).toEqual([
      ['b', 2],
      ['a', 1],
    ]);
    cache.set('c', 3);
    expect(cache.entries()).toEqual([
      ['c', 3],
      ['b', 2],
    ]);
  });

  it('holds entries without a time until pushed out, and deletes one or all of them', () => {
    const cache = new BoundedCache<string, number>({ maxEntries: 10, now });
    cache.set('a', 1);
    cache.set('b', 2, 50);
    time += 1_000_000;
    expect(cache.get('a')).toBe(1);
    expect(cache.get('b')).toBeUndefined();
    cache.delete('a');
    expect(cache.get('a')).toBeUndefined();
    cache.clear();
    expect(cache.size).toBe(0);
  });
});
