import { found, Page, PageRequest } from '@lnk/shared/kernel';
import { Delivery, WebhookOutbox } from '../ports/webhook-outbox.port';
import { WebhookRepository } from '../ports/webhook.repository';

export class ListDeliveriesUseCase {
  constructor(
    private readonly webhooks: WebhookRepository,
    private readonly outbox: WebhookOutbox,
  ) {}

  async execute(ownerId: string, id: string, page: PageRequest): Promise<Page<Delivery>> {
    found(await this.webhooks.findOfOwner(ownerId, id), 'Webhook');
    return this.outbox.listOfWebhook(id, page);
  }
}
