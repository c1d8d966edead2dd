import { randomBytes } from 'node:crypto';
import { InMemoryPasswordFormLimit, RedisPasswordFormLimit } from './password-form-limit';

const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

describe('the password form budget of the redirect app', () => {
  it('refuses an address past its budget until the window ends, with Retry-After (guessing defended)', async () => {
    let now = 1_000_000;
    const limit = new InMemoryPasswordFormLimit({ limit: 2, seconds: 60 }, () => now);
    expect((await limit.consume('198.51.100.7')).blocked).toBe(false);
    expect((await limit.consume('198.51.100.7')).headers['ratelimit-remaining']).toBe('0');
    const third = await limit.consume('198.51.100.7');
    expect([third.blocked, third.headers['retry-after']]).toEqual([true, '60']);
    expect((await limit.consume('203.0.113.9')).blocked).toBe(false);
    now += 61_000;
    expect((await limit.consume('198.51.100.7')).blocked).toBe(false);
  });

  // Bounded: a flood of posts from distinct addresses (a botnet, or IPv6 prefixes) cannot grow the counts
  // past their max, and an address guessing all along stays counted (and refused) through it.
  it('counts at most maxAddresses addresses in the process, the least recently counted going first', async () => {
    const limit = new InMemoryPasswordFormLimit({ limit: 2, seconds: 60 }, () => 1_000, 100);
    for (let i = 0; i < 3; i++) await limit.consume('guesser');
    for (let i = 0; i < 1_000; i++) {
      await limit.consume(`address:${i}`);
      if (i % 50 === 0) expect((await limit.consume('guesser')).blocked).toBe(true);
      expect(limit.size).toBeLessThanOrEqual(100);
    }
  });

  it('shares one budget between copies through Redis, so spreading posts over copies gains nothing', async () => {
    const address = `test-${randomBytes(6).toString('hex')}`;
    const [a, b] = [
      new RedisPasswordFormLimit(redisUrl, { limit: 2, seconds: 60 }, () => undefined),
      new RedisPasswordFormLimit(redisUrl, { limit: 2, seconds: 60 }, () => undefined),
    ];
    try {
      await Promise.all([a.connected(), b.connected()]);
      expect((await a.consume(address)).blocked).toBe(false);
      expect((await b.consume(address)).blocked).toBe(false);
      const third = await a.consume(address);
      expect(third.blocked).toBe(true);
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      expect((await b.consume(address)).blocked).toBe(true);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  // With Redis away the posts were let through: a guesser's flood went unlimited for the whole outage.
  it('counts posts in the process with the same budget while Redis does not answer, without waiting on it', async () => {
    const errors: Error[] = [];
    // Nothing listens on port 1: every connection attempt is refused.
    const limit = new RedisPasswordFormLimit('redis://127.0.0.1:1', { limit: 2, seconds: 60 }, (error) => errors.push(error));
    try {
      await limit.connected(200);
      expect(limit.shared).toBe(false);
      const outcomes = [await limit.consume('198.51.100.7'), await limit.consume('198.51.100.7'), await limit.consume('198.51.100.7')];
      expect(outcomes.map((o) => o.blocked)).toEqual([false, false, true]);
      expect(outcomes[2].headers['retry-after']).toBe('60');
      expect((await limit.consume('203.0.113.9')).blocked).toBe(false);
    } finally {
      await limit.close();
    }
  });
});
