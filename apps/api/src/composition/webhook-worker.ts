import { writeFile } from 'node:fs/promises';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import type { Contexts } from './contexts.composition';

/** How often finished deliveries older than WEBHOOKS_RETENTION are deleted. */
const PURGE_EVERY_MS = 3_600_000;
/**
 * How far back the first expiry scan after start-up looks: expiries during a restart or a deploy are told
 * late, not lost (events already enqueued are not enqueued again: their ids are derived from the expiry).
 */
const EXPIRY_LOOKBACK_MS = 3_600_000;
/** The heartbeat file is written at most this often: a healthcheck reads its age in tens of seconds. */
const HEARTBEAT_EVERY_MS = 5_000;

/**
 * The webhooks' delivery worker, in the API process (WEBHOOKS_WORKER) or a process of its own (worker.ts): makes batched link.clicked events
 * into deliveries while few are due, takes due deliveries and sends them, at once again while it finds a full batch, else after WEBHOOKS_POLL_INTERVAL. Several instances
 * run it side by side: the claim (FOR UPDATE SKIP LOCKED and a lease) gives each delivery to one. It
 * stops taking work before shutdown and waits for what it sent, before the database closes.
 *
 * It also looks, every WEBHOOKS_EXPIRY_SCAN_INTERVAL, for links whose expiresAt passed since its last look
 * (link.expired); several instances look over the same windows and the events are enqueued once.
 */
/**
 * A step run again after the delay it answers, one run at a time, until stopped; `stop` waits for the run
 * under way. The step never throws (it logs what failed and answers when to try again).
 */
class Rescheduling {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly step: () => Promise<number>) {}

  schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.running = this.step()
        .then((next) => this.schedule(next))
        .finally(() => (this.running = null));
    }, delayMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

@Injectable()
export class WebhookWorker implements OnModuleInit, BeforeApplicationShutdown {
  private readonly deliveries = new Rescheduling(() => this.run());
  private readonly expiries = new Rescheduling(() => this.scan());
  private lastPurge = 0;
  private lastHeartbeat = 0;
  private scannedUpTo = new Date(Date.now() - EXPIRY_LOOKBACK_MS);
  private readonly logger = new Logger('Webhooks');

  constructor(
    @Inject('CONTEXTS') private readonly contexts: Pick<Contexts, 'webhooks'>,
    @Inject(APP_CONFIG) private readonly config: Pick<AppConfig, 'webhooks'>,
  ) {}

  onModuleInit(): void {
    if (!this.config.webhooks.worker) return;
    this.deliveries.schedule(0);
    this.expiries.schedule(0);
  }

  /** Looks for the links that expired since the last look; answers when to look again. */
  private async scan(): Promise<number> {
    const upTo = new Date();
    try {
      const told = await this.contexts.webhooks.reportExpired.execute(this.scannedUpTo, upTo);
      if (told > 0) this.logger.debug(`${told} expired links told of`);
      this.scannedUpTo = upTo;
    } catch (error) {
      // The window is kept: the next look covers it again.
      this.logger.warn(`links that expired were not looked for, next look at the next interval: ${(error as Error).message}`);
    }
    return this.config.webhooks.expiryScanIntervalMs;
  }

  /** Takes and sends due deliveries; answers when to look again (at once while it finds a full batch). */
  private async run(): Promise<number> {
    const { deliver } = this.contexts.webhooks;
    let next = this.config.webhooks.pollIntervalMs;
    try {
      const { expanded, claimed, failed } = await deliver.execute();
      if (failed > 0) this.logger.debug(`${failed} of ${claimed} webhook deliveries failed; retried on the backoff schedule`);
      if (claimed >= this.config.webhooks.batchSize || expanded > 0) next = 0;
      await this.heartbeat();
      if (Date.now() - this.lastPurge > PURGE_EVERY_MS) {
        this.lastPurge = Date.now();
        await deliver.purge();
      }
    } catch (error) {
      this.logger.warn(`webhook deliveries not taken, next look at the next interval: ${(error as Error).message}`);
    }
    return next;
  }

  /** Tells a healthcheck (WEBHOOKS_WORKER_HEARTBEAT_FILE) that a look reached the database just now. */
  private async heartbeat(): Promise<void> {
    const file = this.config.webhooks.heartbeatFile;
    if (!file || Date.now() - this.lastHeartbeat < HEARTBEAT_EVERY_MS) return;
    this.lastHeartbeat = Date.now();
    try {
      await writeFile(file, `${new Date(this.lastHeartbeat).toISOString()}\n`);
    } catch (error) {
      this.logger.warn(`the heartbeat file ${file} could not be written: ${(error as Error).message}`);
    }
  }

  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.deliveries.stop(), this.expiries.stop()]);
  }
}
