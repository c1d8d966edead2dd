import { Clock } from '@lnk/shared/kernel';
import { WebhookEventType } from '../model/webhook-event';
import { WebhookOutbox } from '../ports/webhook-outbox.port';

/**
 * How old the subscriber cache may grow before it is read again in the background: a backstop, since
 * every webhook change invalidates it at once on every instance (through Redis when there are several).
 */
export const SUBSCRIBERS_MAX_AGE_MS = 5_000;

/**
 * Which owners have an active webhook for each event type, held in memory: the click path and the link
 * use cases ask per event (`wants`, a Set lookup) so that accounts without webhooks pay nothing more (no
 * transaction, no enqueue statement).
 *
 * Exact enough to lose no event: until it has read the subscriptions, and from the moment it is told they
 * changed (`invalidate`: a webhook changed here or on another instance, or invalidations may have been
 * missed) until it has read them again, it answers "yes" to every owner; the enqueue statement then does
 * the exact fan-out (and makes nothing for an owner without webhooks). It also reads again in the
 * background when older than `maxAgeMs`, a backstop for an invalidation that never arrived.
 */
export class EventSubscribers {
  private owners = new Map<string, Set<string>>();
  private readAt = -Infinity;
  /** Bumped by every invalidation: a read that started before one does not make the cache exact. */
  private generation = 0;
  private exactAt = -1;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  wants(type: WebhookEventType, ownerId: string): boolean {
    // Asked per counted click: the age from a number, no Date made.
    if (this.clock.nowMs() - this.readAt > this.maxAgeMs) this.readInBackground();
    if (this.exactAt !== this.generation) return true;
    return this.owners.get(type)?.has(ownerId) ?? false;
  }

  /** The owners subscribed to `type`, read again first when the cache is not exact or too old (for background work). */
  async ownersOf(type: WebhookEventType): Promise<string[]> {
    if (this.exactAt !== this.generation || this.clock.now().getTime() - this.readAt > this.maxAgeMs) await this.refresh();
    return [...(this.owners.get(type) ?? [])];
  }

  /** The subscriptions may have changed: "yes" to everyone until they are read again (which starts now). */
  invalidate(): void {
    this.generation++;
    this.readInBackground();
  }

  /** This instance changed a webhook: reads the subscriptions again before it answers (exact at once here). */
  async changed(): Promise<void> {
    this.generation++;
    await this.refresh();
  }

  /** Reads the subscriptions again (one read at a time; a call during one waits for it and reads once more). */
  async refresh(): Promise<void> {
    while (this.reading) await this.reading.catch(() => undefined);
    const generation = this.generation;
    this.readAt = this.clock.now().getTime();
    this.reading = this.outbox.subscriptions().then(
      (owners) => {
        this.owners = owners;
        this.exactAt = generation;
      },
      (error: Error) => {
        // Asked again at the next event rather than after a whole period; meanwhile "yes" to everyone.
        this.readAt = -Infinity;
        this.exactAt = -1;
        throw error;
      },
    );
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
  }

  private readInBackground(): void {
    // Marks the read as started at once, so that a burst of events starts one read, not one each.
    this.readAt = this.clock.now().getTime();
    void this.refresh().catch(this.onError);
  }
}
