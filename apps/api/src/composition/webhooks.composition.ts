import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AesGcmSecretBox } from '@lnk/identity/adapter-crypto';
import { LinkRepository } from '@lnk/links/domain';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { ClickEventsToWebhooks, LinkEventsToWebhooks, WebhookLinksOfLinks } from '@lnk/bridges';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  DeliverWebhooksUseCase,
  EventSubscribers,
  GetWebhookUseCase,
  ListDeliveriesUseCase,
  ListWebhooksUseCase,
  RecordWebhookEventsUseCase,
  RotateWebhookSecretUseCase,
  SendTestEventUseCase,
  UpdateWebhookUseCase,
  WebhookManagement,
  WebhookSecretBox,
} from '@lnk/webhooks/domain';
import { TypeormWebhookOutbox, TypeormWebhookRepository } from '@lnk/webhooks/adapter-typeorm';
import { HttpWebhookSender, NodeDestinationGuard, RandomWebhookSecretGenerator, StandardWebhooksSigner } from '@lnk/webhooks/adapter-http';
import { AppConfig } from '../config/app-config';
import { deriveKey, KEY_PURPOSES, secretKeyOf } from '../config/secret-key';

/** How long another instance's webhook change may take to reach this one's click path. */
export const CLICK_SUBSCRIBERS_MAX_AGE_MS = 5_000;
/** A claimed delivery is taken again after this long if its worker died: well beyond the 10 s timeout. */
const DELIVERY_LEASE_MS = 60_000;

/** Signing secrets sealed with AES-256-GCM under a key derived from SECRET_KEY for this one purpose. */
function webhookSecretBox(config: AppConfig): WebhookSecretBox {
  const box = new AesGcmSecretBox(deriveKey(secretKeyOf(config), KEY_PURPOSES.sealWebhookSecret));
  return { seal: (plain) => box.seal(plain), open: (sealed) => box.open(sealed) };
}

/** The webhooks context, and the sinks the links and analytics contexts tell their events to. */
export function composeWebhooks(dataSource: DataSource, config: AppConfig, logger: Logger, ids: IdGenerator, clock: Clock, linkRepository: LinkRepository) {
  const settings = config.webhooks;
  const webhooks = new TypeormWebhookRepository(dataSource);
  const outbox = new TypeormWebhookOutbox(dataSource);
  const box = webhookSecretBox(config);
  const clickSubscribers = new EventSubscribers(outbox, 'link.clicked', clock, CLICK_SUBSCRIBERS_MAX_AGE_MS, (error) => logger.warn({ err: error.message }, 'webhooks: could not read the click subscribers'));
  const management: WebhookManagement = {
    webhooks,
    outbox,
    guard: new NodeDestinationGuard(settings.allowPrivate),
    links: new WebhookLinksOfLinks(linkRepository),
    secrets: new RandomWebhookSecretGenerator(),
    box,
    ids,
    clock,
    clickSubscribers,
    config: { allowPrivate: settings.allowPrivate },
  };
  const recordEvents = new RecordWebhookEventsUseCase(outbox, ids);
  return {
    repository: webhooks,
    create: new CreateWebhookUseCase(management),
    list: new ListWebhooksUseCase(webhooks),
    get: new GetWebhookUseCase(webhooks),
    update: new UpdateWebhookUseCase(management),
    delete: new DeleteWebhookUseCase(management),
    rotateSecret: new RotateWebhookSecretUseCase(management),
    test: new SendTestEventUseCase(management),
    deliveries: new ListDeliveriesUseCase(webhooks, outbox),
    deliver: new DeliverWebhooksUseCase(outbox, new HttpWebhookSender({ allowPrivate: settings.allowPrivate }), new StandardWebhooksSigner(), box, clock, {
      batchSize: settings.batchSize,
      leaseMs: DELIVERY_LEASE_MS,
      baseDelayMs: settings.retryBaseDelayMs,
      maxAttempts: settings.maxAttempts,
      disableAfterFailures: settings.disableAfterFailures,
      retentionMs: settings.retentionMs,
    }),
    /** For the links use cases: link changes and their events in one transaction. */
    linkEvents: { events: new LinkEventsToWebhooks(recordEvents), unitOfWork: new TypeormUnitOfWork(dataSource) },
    /** For the click buffer. */
    clickEvents: new ClickEventsToWebhooks(clickSubscribers, recordEvents),
  };
}

export type Webhooks = ReturnType<typeof composeWebhooks>;
