import { found, ValidationError } from '@lnk/shared/kernel';
import { TEST_EVENT_TYPE } from '../model/webhook-event';
import { WebhookManagement } from './webhook.types';

/** Enqueues a `webhook.test` event for this webhook alone; the worker sends it like any other. */
export class SendTestEventUseCase {
  constructor(private readonly m: Pick<WebhookManagement, 'webhooks' | 'outbox' | 'ids' | 'clock'>) {}

  async execute(ownerId: string, id: string): Promise<{ eventId: string }> {
    const webhook = found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
    // A turned-off webhook gets nothing, a test event neither: said so rather than answered as sent.
    if (!webhook.isActive)
      throw ValidationError.field('isActive', 'the webhook is turned off: turn it on (PUT with isActive true) to send it a test event');
    const eventId = this.m.ids.next();
    const at = this.m.clock.now();
    await this.m.outbox.enqueue(
      [
        {
          id: eventId,
          type: TEST_EVENT_TYPE,
          ownerId,
          linkId: null,
          at,
          data: { webhookId: webhook.id, message: 'A test event from lnk' },
        },
      ],
      webhook.id,
    );
    return { eventId };
  }
}
