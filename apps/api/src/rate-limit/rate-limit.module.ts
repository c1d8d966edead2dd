import { Module } from '@nestjs/common';
import { ThrottlerModule } from '@nestjs/throttler';
import type { Logger } from 'pino';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../config/config.module';
import { MemoryThrottlerStorage } from './memory-throttler.storage';
import { RedisThrottlerStorage } from './redis-throttler.storage';

/** The throttler with its storage: in memory for one instance, Redis (REDIS_URL) for several. */
@Module({
  imports: [
    ThrottlerModule.forRootAsync({
      inject: [APP_CONFIG, LOGGER],
      useFactory: (config: AppConfig, logger: Logger) => ({
        // The budgets come from configuration per request kind (RateLimitGuard); this entry only names the throttler.
        throttlers: [{ name: 'default', ttl: config.rateLimits.api.seconds * 1000, limit: config.rateLimits.api.limit }],
        storage: config.redisUrl ? new RedisThrottlerStorage(config.redisUrl, (error) => logger.warn({ err: error.message }, 'rate-limit redis')) : new MemoryThrottlerStorage(),
      }),
    }),
  ],
  exports: [ThrottlerModule],
})
export class RateLimitModule {}
