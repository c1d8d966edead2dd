import { Link, LinkEvents, LinkEventType } from '@lnk/links/domain';
import { EventSubscribers, RecordWebhookEventsUseCase } from '@lnk/webhooks/domain';

/** What a link event tells a receiver: the link as the API shows it, without its password hash. */
export function linkEventData(link: Link): Record<string, unknown> {
  return {
    id: link.id,
    slug: link.slug,
    url: link.url,
    title: link.title,
    description: link.description,
    status: link.status,
    domainId: link.domainId,
    hasPassword: link.hasPassword,
    tags: link.tagIds,
    createdAt: link.createdAt.toISOString(),
    updatedAt: link.updatedAt.toISOString(),
  };
}

/**
 * Link changes become webhook events in the change's own transaction (the outbox), for owners with a
 * webhook that wants them; other owners' changes run with no transaction and no enqueue.
 */
export class LinkEventsViaWebhooks extends LinkEvents {
  constructor(
    private readonly subscribers: EventSubscribers,
    private readonly record_: RecordWebhookEventsUseCase,
  ) {
    super();
  }

  wants(type: LinkEventType, ownerId: string): boolean {
    return this.subscribers.wants(type, ownerId);
  }

  async record(type: LinkEventType, link: Link, at: Date): Promise<void> {
    await this.recordAll(type, [link], at);
  }

  async recordAll(type: LinkEventType, links: Link[], at: Date): Promise<void> {
    await this.record_.execute(links.map((link) => ({ type, ownerId: link.ownerId, linkId: link.id, at, data: linkEventData(link) })));
  }
}
