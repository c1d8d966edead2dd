import {
  DestinationGuard,
  WebhookChangeListener,
  WebhookLinks,
  WebhookOutbox,
  WebhookRepository,
  WebhookSecretBox,
  WebhookSecretGenerator,
} from '@lnk/webhooks/domain';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the webhooks' management use cases need, by the name the app binds it under (WebhooksPorts),
 * each provided in WebhooksModule under its abstract class: the use cases are built from them by class,
 * and the app's composition root binds them all in one typed object, so a port left unbound does not compile.
 */
export const WEBHOOKS_PORTS = {
  webhooks: WebhookRepository,
  /** The deliveries: a test event is enqueued there, and a webhook's are listed from it. */
  outbox: WebhookOutbox,
  /** Where a destination may point (public addresses only, unless the settings allow private ones). */
  guard: DestinationGuard,
  /** The links context's links of the caller (a link filter names only those), through a bridge. */
  links: WebhookLinks,
  secrets: WebhookSecretGenerator,
  /** Seals signing secrets; the delivery worker opens them with the same box. */
  box: WebhookSecretBox,
  ids: IdGenerator,
  clock: Clock,
  /** Told of every change: the subscriber caches, this instance's and (over Redis) the others'. */
  changes: WebhookChangeListener,
};

/** What the app binds each of WEBHOOKS_PORTS to. */
export type WebhooksPorts = { readonly [K in keyof typeof WEBHOOKS_PORTS]: (typeof WEBHOOKS_PORTS)[K] extends Token<infer T> ? T : never };
