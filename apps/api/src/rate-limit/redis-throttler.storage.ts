import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import { MemoryThrottlerStorage, ThrottlerStorageRecord } from './memory-throttler.storage';
import { Redis } from 'ioredis';
import { closeRedis, FIXED_WINDOW_SCRIPT, RATE_LIMIT_KEY_PREFIX, REDIS_CONNECTION_OPTIONS } from '@lnk/shared/redis';

// The same counters and keys as the redirect app's password-form limit (apps/redirect).
const INCREMENT = FIXED_WINDOW_SCRIPT;

export interface RedisThrottlerEvents {
  onError(error: Error): void;
  /** Counting moved into the process (Redis did not answer), or back to Redis. */
  onFallback?(local: boolean): void;
}

/**
 * Rate-limit counters in Redis, so a limit holds across every instance of the service. When Redis does not
 * answer (not connected, or no answer within `commandTimeoutMs`), the hit is counted in this process with
 * the same limits, as a single instance counts them: a limiter must not take the API down, nor let a flood
 * through; each instance then grants its own budget. Back to Redis as soon as it is connected again.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly local = new MemoryThrottlerStorage();
  /** After a command timed out on an open connection: counted locally until then, not waiting on each request. */
  private localUntil = 0;
  private counting: 'redis' | 'local' = 'redis';

  constructor(
    url: string,
    private readonly events: RedisThrottlerEvents,
    private readonly commandTimeoutMs = 500,
  ) {
    // No offline queue: while disconnected a command fails at once and the hit is counted locally.
    this.redis = new Redis(url, {
      ...REDIS_CONNECTION_OPTIONS,
      enableOfflineQueue: false,
      commandTimeout: commandTimeoutMs,
      keyPrefix: RATE_LIMIT_KEY_PREFIX,
    });
    this.redis.on('error', (error: Error) => events.onError(error));
    this.redis.on('ready', () => (this.localUntil = 0));
  }

  /** Whether hits are counted in Redis now (false: in this process). */
  get shared(): boolean {
    return this.redis.status === 'ready' && Date.now() >= this.localUntil;
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    if (this.redis.status === 'ready' && Date.now() >= this.localUntil) {
      try {
        const [hits, ttlMs, blockedMs] = (await this.redis.eval(
          INCREMENT,
          2,
          `${throttlerName}:${key}`,
          `${throttlerName}:${key}:blocked`,
          ttl,
          limit,
          blockDuration,
        )) as number[];
        this.countingIn('redis');
        return {
          totalHits: hits,
          timeToExpire: Math.max(0, Math.ceil(ttlMs / 1000)),
          isBlocked: blockedMs > 0,
          timeToBlockExpire: Math.max(0, Math.ceil(blockedMs / 1000)),
        };
      } catch (error) {
        this.events.onError(error as Error);
        this.localUntil = Date.now() + 1000;
      }
    }
    this.countingIn('local');
    return this.local.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  async onApplicationShutdown(): Promise<void> {
    this.local.onApplicationShutdown();
    await closeRedis(this.redis);
  }

  private countingIn(where: 'redis' | 'local'): void {
    if (where === this.counting) return;
    this.counting = where;
    this.events.onFallback?.(where === 'local');
  }
}
