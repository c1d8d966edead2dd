import { Body, Controller, Param, Query } from '@nestjs/common';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  GetWebhookUseCase,
  ListDeliveriesUseCase,
  ListWebhooksUseCase,
  RotateWebhookSecretUseCase,
  SendTestEventUseCase,
  UpdateWebhookUseCase,
  type Webhook,
} from '@lnk/webhooks/domain';
import {
  type Caller,
  changeIfMatch,
  IfMatch,
  type IfMatchPrecondition,
  CurrentPrincipal,
  Cursors,
  list,
  ok,
  PAGE_META,
  PageQueryDto,
  Route,
} from '@lnk/shared/http';
import { CreateWebhookDto, UpdateWebhookDto } from './webhooks.request.dto';
import { presentDelivery, presentWebhook, presentWebhookWithSecret } from './webhooks.presenter';
import { WebhookDeliverySchema, WebhookSchema, WebhookTestSchema, WebhookWithSecretSchema } from './webhooks.schemas';

/** Webhooks (an extension beyond the spec, issue 19): endpoints of the caller's told of link events, signed per Standard Webhooks. */
@Controller('user/webhooks')
export class WebhooksController {
  constructor(
    private readonly createWebhook: CreateWebhookUseCase,
    private readonly listWebhooks: ListWebhooksUseCase,
    private readonly getWebhook: GetWebhookUseCase,
    private readonly updateWebhook: UpdateWebhookUseCase,
    private readonly deleteWebhook: DeleteWebhookUseCase,
    private readonly rotateWebhookSecret: RotateWebhookSecretUseCase,
    private readonly sendTestEvent: SendTestEventUseCase,
    private readonly listDeliveries: ListDeliveriesUseCase,
    private readonly cursors: Cursors,
  ) {}

  @Route('POST', '', {
    operationId: 'createWebhook',
    scope: 'webhooks:write',
    answers: WebhookWithSecretSchema,
    idempotent: 'secret',
    summary: 'Create a webhook',
    description:
      'Answers the webhook with its signing secret in it (`secret`), shown only ' +
      'now. The url must be https and resolve to public addresses only.',
  })
  async create(@CurrentPrincipal() caller: Caller, @Body() body: CreateWebhookDto) {
    return ok(
      presentWebhookWithSecret(await this.createWebhook.execute(caller.userId, body)),
      'Webhook created: keep the secret, it is not shown again',
    );
  }

  @Route('GET', '', {
    operationId: 'listWebhooks',
    scope: 'webhooks:read',
    answers: list(WebhookSchema),
    meta: PAGE_META,
    summary: 'List your webhooks',
    description: 'Newest first, without their secrets.',
  })
  async list(@CurrentPrincipal() caller: Caller, @Query() query: PageQueryDto) {
    const scope = { list: 'webhooks', owner: caller.userId };
    return this.cursors.answer(query, scope, (request) => this.listWebhooks.execute(caller.userId, request), presentWebhook);
  }

  @Route('GET', ':id', {
    operationId: 'getWebhook',
    scope: 'webhooks:read',
    answers: WebhookSchema,
    etag: true,
    summary: 'Get a webhook',
    description: 'With why the service turned it off, if it did.',
  })
  async get(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    return ok(presentWebhook(await this.getWebhook.execute(caller.userId, id)));
  }

  @Route('PUT', ':id', {
    operationId: 'updateWebhook',
    scope: 'webhooks:write',
    answers: WebhookSchema,
    etag: true,
    summary: 'Change a webhook',
    description: 'Only the fields sent change; isActive false turns it off, true on again.',
  })
  async update(
    @CurrentPrincipal() caller: Caller,
    @Param('id') id: string,
    @Body() body: UpdateWebhookDto,
    @IfMatch() precondition: IfMatchPrecondition,
  ) {
    const change = (expected?: (current: Webhook) => boolean) => this.updateWebhook.execute(caller.userId, id, body, expected);
    const webhook = await changeIfMatch(precondition, {
      present: presentWebhook,
      change,
      current: () => this.getWebhook.execute(caller.userId, id),
    });
    return ok(webhook, 'Webhook updated');
  }

  @Route('DELETE', ':id', {
    operationId: 'deleteWebhook',
    scope: 'webhooks:write',
    answers: null,
    summary: 'Delete a webhook',
    description: 'With its deliveries, sent or pending.',
  })
  async remove(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    await this.deleteWebhook.execute(caller.userId, id);
    return ok(undefined, 'Webhook deleted');
  }

  @Route('POST', ':id/rotate-secret', {
    operationId: 'rotateWebhookSecret',
    scope: 'webhooks:write',
    answers: WebhookWithSecretSchema,
    summary: "Rotate a webhook's signing secret",
    description:
      'Answers the webhook with its new signing secret in it (`secret`), shown only ' +
      'now; deliveries are signed with it from now on, retries included.',
  })
  async rotateSecret(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    return ok(
      presentWebhookWithSecret(await this.rotateWebhookSecret.execute(caller.userId, id)),
      'Secret rotated: keep it, it is not shown again',
    );
  }

  @Route('POST', ':id/test', {
    operationId: 'sendWebhookTestEvent',
    scope: 'webhooks:write',
    answers: WebhookTestSchema,
    summary: 'Send a test event',
    description: 'Enqueues a webhook.test event for this webhook; its delivery shows in the deliveries list.',
  })
  async test(@CurrentPrincipal() caller: Caller, @Param('id') id: string) {
    return ok(await this.sendTestEvent.execute(caller.userId, id), 'Test event enqueued');
  }

  @Route('GET', ':id/deliveries', {
    operationId: 'listWebhookDeliveries',
    scope: 'webhooks:read',
    answers: list(WebhookDeliverySchema),
    meta: PAGE_META,
    summary: "List a webhook's deliveries",
    description:
      "Newest first: status, attempts, the last response code and error, and when. A click's link.clicked event " +
      "waits, with the click write's others, in a compact batch until the delivery worker makes it a delivery: " +
      'it is listed from then on (within a poll interval while few deliveries are due).',
  })
  async deliveries(@CurrentPrincipal() caller: Caller, @Param('id') id: string, @Query() query: PageQueryDto) {
    const scope = { list: 'webhook-deliveries', owner: caller.userId, query: { webhook: id } };
    return this.cursors.answer(query, scope, (request) => this.listDeliveries.execute(caller.userId, id, request), presentDelivery);
  }
}
