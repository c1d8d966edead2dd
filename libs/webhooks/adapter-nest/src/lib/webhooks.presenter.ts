import type { Delivery, Webhook, WebhookWithSecret } from '@lnk/webhooks/domain';
import type { Static } from '@lnk/shared/http';
import type { WebhookDeliverySchema, WebhookSchema, WebhookWithSecretSchema } from './webhooks.schemas';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** A webhook, never its secret (sealed in the database, shown once by create and rotate-secret). */
export function presentWebhook(w: Webhook): Static<typeof WebhookSchema> {
  return {
    id: w.id,
    url: w.url,
    events: w.events,
    linkIds: w.linkIds,
    description: w.description,
    isActive: w.isActive,
    disabledReason: w.disabledReason,
    consecutiveFailures: w.consecutiveFailures,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

/** Creation and rotation: the webhook with its plain secret in it, shown this once. */
export function presentWebhookWithSecret(w: WebhookWithSecret): Static<typeof WebhookWithSecretSchema> {
  return { ...presentWebhook(w.webhook), secret: w.secret };
}

export function presentDelivery(d: Delivery): Static<typeof WebhookDeliverySchema> {
  return {
    id: d.id,
    messageId: d.messageId,
    eventId: d.eventId,
    eventType: d.eventType,
    status: d.status,
    attempts: d.attempts,
    responseStatus: d.responseStatus,
    lastError: d.lastError,
    lastAttemptAt: iso(d.lastAttemptAt),
    nextAttemptAt: iso(d.nextAttemptAt),
    deliveredAt: iso(d.deliveredAt),
    createdAt: d.createdAt.toISOString(),
  };
}
