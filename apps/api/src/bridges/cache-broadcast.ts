import { LinkChanges, LinkListChanges } from '@lnk/links/domain';
import { AccountChanges, RevocationListener } from '@lnk/identity/domain';
import { DomainVerificationListener } from '@lnk/domains/domain';
import { WebhookChangeListener } from '@lnk/webhooks/domain';
import { CACHE_CHANNELS, RedisBus } from '@lnk/shared/redis';

// Shared with apps/redirect, which listens to link and domain changes too.
const { linkChanged: LINK_CHANGED, tokensRevoked: TOKENS_REVOKED, accountChanged: ACCOUNT_CHANGED, domainChanged: DOMAIN_CHANGED, webhooksChanged: WEBHOOKS_CHANGED, linksChanged: LINKS_CHANGED } = CACHE_CHANNELS;

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

/** A committed change of an owner's links evicts the owner's list answers from every instance's list cache. */
export class BroadcastLinkListChanges extends LinkListChanges {
  constructor(
    private readonly local: LinkListChanges,
    private readonly bus: RedisBus,
  ) {
    super();
  }

  linksChanged(ownerId: string): void {
    this.local.linksChanged(ownerId);
    this.bus.publish(LINKS_CHANGED, { ownerId });
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

/** What other instances publish, applied to this instance's caches. */
export async function listenToOtherInstances(
  bus: RedisBus,
  links: LinkChanges,
  tokens: RevocationListener,
  accounts: AccountChanges,
  domains: DomainVerificationListener,
  webhooks: { invalidate(): void },
  lists: LinkListChanges,
): Promise<void> {
  await bus.subscribe(LINKS_CHANGED, (message) => {
    const { ownerId } = (message ?? {}) as { ownerId?: unknown };
    if (typeof ownerId === 'string') lists.linksChanged(ownerId);
  });
  await bus.subscribe(LINK_CHANGED, (message) => {
    const { domainId, slug } = (message ?? {}) as { domainId?: unknown; slug?: unknown };
    if (typeof slug === 'string' && (domainId === null || typeof domainId === 'string')) links.linkChanged(domainId, slug);
  });
  await bus.subscribe(TOKENS_REVOKED, () => tokens.tokensRevoked());
  await bus.subscribe(ACCOUNT_CHANGED, (message) => {
    const { userId } = (message ?? {}) as { userId?: unknown };
    if (typeof userId === 'string') accounts.accountChanged(userId);
  });
  await bus.subscribe(WEBHOOKS_CHANGED, () => webhooks.invalidate());
  await bus.subscribe(DOMAIN_CHANGED, (message) => {
    const { name } = (message ?? {}) as { name?: unknown };
    if (typeof name === 'string') domains.verificationChanged(name);
  });
}
