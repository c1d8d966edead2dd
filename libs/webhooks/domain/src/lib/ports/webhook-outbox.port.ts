import { Page, PageRequest } from '@lnk/shared/kernel';
import { EventSeries, WebhookEvent, WebhookEventType } from '../model/webhook-event';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

/** One event for one webhook, as its owner sees it. */
export interface Delivery {
  id: string;
  /** The `webhook-id` header: the same on every attempt, for the receiver's de-duplication. */
  messageId: string;
  eventId: string;
  eventType: string;
  status: DeliveryStatus;
  attempts: number;
  lastAttemptAt: Date | null;
  /** The receiver's last HTTP status, null when it did not answer. */
  responseStatus: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/** A delivery taken by one worker, with what sending it needs. */
export interface ClaimedDelivery {
  id: string;
  messageId: string;
  webhookId: string;
  url: string;
  sealedSecret: string;
  body: string;
  /** Attempts made before this one. */
  attempts: number;
  /** The webhook's in-flight limit when it was claimed (see nextInFlightLimit); null: the cap. */
  inFlightLimit: number | null;
}

export interface AttemptOutcome {
  at: Date;
  responseStatus: number | null;
  error: string | null;
}

/**
 * The outbox: events become deliveries in the database, one per (event, webhook that wants it), in the
 * caller's unit of work, so an event is stored if and only if the change that caused it is.
 */
export abstract class WebhookOutbox {
  /**
   * Fans each event out to its owner's active webhooks subscribed to its type (and, for a webhook with a
   * link filter, to its link). A `webhook.test` event goes to the one webhook named by `onlyWebhookId`.
   * Answers the deliveries made.
   */
  abstract enqueue(events: WebhookEvent[], onlyWebhookId?: string): Promise<number>;
  /**
   * The same fan-out, stored compactly for events that come at a high rate (link.clicked): one batch per
   * matching webhook holds its owner's series of the call, in the caller's unit of work. They become
   * deliveries (one per event, its body `seriesBody`, its id derived from the batch) when `expandBatches`
   * takes the batch. Answers the batches made.
   */
  abstract enqueueSeries(series: EventSeries[]): Promise<number>;
  /**
   * Turns stored batches of active webhooks into deliveries, oldest first, each batch deleted in the same
   * transaction as its deliveries are made (a batch is taken by one caller: FOR UPDATE SKIP LOCKED; its
   * deliveries' ids are derived, so a batch made into deliveries twice makes them once). Stops when the due
   * deliveries of active webhooks reach `maxDue` (so expansion follows the delivery rate, not the event
   * rate), when none is left, or after `maxBatches`. Answers the deliveries made.
   */
  abstract expandBatches(now: Date, maxDue: number, maxBatches: number): Promise<number>;
  /**
   * Takes up to `limit` due deliveries of active webhooks, in turns: each webhook's oldest due one, then
   * each one's second, and so on (a webhook with a backlog does not hold back the others' deliveries), and
   * for each webhook no more than its in-flight limit (its stored one, at most `maxInFlightPerWebhook`)
   * less those of its deliveries already in flight, whichever worker took them. FOR UPDATE SKIP LOCKED:
   * concurrent workers take different ones. Each is leased: in flight, and its next attempt `leaseMs` ahead,
   * so that one whose worker dies is taken again after the lease (and counts as in flight no longer), and
   * no other worker takes it meanwhile.
   */
  abstract claimDue(now: Date, limit: number, leaseMs: number, maxInFlightPerWebhook: number): Promise<ClaimedDelivery[]>;
  /**
   * 2xx answers, recorded together (one statement for many): each delivery is done, in flight no longer, and its webhook's failure run
   * ends.
   */
  abstract recordSuccesses(successes: { delivery: ClaimedDelivery; outcome: AttemptOutcome }[]): Promise<void>;
  /** A failed attempt, in flight no longer; `nextAttemptAt` null: none is left (`failed`). Answers the webhook's failures in a row. */
  abstract recordFailure(delivery: ClaimedDelivery, outcome: AttemptOutcome, nextAttemptAt: Date | null): Promise<number>;
  /** Stores the webhook's in-flight limit (see nextInFlightLimit); null: the cap. */
  abstract setInFlightLimit(webhookId: string, limit: number | null): Promise<void>;
  /** Turns the webhook off with the reason its owner sees. */
  abstract disableWebhook(webhookId: string, reason: string, at: Date): Promise<void>;
  /** Newest first. */
  abstract listOfWebhook(webhookId: string, page: PageRequest): Promise<Page<Delivery>>;
  /** For each event type, the owners with an active webhook subscribed to it. */
  abstract subscriptions(): Promise<Map<WebhookEventType, Set<string>>>;
  /** Deletes delivered and failed deliveries finished before `before`. */
  abstract purgeFinished(before: Date): Promise<number>;
}
