import { Clock, Page } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { WebhookEventType } from '../model/webhook-event';
import { Delivery, WebhookOutbox } from '../ports/webhook-outbox.port';
import { EventSubscribers } from './event-subscribers';

/** Subscriptions as the database holds them; a read can be held open to interleave a change with it. */
class SubscriptionsOutbox extends WebhookOutbox {
  stored = new Map<WebhookEventType, Set<string>>();
  reads = 0;
  hold: Promise<void> | null = null;
  async subscriptions() {
    this.reads++;
    // Read at the start, answered after the hold: a change made meanwhile is not in this answer.
    const copy = new Map([...this.stored].map(([type, owners]) => [type, new Set(owners)]));
    if (this.hold) await this.hold;
    return copy;
  }
  async enqueue() {
    return 0;
  }
  async enqueueSeries() {
    return 0;
  }
  async expandBatches() {
    return 0;
  }
  async claimDue() {
    return [];
  }
  async recordSuccesses() {
    return;
  }
  async recordFailure() {
    return 0;
  }
  async disableWebhook() {
    return;
  }
  async setInFlightLimit() {
    return;
  }
  async listOfWebhook(): Promise<Page<Delivery>> {
    throw new Error('not used');
  }
  async purgeFinished() {
    return 0;
  }
}

const clock: Clock = clockReading(() => new Date('2026-01-01T00:00:00Z'));

describe('EventSubscribers', () => {
  let outbox: SubscriptionsOutbox;
  let subscribers: EventSubscribers;
  beforeEach(() => {
    outbox = new SubscriptionsOutbox();
    subscribers = new EventSubscribers(outbox, clock, 60_000);
  });

  it('answers yes to everyone until it has read the subscriptions, then exactly', async () => {
    outbox.stored.set('link.created', new Set(['ada']));
    // Unsure: the caller takes the exact path (the enqueue statement makes nothing for an owner without webhooks).
    expect(subscribers.wants('link.created', 'bob')).toBe(true);
    await subscribers.refresh();
    expect(subscribers.wants('link.created', 'ada')).toBe(true);
    expect(subscribers.wants('link.created', 'bob')).toBe(false);
    expect(subscribers.wants('link.clicked', 'ada')).toBe(false);
  });

  // Another instance created a webhook: from the moment this one hears of it, no event of it is skipped.
  it('answers yes to everyone from an invalidation until it has read again, and a read begun before it does not count', async () => {
    await subscribers.refresh();
    expect(subscribers.wants('link.created', 'bob')).toBe(false);
    let release: () => void = () => undefined;
    outbox.hold = new Promise((resolve) => (release = resolve));
    subscribers.invalidate();
    // The webhook is stored after that read began (it cannot see it).
    outbox.stored.set('link.created', new Set(['bob']));
    subscribers.invalidate();
    expect(subscribers.wants('link.created', 'bob')).toBe(true);
    outbox.hold = null;
    release();
    await subscribers.refresh();
    expect(subscribers.wants('link.created', 'bob')).toBe(true);
    expect(subscribers.wants('link.created', 'carol')).toBe(false);
  });

  it("reads again before answering this instance's own change", async () => {
    await subscribers.refresh();
    outbox.stored.set('link.expired', new Set(['ada']));
    await subscribers.changed();
    expect(subscribers.wants('link.expired', 'ada')).toBe(true);
    expect(await subscribers.ownersOf('link.expired')).toEqual(['ada']);
    expect(subscribers.wants('link.expired', 'bob')).toBe(false);
  });
});
