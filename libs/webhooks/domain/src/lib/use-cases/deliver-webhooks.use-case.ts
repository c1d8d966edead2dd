import { Clock } from '@lnk/shared/kernel';
import { nextInFlightLimit } from '../model/in-flight-limit';
import { RetryPolicy, retryDelayMs } from '../model/retry-schedule';
import { WebhookChangeListener, WebhookSecretBox, WebhookSender, WebhookSigner } from '../ports/outbound.ports';
import { AttemptOutcome, ClaimedDelivery, WebhookOutbox } from '../ports/webhook-outbox.port';

export interface DeliveryOptions extends RetryPolicy {
  /** Sends this worker has in flight at most; each look takes what is free of them. */
  batchSize: number;
  /** Deliveries to one webhook in flight at once, across workers (fewer for a slow receiver: nextInFlightLimit). */
  maxInFlightPerWebhook: number;
  /** An exchange longer than this (a 2xx included) is a slow answer: the webhook's in-flight limit halves. */
  slowAnswerMs: number;
  /** Longer than the sender's timeout: a delivery taken by a worker that died is taken again after it. */
  leaseMs: number;
  /** Failed attempts in a row (no success between) after which the webhook is turned off. */
  disableAfterFailures: number;
  /** Delivered and failed deliveries are kept this long for the owner's list, then deleted. */
  retentionMs: number;
}

export interface DeliveryDeps {
  outbox: WebhookOutbox;
  sender: WebhookSender;
  signer: WebhookSigner;
  box: WebhookSecretBox;
  clock: Clock;
  /** In [0, 1), for the retries' jitter. */
  random?: () => number;
  /** Told when a webhook is turned off after failures (its owner may have no webhook left for some events). */
  changes?: WebhookChangeListener;
  /** Told when an outcome could not be recorded: the delivery is sent again after its lease. */
  onError?: (error: Error) => void;
}

/**
 * Batched events (link.clicked) are made into deliveries before each claim while fewer than this many
 * batches' worth of deliveries are due: the backlog of deliveries stays small and follows the rate at
 * which they are sent, whatever the click rate; the rest waits, compact, in its batches.
 */
export const EXPAND_WHILE_DUE_BELOW_BATCHES = 10;
/**
 * While claims take deliveries, the expansion step is taken once per this many batches' worth of them
 * claimed while claims come back full, and once per batch's worth while they do not (a claim may take
 * fewer than it has room for because each webhook is at its in-flight limit, not because few are due):
 * not before each claim, since the statement that counts the due deliveries to decide cost PostgreSQL more
 * than the expansions themselves (63 µs against 21 µs per delivery sent, measured with a backlog). Ten
 * batches are kept due, so these looks come before the claims run dry; a claim that takes nothing (none
 * due, or other workers took them) makes the next run look at once.
 */
export const EXPAND_CHECK_EVERY_FULL_RUNS = 5;
/** At most this many batches are expanded per run (each holds up to one click write's events for one webhook). */
export const MAX_BATCHES_EXPANDED_PER_RUN = 50;

type Success = { delivery: ClaimedDelivery; outcome: AttemptOutcome };

export interface DeliveryRun {
  /** Deliveries made from batched events before the claim. */
  expanded: number;
  /** Deliveries taken, now being sent. */
  claimed: number;
  /** Sends that were free for the claim: claimed < room means no more was due that this worker could take. */
  room: number;
  /**
   * Settles when a send in flight ends, its outcome recorded (sends are free again, a webhook has room):
   * when to look again. Never while none is in flight.
   */
  sendEnded: Promise<void>;
  /** Settles when the sends this run started have ended and their outcomes are recorded (a stop waits for it). */
  sent: Promise<void>;
}

/**
 * The delivery worker's step: makes batched events into deliveries while few are due, takes due deliveries
 * into the sends this worker has free (in turns per webhook, each webhook within its in-flight limit: see
 * WebhookOutbox.claimDue) and starts them, without waiting for them: a slow receiver holds its own sends,
 * not the worker. The deliveries of one webhook taken by one claim are a group: a failure is recorded as it
 * comes (retried on the backoff schedule, retry-schedule.ts, until the attempts run out; a webhook whose
 * deliveries fail `disableAfterFailures` times in a row is turned off, with the reason), the successes
 * together once the group is answered (one statement for the group: a statement per delivery cost a third
 * of the throughput), and then the group's sends are free again. A group with a slow answer (over
 * `slowAnswerMs`, a 2xx included) halves the webhook's in-flight limit, a prompt one raises it by one: once
 * per round trip, as TCP's window (nextInFlightLimit).
 */
export class DeliverWebhooksUseCase {
  private readonly random: () => number;
  private readonly onError: (error: Error) => void;
  /** Deliveries claimed since the expansion step was last taken, and how the last claim came back (the first run takes it). */
  private claimedSinceExpansion = 0;
  private lastClaim: 'full' | 'some' | 'none' = 'none';
  /** Deliveries being sent. */
  private inFlight = 0;
  /** Settled when a group ends (its outcomes recorded), then replaced: one promise however many wait on it. */
  private ended = signal();

  constructor(
    private readonly deps: DeliveryDeps,
    private readonly options: DeliveryOptions,
  ) {
    this.random = deps.random ?? Math.random;
    this.onError = deps.onError ?? (() => undefined);
  }

