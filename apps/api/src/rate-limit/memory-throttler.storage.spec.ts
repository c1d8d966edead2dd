import { ThrottlerStorageService } from '@nestjs/throttler';
import { MemoryThrottlerStorage } from './memory-throttler.storage';

/** A small deterministic generator, so a failure replays. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

describe('MemoryThrottlerStorage', () => {
  let now = 0;
  beforeEach(() => {
    now = 1_700_000_000_000;
    jest.spyOn(Date, 'now').mockImplementation(() => now);
  });
  afterEach(() => jest.restoreAllMocks());

  it.each([1, 2, 3, 4, 5])("answers what @nestjs/throttler's in-memory storage answers, hit for hit (sequence %i)", async (seed) => {
    const next = random(seed);
    const theirs = new ThrottlerStorageService();
    const ours = new MemoryThrottlerStorage();
    const budgets = [
      { ttl: 1000, limit: 3, block: 1000 },
      { ttl: 60_000, limit: 20, block: 60_000 },
      { ttl: 2000, limit: 5, block: 0 },
      { ttl: 500, limit: 1, block: 3000 },
    ];
    try {
      for (let i = 0; i < 3000; i++) {
        // Bursts and pauses: many hits within a millisecond, and gaps past every window.
        const step = next();
        now += step < 0.6 ? 0 : step < 0.9 ? Math.floor(next() * 50) : Math.floor(next() * 4000);
        const b = Math.floor(next() * budgets.length);
        const key = `k${b}:${Math.floor(next() * 3)}`;
        const { ttl, limit, block } = budgets[b];
        const expected = await theirs.increment(key, ttl, limit, block, 'default');
        expect(await ours.increment(key, ttl, limit, block, 'default')).toEqual(expected);
      }
    } finally {
      theirs.onApplicationShutdown();
      ours.onApplicationShutdown();
    }
  });

  it('keeps a budget of thousands a second without growing: expired hits are dropped as it goes', async () => {
    const ours = new MemoryThrottlerStorage();
    try {
      let last;
      for (let i = 0; i < 50_000; i++) {
        if (i % 10 === 0) now += 1;
        last = await ours.increment('api:token:a', 1000, 9_999_999, 1000, 'default');
      }
      // 10 hits a millisecond, each living a second.
      expect(last?.totalHits).toBe(10_000);
      expect(last?.isBlocked).toBe(false);
    } finally {
      ours.onApplicationShutdown();
    }
  });

  // Bounded: a flood of distinct keys (an address each, say) within a sweep's minute cannot grow it past its max.
  it('counts at most maxKeys keys, the least recently counted going first', async () => {
    const ours = new MemoryThrottlerStorage(100);
    try {
      await ours.increment('attacked', 60_000, 1, 60_000, 'default');
      for (let i = 0; i < 1_000; i++) {
        await ours.increment(`flood:${i}`, 60_000, 5, 1000, 'default');
        if (i % 50 === 0) await ours.increment('attacked', 60_000, 1, 60_000, 'default');
        expect(ours.size).toBeLessThanOrEqual(100);
      }
      // The key counted all along stays blocked: the flood did not push it out.
      expect((await ours.increment('attacked', 60_000, 1, 60_000, 'default')).isBlocked).toBe(true);
    } finally {
      ours.onApplicationShutdown();
    }
  });

  it('forgets idle keys, not those still blocked or holding live hits', async () => {
    const ours = new MemoryThrottlerStorage();
    try {
      await ours.increment('idle', 1000, 5, 1000, 'default');
      await ours.increment('blocked', 1000, 1, 60_000, 'default');
      await ours.increment('blocked', 1000, 1, 60_000, 'default');
      now += 5000;
      await ours.increment('busy', 10_000, 5, 1000, 'default');
      now += 1000;
      ours.evictIdle();
      // A forgotten key starts again from one hit; the blocked one is still blocked.
      expect((await ours.increment('idle', 1000, 5, 1000, 'default')).totalHits).toBe(1);
      expect((await ours.increment('blocked', 1000, 1, 60_000, 'default')).isBlocked).toBe(true);
      expect((await ours.increment('busy', 10_000, 5, 1000, 'default')).totalHits).toBe(2);
    } finally {
      ours.onApplicationShutdown();
    }
  });
});
