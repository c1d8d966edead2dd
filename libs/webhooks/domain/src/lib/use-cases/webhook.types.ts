import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { Webhook } from '../model/webhook.entity';
import { DestinationGuard, WebhookChangeListener, WebhookLinks, WebhookSecretBox, WebhookSecretGenerator } from '../ports/outbound.ports';
import { WebhookOutbox } from '../ports/webhook-outbox.port';
import { WebhookRepository } from '../ports/webhook.repository';

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

/** What creating, changing and deleting webhooks needs. */
export interface WebhookManagement {
  webhooks: WebhookRepository;
  outbox: WebhookOutbox;
  guard: DestinationGuard;
  links: WebhookLinks;
  secrets: WebhookSecretGenerator;
  box: WebhookSecretBox;
  ids: IdGenerator;
  clock: Clock;
  /** Told of every change, so that the subscriber caches (this instance's and the others') see it at once. */
  changes: WebhookChangeListener;
  config: WebhooksConfig;
}
