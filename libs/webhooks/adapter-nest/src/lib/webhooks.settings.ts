import type { WebhooksConfig } from '@lnk/webhooks/domain';

/**
 * What the webhooks context takes from the app's configuration, validated there once. An abstract class,
 * so it is the Nest token the use cases are built with.
 */
export abstract class WebhooksSettings implements WebhooksConfig {
  /** WEBHOOKS_ALLOW_PRIVATE: plain http and loopback/private destinations allowed (tests, local use). */
  abstract readonly allowPrivate: boolean;
}
