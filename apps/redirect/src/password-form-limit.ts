import type { PasswordFormLimit } from '@lnk/links/adapter-http';
import { BoundedCache } from '@lnk/shared/cache';
import { FallbackRedis, FIXED_WINDOW_SCRIPT, RATE_LIMIT_KEY_PREFIX } from '@lnk/shared/redis';

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
  private readonly connection: FallbackRedis;
  private readonly local: InMemoryPasswordFormLimit;

  constructor(
    url: string,
    private readonly budget: Budget,
    private readonly onError: (error: Error) => void,
    commandTimeoutMs = 500,
  ) {
    this.local = new InMemoryPasswordFormLimit(budget);
    this.connection = new FallbackRedis(url, { keyPrefix: RATE_LIMIT_KEY_PREFIX, commandTimeoutMs, onError });
  }

  /** Whether posts are counted in Redis now (false: in this process). */
  get shared(): boolean {
    return this.connection.shared;
  }

  /** Settles once Redis answers, or after `timeoutMs` (posts meanwhile are counted in this process, as when Redis is away). */
  connected(timeoutMs = 2000): Promise<void> {
    return this.connection.connected(timeoutMs);
  }

  async consume(addressKey: string): Promise<Outcome> {
    if (!this.shared) return this.local.consume(addressKey);
    const window = this.budget.seconds * 1000;
    const key = `default:public:ip:${addressKey}`;
    try {
      const [hits, windowLeft, blocked] = (await this.connection.redis.eval(
        FIXED_WINDOW_SCRIPT,
        2,
        key,
        `${key}:blocked`,
        window,
        this.budget.limit,
        window,
      )) as number[];
      return outcome(this.budget, hits, windowLeft, blocked);
    } catch (error) {
      this.onError(error as Error);
      this.connection.failed();
      return this.local.consume(addressKey);
    }
  }

  close(): Promise<void> {
    return this.connection.close();
  }
}

/** Addresses counted at most in this process: past it the least recently counted goes first. */
export const PASSWORD_FORM_MAX_ADDRESSES = 100_000;

/**
 * Without Redis: the same fixed window, counted in this process (each copy gives an address its own
 * budget), for at most `maxAddresses` addresses: a flood of distinct addresses cannot grow it without end,
 * and an address posting all along is counted at every post, so it stays.
 */
export class InMemoryPasswordFormLimit implements PasswordFormLimit {
  private readonly windows: BoundedCache<string, { hits: number; endsAt: number; blockedUntil: number }>;

  constructor(
    private readonly budget: Budget,
    private readonly now: () => number = Date.now,
    maxAddresses = PASSWORD_FORM_MAX_ADDRESSES,
  ) {
    this.windows = new BoundedCache({ maxEntries: maxAddresses });
  }

  /** Addresses counted now. */
  get size(): number {
    return this.windows.size;
  }

  async consume(addressKey: string): Promise<Outcome> {
    const now = this.now();
    const window = this.budget.seconds * 1000;
    let entry = this.windows.get(addressKey);
    if (!entry || (entry.endsAt <= now && entry.blockedUntil <= now))
      this.windows.set(addressKey, (entry = { hits: 0, endsAt: now + window, blockedUntil: 0 }));
    entry.hits++;
    if (entry.blockedUntil <= now && entry.hits > this.budget.limit) entry.blockedUntil = now + window;
    return outcome(this.budget, entry.hits, entry.endsAt - now, Math.max(0, entry.blockedUntil - now));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}
