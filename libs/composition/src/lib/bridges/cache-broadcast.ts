import { LinkChanges, LinkListChanges } from '@lnk/links/domain';
import { AccountChanges, RevocationListener } from '@lnk/identity/domain';
import { DomainVerificationListener } from '@lnk/domains/domain';
import { WebhookChangeListener } from '@lnk/webhooks/domain';
import { CACHE_CHANNELS, RedisBus } from '@lnk/shared/redis';

const {
  linkChanged: LINK_CHANGED,
  tokensRevoked: TOKENS_REVOKED,
  accountChanged: ACCOUNT_CHANGED,
  domainChanged: DOMAIN_CHANGED,
  webhooksChanged: WEBHOOKS_CHANGED,
  linksChanged: LINKS_CHANGED,
} = CACHE_CHANNELS;

// Each tells this instance's listener, and the other instances through Redis (listenToOtherInstances in
// shared/redis applies it there). A listener has one method and no state of its own: a function makes it.

/** A link change evicts this instance's cache and, through Redis, every other instance's. */
export const broadcastLinkChanges = (local: LinkChanges, bus: RedisBus): LinkChanges => ({
  linkChanged(domainId, slug) {
    local.linkChanged(domainId, slug);
    bus.publish(LINK_CHANGED, { domainId, slug });
  },
});

/** A committed change of an owner's links evicts the owner's list answers from every instance's list cache. */
export const broadcastLinkListChanges = (local: LinkListChanges, bus: RedisBus): LinkListChanges => ({
  linksChanged(ownerId) {
    local.linksChanged(ownerId);
    bus.publish(LINKS_CHANGED, { ownerId });
  },
});

/** A revocation empties every instance's cache of accepted tokens. */
export const broadcastRevocations = (local: RevocationListener, bus: RedisBus): RevocationListener => ({
  tokensRevoked() {
    local.tokensRevoked();
    bus.publish(TOKENS_REVOKED, {});
  },
});

/** A committed change of an account's row evicts it from every instance's cache of accounts. */
export const broadcastAccountChanges = (local: AccountChanges, bus: RedisBus): AccountChanges => ({
  accountChanged(userId) {
    local.accountChanged(userId);
    bus.publish(ACCOUNT_CHANGED, { userId });
  },
});

/** A domain verified or unverified (a re-check found its records gone): every instance forgets its host. */
export const broadcastDomainChanges = (local: DomainVerificationListener, bus: RedisBus): DomainVerificationListener => ({
  verificationChanged(name) {
    local.verificationChanged(name);
    bus.publish(DOMAIN_CHANGED, { name });
  },
});

/**
 * A webhook change: told to the other instances first (they stop trusting their subscriber cache as soon
 * as it arrives), then this instance reads its own again before the change is answered.
 */
export const broadcastWebhookChanges = (local: WebhookChangeListener, bus: RedisBus): WebhookChangeListener => ({
  async webhooksChanged() {
    bus.publish(WEBHOOKS_CHANGED, {});
    await local.webhooksChanged();
  },
});
