import { ClickEvents, ClickKind, ClickSeries } from '@lnk/analytics/domain';
import { EventSeries, eventBodyParts, EventSubscribers, RecordWebhookEventsUseCase } from '@lnk/webhooks/domain';

/**
 * Counted clicks become `link.clicked` events with the click write, for owners with a webhook that wants
 * them: stored as series (EventSeries) in one batch per webhook, not a delivery row per click; the
 * delivery worker makes the deliveries.
 */
export class ClickEventsViaWebhooks extends ClickEvents {
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
    await this.record_.execute(
      oneByOne.map(({ kind, at }) => ({
        type: 'link.clicked' as const,
        ownerId: kind.ownerId,
        linkId: kind.linkId,
        at,
        data: clickData(kind, at),
      })),
    );
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
