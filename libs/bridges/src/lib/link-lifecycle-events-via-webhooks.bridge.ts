import { EndedLink, ExpiredLink, LinkLifecycleEvents } from '@lnk/links/domain';
import { EventSubscribers, RecordWebhookEventsUseCase, stableEventId } from '@lnk/webhooks/domain';

/** Links that expired or used their last visit become `link.expired` / `link.limit_reached` events. */
export class LinkLifecycleEventsViaWebhooks extends LinkLifecycleEvents {
  constructor(
    private readonly subscribers: EventSubscribers,
    private readonly record_: RecordWebhookEventsUseCase,
  ) {
    super();
  }

  ownersWantingExpiries(): Promise<string[]> {
    return this.subscribers.ownersOf('link.expired');
  }

  async expired(links: ExpiredLink[]): Promise<void> {
    await this.record_.execute(
      links.map((l) => ({
        // Every instance's scan tells of this expiry: one id, so one delivery per webhook.
        id: stableEventId(`link.expired:${l.id}:${l.expiresAt.toISOString()}`),
        type: 'link.expired' as const,
        ownerId: l.ownerId,
        linkId: l.id,
        at: l.expiresAt,
        data: { id: l.id, slug: l.slug, domainId: l.domainId, expiresAt: l.expiresAt.toISOString() },
      })),
    );
  }

  async limitReached(link: EndedLink, maxVisits: number, at: Date): Promise<void> {
    if (!this.subscribers.wants('link.limit_reached', link.ownerId)) return;
    await this.record_.execute([
      {
        type: 'link.limit_reached',
        ownerId: link.ownerId,
        linkId: link.id,
        at,
        data: { id: link.id, slug: link.slug, domainId: link.domainId, maxVisits, reachedAt: at.toISOString() },
      },
    ]);
  }
}
