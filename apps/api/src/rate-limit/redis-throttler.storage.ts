import { OnApplicationShutdown } from '@nestjs/common';
import { ThrottlerStorage } from '@nestjs/throttler';
import type { ThrottlerStorageRecord } from '@nestjs/throttler/dist/throttler-storage-record.interface.js';
import { Redis } from 'ioredis';
import { FIXED_WINDOW_SCRIPT, RATE_LIMIT_KEY_PREFIX } from '@lnk/shared/redis';

// The same counters and keys as the redirect app's password-form limit (apps/redirect).
const INCREMENT = FIXED_WINDOW_SCRIPT;

/**
 * Rate-limit counters in Redis, so a limit holds across every instance of the service. When Redis is
 * unreachable the request is let through (and the failure reported): a limiter must not take the API down.
 */
export class RedisThrottlerStorage implements ThrottlerStorage, OnApplicationShutdown {
  private readonly redis: Redis;

  constructor(
    url: string,
    private readonly onError: (error: Error) => void,
  ) {
    this.redis = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, keyPrefix: RATE_LIMIT_KEY_PREFIX });
    this.redis.on('error', onError);
  }

  async increment(key: string, ttl: number, limit: number, blockDuration: number, throttlerName: string): Promise<ThrottlerStorageRecord> {
    try {
      const [hits, ttlMs, blockedMs] = (await this.redis.eval(INCREMENT, 2, `${throttlerName}:${key}`, `${throttlerName}:${key}:blocked`, ttl, limit, blockDuration)) as number[];
      return {
        totalHits: hits,
        timeToExpire: Math.max(0, Math.ceil(ttlMs / 1000)),
        isBlocked: blockedMs > 0,
        timeToBlockExpire: Math.max(0, Math.ceil(blockedMs / 1000)),
      };
    } catch (error) {
      this.onError(error as Error);
      return { totalHits: 0, timeToExpire: Math.ceil(ttl / 1000), isBlocked: false, timeToBlockExpire: 0 };
    }
  }

  async onApplicationShutdown(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
