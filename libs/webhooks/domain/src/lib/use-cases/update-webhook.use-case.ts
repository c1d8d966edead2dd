import { checkEach, found, NotFoundError, PreconditionFailedError, ValidationError } from '@lnk/shared/kernel';
import { checkWebhookDescription, checkWebhookEvents, Webhook, WebhookChanges } from '../model/webhook.entity';
import { WebhookRules } from '../services/webhook-rules';
import { WebhookFields, WebhookManagement } from './webhook.types';

export class UpdateWebhookUseCase {
  private readonly rules: WebhookRules;

  constructor(private readonly m: WebhookManagement) {
    this.rules = new WebhookRules(m.guard, m.links, m.config.allowPrivate);
  }

  /**
   * `expected`: the change is made only if the webhook is still as the caller last read it (If-Match),
   * asked of it as read here; the write is conditional on no other write coming since that read.
   */
  async execute(ownerId: string, id: string, fields: WebhookFields, expected?: (current: Webhook) => boolean): Promise<Webhook> {
    const webhook = found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
    if (expected && !expected(webhook)) throw new PreconditionFailedError('webhook');
    const readAt = webhook.updatedAt;
    const changes: WebhookChanges = {};
    const [events, description] = checkEach(
      () => (fields.events === undefined ? undefined : checkWebhookEvents(fields.events)),
      () => (fields.description === undefined ? undefined : checkWebhookDescription(fields.description)),
      () => {
        if (fields.isActive !== undefined && typeof fields.isActive !== 'boolean')
          throw ValidationError.field('isActive', 'isActive must be a boolean');
      },
    );
    if (events !== undefined) changes.events = events;
    if (description !== undefined) changes.description = description;
    if (fields.isActive !== undefined) changes.isActive = fields.isActive as boolean;
    if (fields.url !== undefined) changes.url = await this.rules.url(fields.url);
    if (fields.linkIds !== undefined) changes.linkIds = await this.rules.linkIds(ownerId, fields.linkIds);
    webhook.change(changes, this.m.clock.now());
    // Not saved: another write came since the read (with a condition), or the webhook is gone.
    if (!(await this.m.webhooks.update(webhook, expected ? readAt : undefined)))
      throw expected ? new PreconditionFailedError('webhook') : new NotFoundError('Webhook');
    await this.m.changes.webhooksChanged();
    // As stored (its updatedAt moved on past the last write).
    return found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
  }
}
