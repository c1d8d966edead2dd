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

/** When a step runs again: after `ms`, or as soon as `orWhen` settles if that is sooner. */
interface NextStep {
  ms: number;
  orWhen?: Promise<unknown>;
}

/**
 * A step run again when it says, one run at a time, until stopped; `stop` waits for the run under way.
 * The step never throws (it logs what failed and answers when to try again).
 */
class Rescheduling {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;
  /** Bumped when a wait begins and when it ends: a timer or a wake-up of a wait that is over does nothing. */
  private turn = 0;

  constructor(private readonly step: () => Promise<NextStep>) {}

  schedule(next: NextStep): void {
    if (this.stopped) return;
    const turn = ++this.turn;
    const go = () => {
      if (this.stopped || turn !== this.turn) return;
      this.turn++;
      if (this.timer) clearTimeout(this.timer);
      this.timer = null;
      const run: Promise<void> = this.step()
        .then((after) => this.schedule(after))
        .finally(() => {
          if (this.running === run) this.running = null;
        });
      this.running = run;
    };
    this.timer = setTimeout(go, next.ms);
    this.timer.unref();
    // After what settled it has run its course (several groups that end together free their sends first): one look for them all.
    void next.orWhen?.then(() => setImmediate(go));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.running;
  }
}

/**
 * The webhooks' delivery worker, in the API process (WEBHOOKS_WORKER) or a process of its own (worker.ts):
 * makes batched link.clicked events into deliveries while few are due, and takes due deliveries into its
 * WEBHOOKS_BATCH_SIZE sends, each webhook within its in-flight limit. It does not wait for the sends it
 * started: it looks again at once while the claims come back full, else when one of its sends ends (a
 * webhook at its limit may take another) or after WEBHOOKS_POLL_INTERVAL, whichever comes first. Several
 * instances run it side by side: the claim (FOR UPDATE SKIP LOCKED and a lease) gives each delivery to
 * one. It stops taking work before shutdown and waits for what it sent, before the database closes.
 *
 * It also looks, every WEBHOOKS_EXPIRY_SCAN_INTERVAL, for links whose expiresAt passed since its last look
 * (link.expired); several instances look over the same windows and the events are enqueued once.
 */
@Injectable()
export class WebhookWorker implements OnModuleInit, BeforeApplicationShutdown {
  private readonly deliveries = new Rescheduling(() => this.run());
  private readonly expiries = new Rescheduling(() => this.scan());
  /** What the runs sent that is not recorded yet: a stop waits for it. */
  private readonly sending = new Set<Promise<void>>();
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
    this.deliveries.schedule({ ms: 0 });
    this.expiries.schedule({ ms: 0 });
  }

  /** Looks for the links that expired since the last look; answers when to look again. */
  private async scan(): Promise<NextStep> {
    const upTo = new Date();
    try {
      const told = await this.contexts.webhooks.reportExpired.execute(this.scannedUpTo, upTo);
      if (told > 0) this.logger.debug(`${told} expired links told of`);
      this.scannedUpTo = upTo;
    } catch (error) {
      // The window is kept: the next look covers it again.
      this.logger.warn(`links that expired were not looked for, next look at the next interval: ${(error as Error).message}`);
    }
    return { ms: this.config.webhooks.expiryScanIntervalMs };
  }

  /** Takes due deliveries into the free sends and starts them; answers when to look again. */
  private async run(): Promise<NextStep> {
    const { deliver } = this.contexts.webhooks;
    const next: NextStep = { ms: this.config.webhooks.pollIntervalMs };
    try {
      const { expanded, claimed, room, sendEnded, sent } = await deliver.execute();
      this.sending.add(sent);
      void sent.then(() => this.sending.delete(sent));
      // A send that ends frees a send of this worker's and, maybe, room under its webhook's limit.
      next.orWhen = sendEnded;
      // More may be due: look again at once (with no send free, that look waits for one to end).
      if (expanded > 0 || (room > 0 && claimed >= room)) next.ms = 0;
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

  /** No more looks, then the sends in flight are answered (within the sender's timeout) and their outcomes recorded. */
  async beforeApplicationShutdown(): Promise<void> {
    await Promise.all([this.deliveries.stop(), this.expiries.stop()]);
    await Promise.all([...this.sending]);
  }
}
