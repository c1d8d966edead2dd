import { Body, Controller, Inject, Param, Query } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { CurrentPrincipal, list, ok, okPage, PAGE_META, PageQueryDto, Route } from '@lnk/shared/http';
import { WEBHOOKS } from '../../composition/contexts.module';
import type { Webhooks } from '../../composition/webhooks.composition';
import { CreateWebhookDto, UpdateWebhookDto } from './webhooks.request.dto';
import { presentDelivery, presentWebhook, presentWebhookWithSecret } from './webhooks.presenter';
import { WebhookDeliverySchema, WebhookSchema, WebhookTestSchema, WebhookWithSecretSchema } from './webhooks.schemas';

/** Webhooks (an extension beyond the spec, issue 19): endpoints of the caller's told of link events, signed per Standard Webhooks. */
@Controller('user/webhooks')
export class WebhooksController {
  constructor(@Inject(WEBHOOKS) private readonly webhooks: Webhooks) {}

  @Route('POST', '', { operationId: 'createWebhook', scope: 'webhooks:write', answers: WebhookWithSecretSchema, summary: 'Create a webhook', description: 'Answers the webhook with its signing secret in it (`secret`), shown only now. The url must be https and resolve to public addresses only.' })
  async create(@CurrentPrincipal() principal: Principal, @Body() body: CreateWebhookDto) {
    return ok(presentWebhookWithSecret(await this.webhooks.create.execute(principal.userId, body)), 'Webhook created: keep the secret, it is not shown again');
  }

  @Route('GET', '', { operationId: 'listWebhooks', scope: 'webhooks:read', answers: list(WebhookSchema), meta: PAGE_META, summary: 'List your webhooks', description: 'Newest first, without their secrets.' })
  async list(@CurrentPrincipal() principal: Principal, @Query() query: PageQueryDto) {
    const page = await this.webhooks.list.execute(principal.userId, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentWebhook) });
  }

  @Route('GET', ':id', { operationId: 'getWebhook', scope: 'webhooks:read', answers: WebhookSchema, summary: 'Get a webhook', description: 'With why the service turned it off, if it did.' })
  async get(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentWebhook(await this.webhooks.get.execute(principal.userId, id)));
  }

  @Route('PUT', ':id', { operationId: 'updateWebhook', scope: 'webhooks:write', answers: WebhookSchema, summary: 'Change a webhook', description: 'Only the fields sent change; isActive false turns it off, true on again.' })
  async update(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Body() body: UpdateWebhookDto) {
    return ok(presentWebhook(await this.webhooks.update.execute(principal.userId, id, body)), 'Webhook updated');
  }

  @Route('DELETE', ':id', { operationId: 'deleteWebhook', scope: 'webhooks:write', answers: null, summary: 'Delete a webhook', description: 'With its deliveries, sent or pending.' })
  async remove(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    await this.webhooks.delete.execute(principal.userId, id);
    return ok(undefined, 'Webhook deleted');
  }

  @Route('POST', ':id/rotate-secret', { operationId: 'rotateWebhookSecret', scope: 'webhooks:write', answers: WebhookWithSecretSchema, summary: "Rotate a webhook's signing secret", description: 'Answers the webhook with its new signing secret in it (`secret`), shown only now; deliveries are signed with it from now on, retries included.' })
  async rotateSecret(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(presentWebhookWithSecret(await this.webhooks.rotateSecret.execute(principal.userId, id)), 'Secret rotated: keep it, it is not shown again');
  }

  @Route('POST', ':id/test', { operationId: 'sendWebhookTestEvent', scope: 'webhooks:write', answers: WebhookTestSchema, summary: 'Send a test event', description: 'Enqueues a webhook.test event for this webhook; its delivery shows in the deliveries list.' })
  async test(@CurrentPrincipal() principal: Principal, @Param('id') id: string) {
    return ok(await this.webhooks.test.execute(principal.userId, id), 'Test event enqueued');
  }

  @Route('GET', ':id/deliveries', { operationId: 'listWebhookDeliveries', scope: 'webhooks:read', answers: list(WebhookDeliverySchema), meta: PAGE_META, summary: "List a webhook's deliveries", description: "Newest first: status, attempts, the last response code and error, and when. A click's link.clicked event waits, with the click write's others, in a compact batch until the delivery worker makes it a delivery: it is listed from then on (within a poll interval while few deliveries are due)." })
  async deliveries(@CurrentPrincipal() principal: Principal, @Param('id') id: string, @Query() query: PageQueryDto) {
    const page = await this.webhooks.deliveries.execute(principal.userId, id, query.toPageRequest());
    return okPage({ ...page, items: page.items.map(presentDelivery) });
  }
}
