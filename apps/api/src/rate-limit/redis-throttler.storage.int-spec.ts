import { randomBytes } from 'node:crypto';
import { RedisThrottlerStorage } from './redis-throttler.storage';

const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('RedisThrottlerStorage', () => {
  const hit = (storage: RedisThrottlerStorage, key: string) => storage.increment(key, 60_000, 2, 60_000, 'default');

  it('counts hits in Redis, shared by every storage on it', async () => {
    const [a, b] = [
      new RedisThrottlerStorage(redisUrl, { onError: () => undefined }),
      new RedisThrottlerStorage(redisUrl, { onError: () => undefined }),
    ];
    const key = `test-${randomBytes(6).toString('hex')}`;
    try {
      const deadline = Date.now() + 5000;
      while (!(a.shared && b.shared) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
      expect([a.shared, b.shared]).toEqual([true, true]);
      expect((await hit(a, key)).totalHits).toBe(1);
      expect((await hit(b, key)).totalHits).toBe(2);
      const third = await hit(a, key);
      expect([third.totalHits, third.isBlocked]).toEqual([3, true]);
    } finally {
      await Promise.all([a.onApplicationShutdown(), b.onApplicationShutdown()]);
    }
  });

  // With Redis away every request was let through (a hit counted as 0): a flood during an outage went unlimited.
  it('counts hits in the process with the same limits while Redis does not answer, reporting the switch once', async () => {
    const switches: boolean[] = [];
    // Nothing listens on port 1: every connection attempt is refused, and a command fails at once (no queue).
    const storage = new RedisThrottlerStorage('redis://127.0.0.1:1', {
      onError: () => undefined,
      onFallback: (local) => switches.push(local),
    });
    try {
      const started = Date.now();
      const records = [await hit(storage, 'k'), await hit(storage, 'k'), await hit(storage, 'k')];
      expect(Date.now() - started).toBeLessThan(1000);
      expect(records.map((r) => [r.totalHits, r.isBlocked])).toEqual([
        [1, false],
        [2, false],
        [3, true],
      ]);
      expect((await hit(storage, 'other')).isBlocked).toBe(false);
      expect(storage.shared).toBe(false);
      expect(switches).toEqual([true]);
    } finally {
      await storage.onApplicationShutdown();
    }
  });
});
