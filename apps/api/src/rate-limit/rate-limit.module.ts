import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Logger } from 'pino';
import { AppConfig, APP_CONFIG, LOGGER } from '@lnk/composition';
import { AppMetrics } from '../metrics/app-metrics';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

function redisStorage(url: string, logger: Logger, metrics: AppMetrics): RedisThrottlerStorage {
  const storage = new RedisThrottlerStorage(url, {
    onError: (error) => logger.warn({ err: error.message }, 'rate-limit redis'),
    onFallback: (local) =>
      local
        ? logger.warn('rate limits counted in this process while Redis does not answer (each instance grants its own budget)')
        : logger.info('rate limits counted in Redis again, shared by every instance'),
  });
  metrics.watchRedis('rate_limits', () => storage.shared);
  return storage;
}

/** The throttler with its storage: in memory for one instance, Redis (REDIS_URL) for several (in memory while it is away). */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, LOGGER, AppMetrics],
      useFactory: (config: AppConfig, logger: Logger, metrics: AppMetrics) => ({
        // The budgets come from configuration per request kind (RateLimitGuard); this entry only names the throttler.
        throttlers: [{ name: 'default', ttl: config.rateLimits.api.seconds * 1000, limit: config.rateLimits.api.limit }],
        storage: config.redisUrl ? redisStorage(config.redisUrl, logger, metrics) : new MemoryThrottlerStorage(),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
