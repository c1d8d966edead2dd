import { IdGenerator } from '@lnk/shared/kernel';
import { EventSeries, WebhookEvent } from '../model/webhook-event';
import { WebhookOutbox } from '../ports/webhook-outbox.port';

/** An event to record; `id` only when it must be the same whoever records it (see stableEventId), else one is made. */
export type NewWebhookEvent = Omit<WebhookEvent, 'id'> & { id?: string };

/**
 * Puts events in the outbox, in the caller's unit of work: called by other contexts (through bridges)
 * inside the transaction of the change the events tell of. Each event gets its id here.
 */
export class RecordWebhookEventsUseCase {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly ids: IdGenerator,
  ) {}

  async execute(events: NewWebhookEvent[]): Promise<number> {
    if (events.length === 0) return 0;
    return this.outbox.enqueue(events.map((e) => ({ ...e, id: e.id ?? this.ids.next() })));
  }

  /**
   * For events at a high rate (a click write's link.clicked), as series (see EventSeries): stored as one
   * batch per matching webhook, made into deliveries by the delivery worker (DeliverWebhooksUseCase), so
   * the caller's write stays small.
   */
  async executeSeries(series: EventSeries[]): Promise<number> {
    const some = series.filter((s) => s.ats.length > 0);
    if (some.length === 0) return 0;
    return this.outbox.enqueueSeries(some);
  }
}
