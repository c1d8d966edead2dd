import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AesGcmSecretBox } from '@lnk/identity/adapter-crypto';
import { LinkRepository, ReportExpiredLinksUseCase } from '@lnk/links/domain';
import { TypeormExpiringLinks } from '@lnk/links/adapter-typeorm';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { WebhookLinksViaLinks, webhookEventSinks } from '@lnk/bridges';
import { DeliverWebhooksUseCase, WebhookChangeListener, WebhookSecretBox } from '@lnk/webhooks/domain';
import type { WebhooksPorts, WebhooksSettings } from '@lnk/webhooks/adapter-nest';
import { TypeormWebhookOutbox, TypeormWebhookRepository } from '@lnk/webhooks/adapter-typeorm';
import {
  HttpWebhookSender,
  NodeDestinationGuard,
  RandomWebhookSecretGenerator,
  serversLookup,
  StandardWebhooksSigner,
} from '@lnk/webhooks/adapter-http';
import { AppConfig } from '../config/app-config';
import { deriveKey, KEY_PURPOSES, secretKeyOf } from '../config/secret-key';

/** A claimed delivery is taken again after this long if its worker died: well beyond the 10 s timeout. */
const DELIVERY_LEASE_MS = 60_000;

/** Signing secrets sealed with AES-256-GCM under a key derived from SECRET_KEY for this one purpose. */
function webhookSecretBox(config: AppConfig): WebhookSecretBox {
  const box = new AesGcmSecretBox(deriveKey(secretKeyOf(config), KEY_PURPOSES.sealWebhookSecret));
  return { seal: (plain) => box.seal(plain), open: (sealed) => box.open(sealed) };
}

/**
 * The webhooks context, and the sinks the links and analytics contexts tell their events to.
 * `broadcast`: how a webhook change made here reaches the other instances' subscriber caches (Redis), if there are any.
 */
export function composeWebhooks(
  dataSource: DataSource,
  config: AppConfig,
  logger: Logger,
  ids: IdGenerator,
  clock: Clock,
  linkRepository: LinkRepository,
  broadcast: (local: WebhookChangeListener) => WebhookChangeListener = (local) => local,
) {
  const settings = config.webhooks;
  // DNS_SERVERS, when set, answer for webhook destinations too (the check at creation and the sender's connect).
  const lookup = config.dnsServers.length ? serversLookup(config.dnsServers) : null;
  const webhooks = new TypeormWebhookRepository(dataSource);
  const outbox = new TypeormWebhookOutbox(dataSource);
  const box = webhookSecretBox(config);
  // The same intake of link and click events as apps/redirect's (see webhookEventSinks).
  const sinks = webhookEventSinks(outbox, ids, clock, (error) =>
    logger.warn({ err: error.message }, 'webhooks: could not read the subscribers'),
  );
  const { subscribers } = sinks;
  const changes = broadcast({ webhooksChanged: () => subscribers.changed() });
  // The ports of the management use cases (WebhooksModule builds them); delivering is composed here, for the worker.
  const ports: WebhooksPorts = {
    webhooks,
    outbox,
    guard: new NodeDestinationGuard(settings.allowPrivate, lookup?.all),
    links: new WebhookLinksViaLinks(linkRepository),
    secrets: new RandomWebhookSecretGenerator(),
    box,
    ids,
    clock,
    changes,
  };
  const moduleSettings: WebhooksSettings = { allowPrivate: settings.allowPrivate };
  return {
    ports,
    settings: moduleSettings,
    /** For the account eraser. */
    repository: webhooks,
    deliver: new DeliverWebhooksUseCase(
      {
        outbox,
        sender: new HttpWebhookSender({ allowPrivate: settings.allowPrivate, ...(lookup ? { lookup: lookup.connect } : {}) }),
        signer: new StandardWebhooksSigner(),
        box,
        clock,
        changes,
        onError: (error) =>
          logger.warn({ err: error.message }, 'webhooks: a delivery outcome was not recorded; it is sent again after its lease'),
      },
      {
        batchSize: settings.batchSize,
        maxInFlightPerWebhook: settings.maxInFlight,
        slowAnswerMs: settings.slowAnswerMs,
        leaseMs: DELIVERY_LEASE_MS,
        baseDelayMs: settings.retryBaseDelayMs,
        maxAttempts: settings.maxAttempts,
        disableAfterFailures: settings.disableAfterFailures,
        retentionMs: settings.retentionMs,
      },
    ),
    /** For the links use cases: each link change's event, recorded in the change's unit of work. */
    linkEvents: sinks.linkEvents,
    /** For the click buffer. */
    clickEvents: sinks.clickEvents,
    /** For the short URLs: a link's last allowed visit. */
    lifecycleEvents: sinks.lifecycleEvents,
    /** For the worker's periodic scan of expiries. */
    reportExpired: new ReportExpiredLinksUseCase(new TypeormExpiringLinks(dataSource), sinks.lifecycleEvents),
    /** Told when another instance changed a webhook, or invalidations may have been missed. */
    subscribers,
    /** Reads the subscribers before the first request. */
    ready: sinks.ready,
  };
}
