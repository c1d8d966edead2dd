import type { CreateWebhookDto, WebhookDelivery } from '@lnk/sdk';

export type WebhookEvent = CreateWebhookDto['events'][number];

/** Every event a webhook can ask for, in words; keyed by the SDK's list, so a new event does not compile without one. */
export const EVENT_LABELS: Readonly<Record<WebhookEvent, string>> = {
  'link.created': 'A link is created',
  'link.updated': 'A link is changed',
  'link.deleted': 'A link is deleted',
  'link.clicked': 'A link is clicked',
  'link.expired': 'A link expires',
  'link.limit_reached': 'A link reaches its visit limit',
};

export const EVENT_OPTIONS = (Object.keys(EVENT_LABELS) as WebhookEvent[]).map((value) => ({
  value,
  label: `${EVENT_LABELS[value]} (${value})`,
}));

/** A delivery's outcome in words: what the receiver answered, or why it did not. */
export function deliveryOutcome(
  delivery: Pick<WebhookDelivery, 'status' | 'responseStatus' | 'lastError' | 'attempts' | 'nextAttemptAt'>,
): string {
  const answered = delivery.responseStatus === null ? 'no answer' : `answered ${delivery.responseStatus}`;
  const tries = `${delivery.attempts} attempt${delivery.attempts === 1 ? '' : 's'}`;
  if (delivery.status === 'delivered') return `Delivered (${answered}, ${tries})`;
  const why = delivery.lastError ? `: ${delivery.lastError}` : '';
  if (delivery.status === 'failed') return `Failed after ${tries} (${answered})${why}`;
  if (delivery.attempts === 0) return 'Waiting to be sent';
  return (
    'Will try ' +
    'again' +
    `${delivery.nextAttemptAt ? ` at ${new Date(delivery.nextAttemptAt).toLocaleTimeString()}` : ''}` +
    ` (${answered}, ${tries})${why}`
  );
}
