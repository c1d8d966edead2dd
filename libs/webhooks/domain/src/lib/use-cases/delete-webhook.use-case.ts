import { NotFoundError } from '@lnk/shared/kernel';
import { WebhookManagement } from './webhook.types';

export class DeleteWebhookUseCase {
  constructor(private readonly m: Pick<WebhookManagement, 'webhooks' | 'changes'>) {}

  async execute(ownerId: string, id: string): Promise<void> {
    if (!(await this.m.webhooks.deleteOfOwner(ownerId, id))) throw new NotFoundError('Webhook');
    await this.m.changes.webhooksChanged();
  }
}
