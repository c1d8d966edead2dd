import { Clock } from '@lnk/shared/kernel';
import { WebhookEventType } from '../model/webhook-event';
import { WebhookOutbox } from '../ports/webhook-outbox.port';

/**
 * The owners with an active webhook for one event type, held in memory and read again in the background
 * when older than `maxAgeMs`: the click path asks per click (`wants`, a Set lookup) so that accounts
 * without webhooks pay nothing more. This instance's own webhook changes refresh it at once (`refresh`);
 * another instance's are seen within `maxAgeMs`.
 */
export class EventSubscribers {
  private owners = new Set<string>();
  private readAt = -Infinity;
  private reading: Promise<void> | null = null;

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly type: WebhookEventType,
    private readonly clock: Clock,
    private readonly maxAgeMs: number,
    private readonly onError: (error: Error) => void = () => undefined,
  ) {}

  wants(ownerId: string): boolean {
    if (this.clock.now().getTime() - this.readAt > this.maxAgeMs) void this.refresh().catch(this.onError);
    return this.owners.size > 0 && this.owners.has(ownerId);
  }

  /** Reads the owners again (one read at a time; a call during one waits for it and reads once more). */
  async refresh(): Promise<void> {
    while (this.reading) await this.reading.catch(() => undefined);
    const startedAt = this.clock.now().getTime();
    this.readAt = startedAt;
    this.reading = this.outbox.ownersSubscribedTo(this.type).then(
      (owners) => {
        this.owners = owners;
      },
      (error: Error) => {
        // Asked again at the next click rather than after a whole period.
        this.readAt = -Infinity;
        throw error;
      },
    );
    try {
      await this.reading;
    } finally {
      this.reading = null;
    }
  }
}
