/** What a webhook can subscribe to. `webhook.test` is sent only by POST /user/webhooks/{id}/test. */
export const WEBHOOK_EVENT_TYPES = ['link.created', 'link.updated', 'link.deleted', 'link.clicked'] as const;
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
