import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import type { Contexts } from './contexts.composition';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';

/**
 * Writes buffered clicks every CLICK_FLUSH_INTERVAL (a second), and everything left when the app shuts down: after the HTTP
 * server has drained (requests in flight at the signal count clicks too) and before the database closes
 * (DatabaseModule is global, so its shutdown hook runs after this module's). A failed write keeps the
 * clicks for the next tick; at shutdown it retries a few times before giving up with a log line.
 */
@Injectable()
export class ClickFlusher implements OnModuleInit, BeforeApplicationShutdown, OnApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private readonly logger = new Logger('Clicks');

  constructor(
    @Inject('CONTEXTS') private readonly contexts: Contexts,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      this.contexts.analytics.clicks.flush().catch((error: Error) => this.logger.warn(`clicks kept for the next write: ${error.message}`));
    }, this.config.clickFlushIntervalMs);
    this.timer.unref();
  }

  beforeApplicationShutdown(): void {
    if (this.timer) clearInterval(this.timer);
  }

  async onApplicationShutdown(): Promise<void> {
    for (let attempt = 1; attempt <= 5; attempt++) {
      try {
        await this.contexts.analytics.clicks.flush();
        if (this.contexts.analytics.clicks.size === 0) return;
      } catch (error) {
        this.logger.warn(`flush at shutdown failed (attempt ${attempt}): ${(error as Error).message}`);
        await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
      }
    }
    this.logger.error(`${this.contexts.analytics.clicks.size} click rows could not be written before shutdown`);
  }
}
