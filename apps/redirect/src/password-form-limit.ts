import { Redis } from 'ioredis';
import type { PasswordFormLimit } from '@lnk/links/adapter-http';
import { FIXED_WINDOW_SCRIPT, RATE_LIMIT_KEY_PREFIX } from '@lnk/shared/redis';

type Budget = { limit: number; seconds: number };
type Outcome = Awaited<ReturnType<PasswordFormLimit['consume']>>;

function outcome(budget: Budget, hits: number, windowLeftMs: number, blockedMs: number): Outcome {
  const blocked = blockedMs > 0;
  const retryAfterSeconds = Math.max(1, Math.ceil(blockedMs / 1000));
  const reset = blocked ? retryAfterSeconds : Math.max(0, Math.ceil(windowLeftMs / 1000));
  const headers: Record<string, string> = {
    'ratelimit-limit': String(budget.limit),
    'ratelimit-remaining': String(Math.max(0, budget.limit - hits)),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': `${budget.limit};w=${budget.seconds}`,
  };
  if (blocked) headers['retry-after'] = String(retryAfterSeconds);
  return { blocked, retryAfterSeconds, headers };
}

/**
 * The password form's public budget in the API's Redis counters, under the API's keys (its 'public'
 * budget per address): an address gets RATE_LIMIT_PUBLIC posts across every API and redirect instance
 * together. Redis unreachable: the post is let through (reported), as the API's limiter does.
 */
export class RedisPasswordFormLimit implements PasswordFormLimit {
  private readonly redis: Redis;

  constructor(url: string, private readonly budget: Budget, private readonly onError: (error: Error) => void) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, keyPrefix: RATE_LIMIT_KEY_PREFIX });
    this.redis.on('error', onError);
  }

  /** Settles once Redis answers, or after `timeoutMs` (posts meanwhile are let through, as when Redis is away). */
  connected(timeoutMs = 2000): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.redis.once('ready', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async consume(addressKey: string): Promise<Outcome> {
    const window = this.budget.seconds * 1000;
    const key = `default:public:ip:${addressKey}`;
    try {
      const [hits, windowLeft, blocked] = (await this.redis.eval(FIXED_WINDOW_SCRIPT, 2, key, `${key}:blocked`, window, this.budget.limit, window)) as number[];
      return outcome(this.budget, hits, windowLeft, blocked);
    } catch (error) {
      this.onError(error as Error);
      return outcome(this.budget, 0, window, 0);
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

/** Without Redis: the same fixed window, counted in this process (each copy gives an address its own budget). */
export class InMemoryPasswordFormLimit implements PasswordFormLimit {
  private readonly windows = new Map<string, { hits: number; endsAt: number; blockedUntil: number }>();

  constructor(private readonly budget: Budget, private readonly now: () => number = Date.now) {}

  async consume(addressKey: string): Promise<Outcome> {
    const now = this.now();
    const window = this.budget.seconds * 1000;
    if (this.windows.size > 100_000) for (const [key, entry] of this.windows) if (entry.endsAt <= now && entry.blockedUntil <= now) this.windows.delete(key);
    let entry = this.windows.get(addressKey);
    if (!entry || (entry.endsAt <= now && entry.blockedUntil <= now)) this.windows.set(addressKey, (entry = { hits: 0, endsAt: now + window, blockedUntil: 0 }));
    entry.hits++;
    if (entry.blockedUntil <= now && entry.hits > this.budget.limit) entry.blockedUntil = now + window;
    return outcome(this.budget, entry.hits, entry.endsAt - now, Math.max(0, entry.blockedUntil - now));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
