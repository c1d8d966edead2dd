/** What a webhook can subscribe to. `webhook.test` is sent only by POST /user/webhooks/{id}/test. */
export const WEBHOOK_EVENT_TYPES = [
  'link.created',
  'link.updated',
  'link.deleted',
  'link.clicked',
  'link.expired',
  'link.limit_reached',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const TEST_EVENT_TYPE = 'webhook.test';

/**
 * One event, before it is fanned out to the webhooks that want it. `linkId` is what a webhook's link
 * filter is matched against (null: the event is about no link, and filtered webhooks do not get it).
 */
export interface WebhookEvent {
  id: string;
  type: WebhookEventType | typeof TEST_EVENT_TYPE;
  ownerId: string;
  linkId: string | null;
  at: Date;
  data: Record<string, unknown>;
}

/**
 * The body every delivery of the event carries, the bytes that are signed: the Standard Webhooks
 * payload shape, `{type, timestamp, data}`. Written once at enqueue time, so every retry sends the same body.
 */
export function eventBody(event: Pick<WebhookEvent, 'type' | 'at' | 'data'>): string {
  return JSON.stringify({ type: event.type, timestamp: event.at.toISOString(), data: event.data });
}

/**
 * An event id (24 hex characters, as the generated ones) derived from `key`: an event that several
 * instances may tell of (a link's expiry, found by each one's scan) gets one id, so the outbox keeps one
 * delivery of it per webhook. Three FNV-1a hashes of 32 bits with different offsets; not a secret, only
 * distinct (the delivery's key also holds the webhook's id, so ids are never compared across accounts).
 */
export function stableEventId(key: string): string {
  let out = '';
  for (const offset of [0x811c9dc5, 0x050c5d1f, 0x2f8a3b7d]) {
    let hash = offset;
    for (let i = 0; i < key.length; i++) {
      hash ^= key.charCodeAt(i);
      hash = Math.imul(hash, 0x01000193) >>> 0;
    }
    out += hash.toString(16).padStart(8, '0');
  }
  return out;
}

/**
 * Events of one type, owner and link whose bodies differ only in their moment (a hot link's clicks from
 * the same kind of visitor): one body split where the moment goes, and the moments. A click write stores
 * a few series instead of a body per click; the delivery worker makes each event's body (`seriesBody`)
 * and its id when it expands them.
 */
export interface EventSeries {
  type: WebhookEventType;
  ownerId: string;
  linkId: string | null;
  /** The body is these parts joined by the event's moment as a JSON string: `"2025-01-01T00:00:00.000Z"`. */
  bodyParts: string[];
  /** Each event's moment, epoch milliseconds. */
  ats: number[];
}

/** Stands for the moment while the body is split: a JSON string value no event's data holds (checked). */
const MOMENT = '\u0000moment\u0000';
const MOMENT_TOKEN = JSON.stringify(MOMENT);

/**
 * The parts of `eventBody` of an event whose data holds its moment at the keys `momentKeys` (and in
 * `timestamp`), to be joined by each event's moment; null when the data holds the placeholder itself
 * (the caller then records the events one by one).
 */
export function eventBodyParts(type: WebhookEventType, data: Record<string, unknown>, momentKeys: string[]): string[] | null {
  const withMoment: Record<string, unknown> = { ...data };
  for (const key of momentKeys) withMoment[key] = MOMENT;
  const parts = JSON.stringify({ type, timestamp: MOMENT, data: withMoment }).split(MOMENT_TOKEN);
  return parts.length === momentKeys.length + 2 ? parts : null;
}

/** One event's body from its series: `eventBody` of the event, byte for byte. */
export function seriesBody(bodyParts: string[], at: Date): string {
  return bodyParts.join(JSON.stringify(at.toISOString()));
}
