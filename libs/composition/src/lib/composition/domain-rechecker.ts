import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Contexts } from './contexts.composition';

/**
 * Re-checks verified domains in DNS every DOMAIN_RECHECK_INTERVAL seconds (0: never), so a domain whose
 * owner removed the TXT challenge or the CNAME stops serving links instead of waiting for someone to take
 * it over. A domain is re-checked when its last check is older than half the interval, so several
 * instances ticking at different moments do not all check every domain. One run at a time; the timer
 * does not keep the process alive and stops before shutdown.
 */
@Injectable()
export class DomainRechecker implements OnModuleInit, BeforeApplicationShutdown {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private readonly logger = new Logger('Domains');

  constructor(
    @Inject('CONTEXTS') private readonly contexts: Pick<Contexts, 'domains'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'domainRecheckSeconds'>,
  ) {}

  onModuleInit(): void {
    const seconds = this.config.domainRecheckSeconds;
    if (seconds <= 0) return;
    this.timer = setInterval(() => this.tick(seconds * 1000), seconds * 1000);
    this.timer.unref();
  }

  private tick(intervalMs: number): void {
    if (this.running) return;
    this.running = this.contexts.domains.recheck
      .execute({ minAgeMs: intervalMs / 2 })
      .then(({ checked, lost }) => {
        if (lost > 0) this.logger.warn(`${lost} of ${checked} verified domains lost their verification: their DNS records are gone`);
      })
      .catch((error: Error) => this.logger.warn(`domain re-check stopped, next try at the next interval: ${error.message}`))
      .finally(() => (this.running = null));
  }

  async beforeApplicationShutdown(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
