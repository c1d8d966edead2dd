import { checkEach, Clock, found, IdGenerator, NotFoundError, Page, PageRequest, ValidationError } from '@lnk/shared/kernel';
import { checkWebhookDescription, checkWebhookEvents, MAX_WEBHOOKS_PER_ACCOUNT, Webhook, WebhookChanges } from '../model/webhook.entity';
import { DestinationGuard, WebhookChangeListener, WebhookLinks, WebhookSecretBox, WebhookSecretGenerator } from '../ports/outbound.ports';
import { Delivery, WebhookOutbox } from '../ports/webhook-outbox.port';
import { WebhookRepository } from '../ports/webhook.repository';
import { WebhookRules } from './webhook-rules';
import { WebhookFields, WebhooksConfig, WebhookWithSecret } from './webhook.types';
import { TEST_EVENT_TYPE } from '../model/webhook-event';

/** What creating, changing and deleting webhooks needs. */
export interface WebhookManagement {
  webhooks: WebhookRepository;
  outbox: WebhookOutbox;
  guard: DestinationGuard;
  links: WebhookLinks;
  secrets: WebhookSecretGenerator;
  box: WebhookSecretBox;
  ids: IdGenerator;
  clock: Clock;
  /** Told of every change, so that the subscriber caches (this instance's and the others') see it at once. */
  changes: WebhookChangeListener;
  config: WebhooksConfig;
}

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

export class ListWebhooksUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  execute(ownerId: string, page: PageRequest): Promise<Page<Webhook>> {
    return this.webhooks.listOfOwner(ownerId, page);
  }
}

export class GetWebhookUseCase {
  constructor(private readonly webhooks: WebhookRepository) {}

  async execute(ownerId: string, id: string): Promise<Webhook> {
    return found(await this.webhooks.findOfOwner(ownerId, id), 'Webhook');
  }
}

export class UpdateWebhookUseCase {
  private readonly rules: WebhookRules;

  constructor(private readonly m: WebhookManagement) {
    this.rules = new WebhookRules(m.guard, m.links, m.config.allowPrivate);
  }

  async execute(ownerId: string, id: string, fields: WebhookFields): Promise<Webhook> {
    const webhook = found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
    const changes: WebhookChanges = {};
    const [events, description] = checkEach(
      () => (fields.events === undefined ? undefined : checkWebhookEvents(fields.events)),
      () => (fields.description === undefined ? undefined : checkWebhookDescription(fields.description)),
      () => {
        if (fields.isActive !== undefined && typeof fields.isActive !== 'boolean') throw ValidationError.field('isActive', 'isActive must be a boolean');
      },
    );
    if (events !== undefined) changes.events = events;
    if (description !== undefined) changes.description = description;
    if (fields.isActive !== undefined) changes.isActive = fields.isActive as boolean;
    if (fields.url !== undefined) changes.url = await this.rules.url(fields.url);
    if (fields.linkIds !== undefined) changes.linkIds = await this.rules.linkIds(ownerId, fields.linkIds);
    webhook.change(changes, this.m.clock.now());
    await this.m.webhooks.update(webhook);
    await this.m.changes.webhooksChanged();
    return webhook;
  }
}

export class DeleteWebhookUseCase {
  constructor(private readonly m: Pick<WebhookManagement, 'webhooks' | 'changes'>) {}

  async execute(ownerId: string, id: string): Promise<void> {
    if (!(await this.m.webhooks.deleteOfOwner(ownerId, id))) throw new NotFoundError('Webhook');
    await this.m.changes.webhooksChanged();
  }
}

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

/** Enqueues a `webhook.test` event for this webhook alone; the worker sends it like any other. */
export class SendTestEventUseCase {
  constructor(private readonly m: Pick<WebhookManagement, 'webhooks' | 'outbox' | 'ids' | 'clock'>) {}

  async execute(ownerId: string, id: string): Promise<{ eventId: string }> {
    const webhook = found(await this.m.webhooks.findOfOwner(ownerId, id), 'Webhook');
    // A turned-off webhook gets nothing, a test event neither: said so rather than answered as sent.
    if (!webhook.isActive) throw ValidationError.field('isActive', 'the webhook is turned off: turn it on (PUT with isActive true) to send it a test event');
    const eventId = this.m.ids.next();
    const at = this.m.clock.now();
    await this.m.outbox.enqueue([{ id: eventId, type: TEST_EVENT_TYPE, ownerId, linkId: null, at, data: { webhookId: webhook.id, message: 'A test event from lnk' } }], webhook.id);
    return { eventId };
  }
}

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
