import { Redis } from 'ioredis';
import { loginThrottleKeys, LoginThrottlePolicy } from '@lnk/identity/domain';
import { RateLimitedError } from '@lnk/shared/kernel';
import { LOGIN_THROTTLE_KEY_PREFIX } from '@lnk/shared/redis';
import { CappedLoginThrottle, describeLoginThrottleContract } from '@lnk/identity/testing';
import { RedisLoginThrottle } from './redis-login.throttle';

const redisUrl = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';

async function connected(policy: LoginThrottlePolicy, sleep?: (ms: number) => Promise<void>): Promise<RedisLoginThrottle> {
  const throttle = new RedisLoginThrottle(redisUrl, { policy, sleep, fallback: new CappedLoginThrottle(0), onError: () => undefined });
  await throttle.connected(5000);
  if (!throttle.shared) throw new Error(`Redis at ${redisUrl} did not answer`);
  return throttle;
}

describe('RedisLoginThrottle under the LoginThrottle contract', () => {
  // The fallback refuses everything: a test passing here was counted in Redis.
  describeLoginThrottleContract(async (policy, sleep) => {
    const throttle = await connected(policy, sleep);
    return { throttle, passTime: (ms) => new Promise((resolve) => setTimeout(resolve, ms)), close: () => throttle.close() };
  });
});

describe('RedisLoginThrottle', () => {
  const policy: LoginThrottlePolicy = {
    rules: [
      { prefix: 'account:', maxFailures: 5, freeFailures: 0, forgivenBySuccess: false, waivedWhenFamiliar: true },
      { prefix: 'account-ip:', maxFailures: 3, freeFailures: 0, forgivenBySuccess: true },
    ],
    windowMs: 60_000,
    delayStepMs: 0,
    maxDelayMs: 0,
    familiar: { prefix: 'account-ip:', forMs: 60_000 },
  };
  const account = () => `grace.${Math.random().toString(36).slice(2)}@example.com`;

  // The audit (issue 27, item 5): the counts were per process, so each instance granted an account its own allowance.
  it("shares an account's budget between instances: of 40 parallel attempts from 40 addresses spread over two, 5 get in", async () => {
    const [a, b] = [await connected(policy), await connected(policy)];
    try {
      const target = account();
      const settled = await Promise.allSettled(
        Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).admit(loginThrottleKeys(target, `198.51.100.${i + 1}`))),
      );
      expect(settled.filter((o) => o.status === 'fulfilled')).toHaveLength(5);
      expect(
        settled.filter((o) => o.status === 'rejected').every((o) => (o as PromiseRejectedResult).reason instanceof RateLimitedError),
      ).toBe(true);
      // A success on one instance makes its address familiar on the other.
      const other = account();
      (await a.admit(loginThrottleKeys(other, '192.0.2.5'))).succeeded();
      for (let i = 0; i < 5; i++) await b.admit(loginThrottleKeys(other, `203.0.113.${i + 1}`));
      await expect(b.admit(loginThrottleKeys(other, '203.0.113.99'))).rejects.toBeInstanceOf(RateLimitedError);
      await expect(b.admit(loginThrottleKeys(other, '192.0.2.5'))).resolves.toBeDefined();
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  // What Redis holds names no account nor address: its keys are digests.
  it('keeps no e-mail address nor client address in Redis', async () => {
    const throttle = await connected(policy);
    const inspector = new Redis(redisUrl);
    try {
      const target = account();
      (await throttle.admit(loginThrottleKeys(target, '198.51.100.77'))).succeeded();
      await throttle.admit(loginThrottleKeys(target, '198.51.100.78'));
      const keys = await inspector.keys(`${LOGIN_THROTTLE_KEY_PREFIX}*`);
      expect(keys.length).toBeGreaterThan(0);
      expect(keys.filter((key) => key.includes('@') || key.includes('198.51.100'))).toEqual([]);
    } finally {
      await throttle.close();
      inspector.disconnect();
    }
  });

  // An outage must neither open the door (every attempt let through) nor hold sign-ins up waiting on Redis.
  it('counts attempts in the process with the fallback while Redis does not answer, reporting the switch once', async () => {
    const switches: boolean[] = [];
    const fallback = new CappedLoginThrottle(2);
    // Nothing listens on port 1: every connection attempt is refused.
    const throttle = new RedisLoginThrottle('redis://127.0.0.1:1', {
      policy,
      fallback,
      onError: () => undefined,
      onFallback: (local) => switches.push(local),
    });
    try {
      const keys = loginThrottleKeys(account(), '198.51.100.1');
      await throttle.admit(keys);
      await throttle.admit(keys);
      await expect(throttle.admit(keys)).rejects.toBeInstanceOf(RateLimitedError);
      expect(fallback.counts.get(keys[0])).toBe(2);
      expect(throttle.shared).toBe(false);
      expect(switches).toEqual([true]);
    } finally {
      await throttle.close();
    }
  });
});
