import { CACHE_CHANNELS } from './channels';
import type { RedisBus } from './redis-bus';

/**
 * What an instance does when another one tells it of a change (see CACHE_CHANNELS), one entry a channel:
 * each app gives those of the caches it keeps (the API all of them; the redirect app links, domains and
 * webhooks). A message of the wrong shape is ignored.
 */
export interface CacheListeners {
  linkChanged?: (domainId: string | null, slug: string) => void;
  tokensRevoked?: () => void;
  accountChanged?: (userId: string) => void;
  webhooksChanged?: () => void;
  domainChanged?: (name: string) => void;
  /** An owner's links changed: the API's list cache forgets that owner's answers. */
  linksChanged?: (ownerId: string) => void;
}

/** Subscribes to the channels of the listeners given, in one order for both apps. */
export async function listenToOtherInstances(bus: Pick<RedisBus, 'subscribe'>, on: CacheListeners): Promise<void> {
  const { linkChanged, tokensRevoked, accountChanged, webhooksChanged, domainChanged, linksChanged } = on;
  if (linkChanged)
    await bus.subscribe(CACHE_CHANNELS.linkChanged, (message) => {
      const { domainId, slug } = (message ?? {}) as { domainId?: unknown; slug?: unknown };
      if (typeof slug === 'string' && (domainId === null || typeof domainId === 'string')) linkChanged(domainId, slug);
    });
  if (tokensRevoked) await bus.subscribe(CACHE_CHANNELS.tokensRevoked, () => tokensRevoked());
  if (accountChanged)
    await bus.subscribe(CACHE_CHANNELS.accountChanged, (message) => {
      const { userId } = (message ?? {}) as { userId?: unknown };
      if (typeof userId === 'string') accountChanged(userId);
    });
  if (webhooksChanged) await bus.subscribe(CACHE_CHANNELS.webhooksChanged, () => webhooksChanged());
  if (domainChanged)
    await bus.subscribe(CACHE_CHANNELS.domainChanged, (message) => {
      const { name } = (message ?? {}) as { name?: unknown };
      if (typeof name === 'string') domainChanged(name);
    });
  if (linksChanged)
    await bus.subscribe(CACHE_CHANNELS.linksChanged, (message) => {
      const { ownerId } = (message ?? {}) as { ownerId?: unknown };
      if (typeof ownerId === 'string') linksChanged(ownerId);
    });
}
