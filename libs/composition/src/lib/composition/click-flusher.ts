import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import { ClickWriteSchedule } from '@lnk/analytics/domain';
import type { Contexts } from './contexts.composition';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * Writes buffered clicks on the ClickWriteSchedule (every CLICK_FLUSH_INTERVAL while writes are quick, at
 * most CLICK_FLUSH_MAX_INTERVAL apart), and everything left when the app shuts down: after the HTTP server
 * has drained (requests in flight at the signal count clicks too) and before the database closes
 * (DatabaseModule is global, so its shutdown hook runs after this module's). A failed write keeps the
 * clicks for the next one; at shutdown it retries a few times before giving up with a log line.
 */
@Injectable()
export class ClickFlusher implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private readonly logger = new Logger('Clicks');
  private readonly schedule: ClickWriteSchedule;

  constructor(
    @Inject('CONTEXTS') private readonly contexts: Contexts,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.schedule = new ClickWriteSchedule(contexts.analytics.clicks, {
      intervalMs: config.clickFlushIntervalMs,
      maxIntervalMs: config.clickFlushMaxIntervalMs,
      onError: (error) => this.logger.warn(`clicks kept for the next write: ${error.message}`),
    });
  }

  onModuleInit(): void {
    this.schedule.start();
  }

  beforeApplicationShutdown(): void {
    this.schedule.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    const left = await this.schedule.drain();
    if (left > 0) this.logger.error(`${left} click rows could not be written before shutdown`);
  }
}
