import { Page, PageRequest } from '@lnk/shared/kernel';
import { Webhook } from '../model/webhook.entity';
import { WebhookRepository } from '../ports/webhook.repository';

export class ListWebhooksUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  execute(ownerId: string, page: PageRequest): Promise<Page<Webhook>> {
    return this.webhooks.listOfOwner(ownerId, page);
  }
}
