import { EventSubscribers, RecordWebhookEventsUseCase, SUBSCRIBERS_MAX_AGE_MS, WebhookOutbox } from '@lnk/webhooks/domain';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { ClickEventsViaWebhooks } from './click-events-via-webhooks.bridge';
import { LinkEventsViaWebhooks } from './link-events-via-webhooks.bridge';
import { LinkLifecycleEventsViaWebhooks } from './link-lifecycle-events-via-webhooks.bridge';

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
    linkEvents: new LinkEventsViaWebhooks(subscribers, recordEvents),
    /** For the click buffer. */
    clickEvents: new ClickEventsViaWebhooks(subscribers, recordEvents),
    /** For the short URLs (a link's last allowed visit) and the scan of expiries. */
    lifecycleEvents: new LinkLifecycleEventsViaWebhooks(subscribers, recordEvents),
  };
}
