import { found } from '@lnk/shared/kernel';
import { WebhookWithSecret, WebhookManagement } from './webhook.types';

/** A new signing secret: the old one stops signing at once (receivers switch when they get the new one). */
export class RotateWebhookSecretUseCase {
  constructor(private readonly m: Pick<WebhookManagement, 'webhooks' | 'secrets' | 'box' | 'clock'>) {}

  async execute(ownerId: string, id: string): Promise<WebhookWithSecret> {
    const webhook = found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
    const secret = this.m.secrets.generate();
    webhook.rotateSecret(this.m.box.seal(secret), this.m.clock.now());
    await this.m.webhooks.update(webhook);
    return { webhook, secret };
  }
}
