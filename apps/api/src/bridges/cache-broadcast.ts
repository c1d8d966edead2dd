import { LinkChanges } from '@lnk/links/domain';
import { AccountChanges, RevocationListener } from '@lnk/identity/domain';
import { DomainVerificationListener } from '@lnk/domains/domain';
import { WebhookChangeListener } from '@lnk/webhooks/domain';
import { CACHE_CHANNELS, RedisBus } from '@lnk/shared/redis';

// Shared with apps/redirect, which listens to link, domain and webhook changes too (listenToOtherInstances in shared/redis).
const { linkChanged: LINK_CHANGED, tokensRevoked: TOKENS_REVOKED, accountChanged: ACCOUNT_CHANGED, domainChanged: DOMAIN_CHANGED, webhooksChanged: WEBHOOKS_CHANGED } = CACHE_CHANNELS;

/** A link change evicts this instance's cache and, through Redis, every other instance's. */
export class BroadcastLinkChanges extends LinkChanges {
  constructor(
    private readonly local: LinkChanges,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  linkChanged(domainId: string | null, slug: string): void {
    this.local.linkChanged(domainId, slug);
    this.bus.publish(LINK_CHANGED, { domainId, slug });
  }
}

/** A revocation empties every instance's cache of accepted tokens. */
export class BroadcastRevocations extends RevocationListener {
  constructor(
    private readonly local: RevocationListener,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  tokensRevoked(): void {
    this.local.tokensRevoked();
    this.bus.publish(TOKENS_REVOKED, {});
  }
}

/** A committed change of an account's row evicts it from every instance's cache of accounts. */
export class BroadcastAccountChanges extends AccountChanges {
  constructor(
    private readonly local: AccountChanges,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  accountChanged(userId: string): void {
    this.local.accountChanged(userId);
    this.bus.publish(ACCOUNT_CHANGED, { userId });
  }
}

/** A domain verified or unverified (a re-check found its records gone): every instance forgets its host. */
export class BroadcastDomainChanges extends DomainVerificationListener {
  constructor(
    private readonly local: DomainVerificationListener,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  verificationChanged(name: string): void {
    this.local.verificationChanged(name);
    this.bus.publish(DOMAIN_CHANGED, { name });
  }
}

/**
 * A webhook change: told to the other instances first (they stop trusting their subscriber cache as soon
 * as it arrives), then this instance reads its own again before the change is answered.
 */
export class BroadcastWebhookChanges extends WebhookChangeListener {
  constructor(
    private readonly local: WebhookChangeListener,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  async webhooksChanged(): Promise<void> {
    this.bus.publish(WEBHOOKS_CHANGED, {});
    await this.local.webhooksChanged();
  }
}
