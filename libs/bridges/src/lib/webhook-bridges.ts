import { ClickEvents, ClickKind, ClickSeries } from '@lnk/analytics/domain';
import { EndedLink, ExpiredLink, Link, LinkEvents, LinkEventType, LinkLifecycleEvents, LinkRepository } from '@lnk/links/domain';
import { EventSeries, eventBodyParts, EventSubscribers, RecordWebhookEventsUseCase, stableEventId, SUBSCRIBERS_MAX_AGE_MS, WebhookLinks, WebhookOutbox } from '@lnk/webhooks/domain';
import { Clock, IdGenerator } from '@lnk/shared/kernel';

/** A webhook's link filter names links of its owner's: the links context says which ids are. */
export class WebhookLinksOfLinks extends WebhookLinks {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  async ownedOf(ownerId: string, linkIds: string[]): Promise<string[]> {
    return (await this.links.findManyOfOwner(ownerId, linkIds)).map((l) => l.id);
  }
}

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
export class LinkEventsToWebhooks extends LinkEvents {
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

/**
 * Counted clicks become `link.clicked` events with the click write, for owners with a webhook that wants
 * them: stored as series (EventSeries) in one batch per webhook, not a delivery row per click; the
 * delivery worker makes the deliveries.
 */
export class ClickEventsToWebhooks extends ClickEvents {
  constructor(
    private readonly subscribers: EventSubscribers,
    private readonly record_: RecordWebhookEventsUseCase,
  ) {
    super();
  }

  wants(ownerId: string): boolean {
    return this.subscribers.wants('link.clicked', ownerId);
  }

  async record(clicks: ClickSeries[]): Promise<void> {
    // The click buffer holds a hot link's clicks as one series (they differ only in their moment): its body
    // is made once, the moments stay numbers. What cannot be split (see eventBodyParts) is recorded one by one.
    const series: EventSeries[] = [];
    const oneByOne: { kind: ClickKind; at: Date }[] = [];
    for (const { kind, ats } of clicks) {
      if (ats.length === 0) continue;
      const bodyParts = eventBodyParts('link.clicked', clickData(kind, new Date(ats[0])), ['clickedAt']);
      if (bodyParts) series.push({ type: 'link.clicked', ownerId: kind.ownerId, linkId: kind.linkId, bodyParts, ats });
      else for (const at of ats) oneByOne.push({ kind, at: new Date(at) });
    }
    await this.record_.executeSeries(series);
    await this.record_.execute(oneByOne.map(({ kind, at }) => ({ type: 'link.clicked' as const, ownerId: kind.ownerId, linkId: kind.linkId, at, data: clickData(kind, at) })));
  }
}

/** What a link.clicked event tells a receiver: the visit's derived dimensions, never its address. */
function clickData(c: ClickKind, at: Date): Record<string, unknown> {
  return {
    linkId: c.linkId,
    domainId: c.domainId,
    clickedAt: at.toISOString(),
    trigger: c.trigger,
    referrer: c.referrer,
    country: c.country,
    device: c.device,
    browser: c.browser,
    os: c.os,
    utm: { source: c.utmSource, medium: c.utmMedium, campaign: c.utmCampaign },
  };
}

/** Links that expired or used their last visit become `link.expired` / `link.limit_reached` events. */
export class LinkLifecycleToWebhooks extends LinkLifecycleEvents {
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

/**
 * The webhooks context's intake of the other contexts' events, built one way for the API and the redirect
 * app: one cache of who subscribes to what (EventSubscribers, read from the outbox) and one recorder behind
 * the sinks links and analytics tell their events to. `warn`: a read of the subscribers failed (the cache
 * answers "yes" to everyone meanwhile and reads again). Each app keeps `subscribers` told of webhook
 * changes (CACHE_CHANNELS.webhooksChanged, and a Redis outage).
 */
export function webhookEventSinks(outbox: WebhookOutbox, ids: IdGenerator, clock: Clock, warn: (error: Error) => void) {
  const subscribers = new EventSubscribers(outbox, clock, SUBSCRIBERS_MAX_AGE_MS, warn);
  const recordEvents = new RecordWebhookEventsUseCase(outbox, ids);
  return {
    subscribers,
    /** Reads the subscribers before the first request (until then every owner's events take the enqueue path); a failure is warned. */
    ready: (): Promise<void> => subscribers.refresh().catch(warn),
    /** For the links use cases. */
    linkEvents: new LinkEventsToWebhooks(subscribers, recordEvents),
    /** For the click buffer. */
    clickEvents: new ClickEventsToWebhooks(subscribers, recordEvents),
    /** For the short URLs (a link's last allowed visit) and the scan of expiries. */
    lifecycleEvents: new LinkLifecycleToWebhooks(subscribers, recordEvents),
  };
}
