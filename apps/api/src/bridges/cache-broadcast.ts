import { LinkChanges } from '@lnk/links/domain';
import { RevocationListener } from '@lnk/identity/domain';
import { RedisBus } from '@lnk/shared/redis';

const LINK_CHANGED = 'lnk:link-changed';
const TOKENS_REVOKED = 'lnk:tokens-revoked';

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

/** What other instances publish, applied to this instance's caches. */
export async function listenToOtherInstances(bus: RedisBus, links: LinkChanges, tokens: RevocationListener): Promise<void> {
  await bus.subscribe(LINK_CHANGED, (message) => {
    const { domainId, slug } = (message ?? {}) as { domainId?: unknown; slug?: unknown };
    if (typeof slug === 'string' && (domainId === null || typeof domainId === 'string')) links.linkChanged(domainId, slug);
  });
  await bus.subscribe(TOKENS_REVOKED, () => tokens.tokensRevoked());
}