  async execute(): Promise<DeliveryRun> {
    // Taken first: a send that ends while this run claims makes the next look start at once.
    const sendEnded = this.ended.promise;
    const room = this.options.batchSize - this.inFlight;
    if (room <= 0) return { expanded: 0, claimed: 0, room: 0, sendEnded, sent: Promise.resolve() };
    const { outbox, clock } = this.deps;
    let expanded = 0;
    const every = this.lastClaim === 'full' ? EXPAND_CHECK_EVERY_FULL_RUNS * this.options.batchSize : this.options.batchSize;
    if (this.lastClaim === 'none' || this.claimedSinceExpansion >= every) {
      this.claimedSinceExpansion = 0;
      expanded = await outbox.expandBatches(
        clock.now(),
        this.options.batchSize * EXPAND_WHILE_DUE_BELOW_BATCHES,
        MAX_BATCHES_EXPANDED_PER_RUN,
      );
    }
    const claimed = await outbox.claimDue(clock.now(), room, this.options.leaseMs, this.options.maxInFlightPerWebhook);
    this.claimedSinceExpansion += claimed.length;
    this.lastClaim = claimed.length >= room ? 'full' : claimed.length > 0 ? 'some' : 'none';
    const byWebhook = new Map<string, ClaimedDelivery[]>();
    for (const d of claimed) byWebhook.set(d.webhookId, [...(byWebhook.get(d.webhookId) ?? []), d]);
    const sent = Promise.all([...byWebhook.values()].map((group) => this.start(group))).then(() => undefined);
    return { expanded, claimed: claimed.length, room, sendEnded, sent };
  }

  async purge(): Promise<number> {
    return this.deps.outbox.purgeFinished(new Date(this.deps.clock.now().getTime() - this.options.retentionMs));
  }

  /** Sends the group; settles (never rejects) once its outcomes are recorded and its sends are free. */
  private start(group: ClaimedDelivery[]): Promise<void> {
    this.inFlight += group.length;
    return this.deliverGroup(group)
      .catch((error: Error) => this.onError(error))
      .finally(() => {
        this.inFlight -= group.length;
        const ended = this.ended;
        this.ended = signal();
        ended.settle();
      });
  }

  /** One webhook's deliveries of one claim: sent at once, each failure recorded as it comes, the successes together. */
  private async deliverGroup(group: ClaimedDelivery[]): Promise<void> {
    const { outbox } = this.deps;
    const answers = await Promise.all(group.map((d) => this.deliver(d)));
    // Stored before the outcomes free the sends, so that the next claim (which their end starts) reads it.
    const [{ webhookId, inFlightLimit }] = group;
    const limit = nextInFlightLimit(
      inFlightLimit,
      answers.some((a) => a.slow),
      this.options.maxInFlightPerWebhook,
    );
    if (limit !== inFlightLimit) await outbox.setInFlightLimit(webhookId, limit);
    const successes = answers.flatMap((a) => (a.success ? [a.success] : []));
    // A worker that dies before this sends them again after the lease: at least once, as receivers expect
    // (the `webhook-id` header is the same).
    if (successes.length > 0) await outbox.recordSuccesses(successes);
  }

  /** Sends it; a failure is recorded at once, a success answered to be recorded with its group's. */
  private async deliver(delivery: ClaimedDelivery): Promise<{ success: Success | null; slow: boolean }> {
    const { sender, box, clock, outbox } = this.deps;
    const secret = box.open(delivery.sealedSecret);
    const sentAt = clock.now();
    const result = secret
      ? await sender.send(delivery.url, this.headers(delivery, secret, sentAt), delivery.body)
      : { status: null, error: 'the signing secret does not open with this service key: rotate the secret' };
    const at = clock.now();
    const slow = at.getTime() - sentAt.getTime() > this.options.slowAnswerMs;
    if (result.status !== null && result.status >= 200 && result.status < 300) {
      return { success: { delivery, outcome: { at, responseStatus: result.status, error: null } }, slow };
    }
    const error = result.error ?? `HTTP ${result.status}`;
    const delay = retryDelayMs(delivery.attempts + 1, this.options, this.random());
    try {
      const failures = await outbox.recordFailure(
        delivery,
        { at, responseStatus: result.status, error },
        delay === null ? null : new Date(at.getTime() + delay),
      );
      if (failures >= this.options.disableAfterFailures) {
        await outbox.disableWebhook(delivery.webhookId, `turned off after ${failures} failed deliveries in a row; the last: ${error}`, at);
        // Its owner may have no webhook left for some events: the subscriber caches hear of it at once.
        await this.deps.changes?.webhooksChanged();
      }
    } catch (e) {
      // Not recorded: sent again after the lease. The group's successes are still recorded.
      this.onError(e as Error);
    }
    return { success: null, slow };
  }

  private headers(delivery: ClaimedDelivery, secret: string, at: Date): Record<string, string> {
    return {
      'content-type': 'application/json',
      'user-agent': 'lnk-webhooks/1',
      'webhook-id': delivery.messageId,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': this.deps.signer.sign(secret, delivery.messageId, at, delivery.body),
    };
  }
}

function signal(): { promise: Promise<void>; settle: () => void } {
  let settle: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => (settle = resolve));
  return { promise, settle };
}
