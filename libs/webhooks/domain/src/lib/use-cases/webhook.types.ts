import { Webhook } from '../model/webhook.entity';

export interface WebhooksConfig {
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and loopback/private destinations allowed (tests, local use). */
  allowPrivate: boolean;
}

/** A webhook with its plain signing secret: answered on creation and rotation only. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

export interface WebhookFields {
  url?: unknown;
  events?: unknown;
  linkIds?: unknown;
  description?: unknown;
  isActive?: unknown;
}
