import { checkEach } from '@lnk/shared/kernel';
import { checkWebhookDescription, checkWebhookEvents, MAX_WEBHOOKS_PER_ACCOUNT, Webhook } from '../model/webhook.entity';
import { WebhookRules } from '../services/webhook-rules';
import { WebhookFields, WebhookWithSecret, WebhookManagement } from './webhook.types';

export class CreateWebhookUseCase {
  private readonly rules: WebhookRules;

  constructor(private readonly m: WebhookManagement) {
    this.rules = new WebhookRules(m.guard, m.links, m.config.allowPrivate);
  }

  async execute(ownerId: string, fields: WebhookFields): Promise<WebhookWithSecret> {
    const [events, description] = checkEach(
      () => checkWebhookEvents(fields.events),
      () => checkWebhookDescription(fields.description),
    );
    const url = await this.rules.url(fields.url);
    const linkIds = await this.rules.linkIds(ownerId, fields.linkIds);
    const secret = this.m.secrets.generate();
    const now = this.m.clock.now();
    const webhook = new Webhook({
      id: this.m.ids.next(),
      ownerId,
      url,
      events,
      linkIds,
      description,
      sealedSecret: this.m.box.seal(secret),
      isActive: true,
      disabledReason: null,
      consecutiveFailures: 0,
      createdAt: now,
      updatedAt: now,
    });
    await this.m.webhooks.insertWithinLimit(webhook, MAX_WEBHOOKS_PER_ACCOUNT);
    await this.m.changes.webhooksChanged();
    return { webhook, secret };
  }
}
