import { WEBHOOK_EVENT_TYPES } from '@lnk/webhooks/domain';
import { boolean, dateTime, described, id, integer, list, named, nullable, object, oneOfValues, string } from '@lnk/shared/http';

const WEBHOOK_FIELDS = {
  id,
  url: string,
  events: list(oneOfValues(...WEBHOOK_EVENT_TYPES)),
  linkIds: described(nullable(list(string)), 'only events of these links; null: every link'),
  description: string,
  isActive: boolean,
  disabledReason: described(
    nullable(string),
    'why the service turned it off (a run of failed deliveries); null when on or turned off by you',
  ),
  consecutiveFailures: described(integer, 'failed delivery attempts since the last success'),
  createdAt: dateTime,
  updatedAt: dateTime,
};

export const WebhookSchema = named('Webhook', object(WEBHOOK_FIELDS));

/** The created object is the data, its secret in it, as a token's value and a client's secret are (spec 2.4, 2.5). */
export const WebhookWithSecretSchema = named(
  'WebhookWithSecret',
  object({
    ...WEBHOOK_FIELDS,
    secret: described(
      string,
      'the signing secret (whsec_ + base64), shown only in this answer: deliveries are signed with it (Standard Webhooks)',
    ),
  }),
);

export const WebhookTestSchema = object({ eventId: described(id, 'the test event; its delivery shows in the deliveries list') });

export const WebhookDeliverySchema = named(
  'WebhookDelivery',
  object({
    id: described(string, '32 hex characters'),
    messageId: described(string, 'the webhook-id header: the same on every attempt'),
    eventId: id,
    eventType: string,
    status: oneOfValues('pending', 'delivered', 'failed'),
    attempts: integer,
    responseStatus: described(nullable(integer), "the receiver's last HTTP status; null when it did not answer"),
    lastError: nullable(string),
    lastAttemptAt: nullable(dateTime),
    nextAttemptAt: described(nullable(dateTime), 'when pending: the next attempt'),
    deliveredAt: nullable(dateTime),
    createdAt: dateTime,
  }),
);
