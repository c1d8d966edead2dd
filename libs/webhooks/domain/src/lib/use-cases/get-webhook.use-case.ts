import { found } from '@lnk/shared/kernel';
import { Webhook } from '../model/webhook.entity';
import { WebhookRepository } from '../ports/webhook.repository';

export class GetWebhookUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(ownerId: string, id: string): Promise<Webhook> {
    return found(await this.webhooks.findOfOwner(ownerId, id), 'Webhook');
  }
}
