import { Clock } from '@lnk/shared/kernel';
import { RetryPolicy, retryDelayMs } from '../model/retry-schedule';
import { WebhookChangeListener, WebhookSecretBox, WebhookSender, WebhookSigner } from '../ports/outbound.ports';
import { AttemptOutcome, ClaimedDelivery, WebhookOutbox } from '../ports/webhook-outbox.port';

export interface DeliveryOptions extends RetryPolicy {
  /** Deliveries taken per run. */
  batchSize: number;
  /** Longer than the sender's timeout: a delivery taken by a worker that died is taken again after it. */
  leaseMs: number;
  /** Failed attempts in a row (no success between) after which the webhook is turned off. */
  disableAfterFailures: number;
  /** Delivered and failed deliveries are kept this long for the owner's list, then deleted. */
  retentionMs: number;
}

/**
 * Batched events (link.clicked) are made into deliveries before each claim while fewer than this many
 * batches' worth of deliveries are due: the backlog of deliveries stays small and follows the rate at
 * which they are sent, whatever the click rate; the rest waits, compact, in its batches.
 */
export const EXPAND_WHILE_DUE_BELOW_BATCHES = 10;
/**
 * While claims come back full, the expansion step is taken once in this many runs, not before each claim:
 * the statement that counts the due deliveries to decide cost PostgreSQL more than the expansions themselves
 * (63 µs against 21 µs per delivery sent, measured with a backlog). A full claim means a batch or more was
 * due, and these runs send at most this many batches of it before the next look, so the claims do not run
 * dry meanwhile; a claim that is not full (the due deliveries ran low, other workers took them) makes the
 * next run look at once.
 */
export const EXPAND_CHECK_EVERY_FULL_RUNS = 5;
/** At most this many batches are expanded per run (each holds up to one click write's events for one webhook). */
export const MAX_BATCHES_EXPANDED_PER_RUN = 50;

type Success = { delivery: ClaimedDelivery; outcome: AttemptOutcome };

export interface DeliveryRun {
  /** Deliveries made from batched events before the claim. */
  expanded: number;
  claimed: number;
  delivered: number;
  failed: number;
}

/**
 * One run of the delivery worker: makes batched events into deliveries while few are due, takes due deliveries, sends each signed POST, and records the outcome:
 * done on a 2xx, else retried on the backoff schedule (retry-schedule.ts) until the attempts run out.
 * A webhook whose deliveries fail `disableAfterFailures` times in a row is turned off, with the reason.
 */
export class DeliverWebhooksUseCase {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly sender: WebhookSender,
    private readonly signer: WebhookSigner,
    private readonly box: WebhookSecretBox,
    private readonly clock: Clock,
    private readonly options: DeliveryOptions,
    private readonly random: () => number = Math.random,
    private readonly changes: WebhookChangeListener | null = null,
  ) {}

  /** Runs since the expansion step was last taken; the first run takes it. */
  private runsSinceExpansion = EXPAND_CHECK_EVERY_FULL_RUNS;
  private lastClaimFull = false;

  async execute(): Promise<DeliveryRun> {
    let expanded = 0;
    if (!this.lastClaimFull || this.runsSinceExpansion >= EXPAND_CHECK_EVERY_FULL_RUNS) {
      this.runsSinceExpansion = 0;
      expanded = await this.outbox.expandBatches(this.clock.now(), this.options.batchSize * EXPAND_WHILE_DUE_BELOW_BATCHES, MAX_BATCHES_EXPANDED_PER_RUN);
    }
    this.runsSinceExpansion++;
    const claimed = await this.outbox.claimDue(this.clock.now(), this.options.batchSize, this.options.leaseMs);
    this.lastClaimFull = claimed.length >= this.options.batchSize;
    const results = await Promise.all(claimed.map((d) => this.deliver(d)));
    // Successes are recorded together once every send of the run is answered (within the sender's timeout,
    // well inside the lease): one statement, not one per delivery. A worker that dies before it sends them
    // again after the lease: at least once, as receivers expect (the `webhook-id` header is the same).
    const successes = results.filter((r): r is Success => r !== null);
    if (successes.length > 0) await this.outbox.recordSuccesses(successes);
    return { expanded, claimed: claimed.length, delivered: successes.length, failed: results.length - successes.length };
  }

  async purge(): Promise<number> {
    return this.outbox.purgeFinished(new Date(this.clock.now().getTime() - this.options.retentionMs));
  }

  /** Sends it; answers the success to record, or null once a failure is recorded. */
  private async deliver(delivery: ClaimedDelivery): Promise<Success | null> {
    const secret = this.box.open(delivery.sealedSecret);
    const sentAt = this.clock.now();
    const result = secret
      ? await this.sender.send(delivery.url, this.headers(delivery, secret, sentAt), delivery.body)
      : { status: null, error: 'the signing secret does not open with this service key: rotate the secret' };
    const at = this.clock.now();
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      return { delivery, outcome: { at, responseStatus: result.status, error: null } };
    }
    const error = result.error ?? `HTTP ${result.status}`;
    const delay = retryDelayMs(delivery.attempts + 1, this.options, this.random());
    const failures = await this.outbox.recordFailure(delivery, { at, responseStatus: result.status, error }, delay === null ? null : new Date(at.getTime() + delay));
    if (failures >= this.options.disableAfterFailures) {
      await this.outbox.disableWebhook(delivery.webhookId, `turned off after ${failures} failed deliveries in a row; the last: ${error}`, at);
      // Its owner may have no webhook left for some events: the subscriber caches hear of it at once.
      await this.changes?.webhooksChanged();
    }
    return null;
  }

  private headers(delivery: ClaimedDelivery, secret: string, at: Date): Record<string, string> {
    return {
      'content-type': 'application/json',
      'user-agent': 'lnk-webhooks/1',
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.signer.sign(secret, delivery.messageId, at, delivery.body),
    };
  }
}
