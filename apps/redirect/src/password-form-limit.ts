import { Redis } from 'ioredis';
import type { PasswordFormLimit } from '@lnk/links/adapter-http';
import { closeRedis, FIXED_WINDOW_SCRIPT, RATE_LIMIT_KEY_PREFIX, REDIS_CONNECTION_OPTIONS } from '@lnk/shared/redis';

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
 * together. Redis not answering (not connected, or no answer within `commandTimeoutMs`): the post is
 * counted in this process with the same budget, as the API's limiter does, until Redis is connected again.
 */
export class RedisPasswordFormLimit implements PasswordFormLimit {
  private readonly redis: Redis;
  private readonly local: InMemoryPasswordFormLimit;
  /** After a command timed out on an open connection: counted locally until then, not waiting on each post. */
  private localUntil = 0;

  constructor(url: string, private readonly budget: Budget, private readonly onError: (error: Error) => void, commandTimeoutMs = 500) {
    this.local = new InMemoryPasswordFormLimit(budget);
    // No offline queue: while disconnected a command fails at once and the post is counted locally.
    this.redis = new Redis(url, { ...REDIS_CONNECTION_OPTIONS, enableOfflineQueue: false, commandTimeout: commandTimeoutMs, keyPrefix: RATE_LIMIT_KEY_PREFIX });
    this.redis.on('error', onError);
    this.redis.on('ready', () => (this.localUntil = 0));
  }

  /** Whether posts are counted in Redis now (false: in this process). */
  get shared(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.localUntil;
  }

  /** Settles once Redis answers, or after `timeoutMs` (posts meanwhile are counted in this process, as when Redis is away). */
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
    if (!this.shared) return this.local.consume(addressKey);
    const window = this.budget.seconds * 1000;
    const key = `default:public:ip:${addressKey}`;
    try {
      const [hits, windowLeft, blocked] = (await this.redis.eval(FIXED_WINDOW_SCRIPT, 2, key, `${key}:blocked`, window, this.budget.limit, window)) as number[];
      return outcome(this.budget, hits, windowLeft, blocked);
    } catch (error) {
      this.onError(error as Error);
      this.localUntil = Date.now() + 1000;
      return this.local.consume(addressKey);
    }
  }

  async close(): Promise<void> {
    await closeRedis(this.redis);
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
