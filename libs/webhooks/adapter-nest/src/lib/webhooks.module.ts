import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import {
  CreateWebhookUseCase,
  DeleteWebhookUseCase,
  DestinationGuard,
  GetWebhookUseCase,
  ListDeliveriesUseCase,
  ListWebhooksUseCase,
  RotateWebhookSecretUseCase,
  SendTestEventUseCase,
  UpdateWebhookUseCase,
  WebhookChangeListener,
  WebhookLinks,
  WebhookManagement,
  WebhookOutbox,
  WebhookRepository,
  WebhookSecretBox,
  WebhookSecretGenerator,
} from '@lnk/webhooks/domain';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { providerOf } from '@lnk/shared/http';
import { WebhooksController } from './webhooks.controller';
import { WEBHOOKS_PORTS, WebhooksPorts } from './webhooks.ports';
import { WebhooksSettings } from './webhooks.settings';

export interface WebhooksModuleOptions {
  ports: WebhooksPorts;
  settings: WebhooksSettings;
}

/**
 * `WebhooksModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound and the settings
 * (Nest's ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<WebhooksModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(WEBHOOKS_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: WebhooksModuleOptions) => ports[name as keyof WebhooksPorts],
}));

/** The domain's WebhookManagement (an interface, so a token of this module's own): what changing webhooks needs. */
const WEBHOOK_MANAGEMENT = 'WebhookManagement';

/** Each use case, built from the ports it needs (injected by their classes), once for the app. */
const USE_CASES: Provider[] = [
  providerOf(
    WEBHOOK_MANAGEMENT,
    [
      WebhookRepository,
      WebhookOutbox,
      DestinationGuard,
      WebhookLinks,
      WebhookSecretGenerator,
      WebhookSecretBox,
      IdGenerator,
      Clock,
      WebhookChangeListener,
      WebhooksSettings,
    ],
    (webhooks, outbox, guard, links, secrets, box, ids, clock, changes, settings): WebhookManagement => ({
      webhooks,
      outbox,
      guard,
      links,
      secrets,
      box,
      ids,
      clock,
      changes,
      config: { allowPrivate: settings.allowPrivate },
    }),
  ),
  { provide: CreateWebhookUseCase, inject: [WEBHOOK_MANAGEMENT], useFactory: (m: WebhookManagement) => new CreateWebhookUseCase(m) },
  { provide: UpdateWebhookUseCase, inject: [WEBHOOK_MANAGEMENT], useFactory: (m: WebhookManagement) => new UpdateWebhookUseCase(m) },
  providerOf(DeleteWebhookUseCase, { webhooks: WebhookRepository, changes: WebhookChangeListener }),
  providerOf(RotateWebhookSecretUseCase, {
    webhooks: WebhookRepository,
    secrets: WebhookSecretGenerator,
    box: WebhookSecretBox,
    clock: Clock,
  }),
  providerOf(SendTestEventUseCase, { webhooks: WebhookRepository, outbox: WebhookOutbox, ids: IdGenerator, clock: Clock }),
  providerOf(ListWebhooksUseCase, [WebhookRepository]),
  providerOf(GetWebhookUseCase, [WebhookRepository]),
  providerOf(ListDeliveriesUseCase, [WebhookRepository, WebhookOutbox]),
];

/** The webhooks context's controllers (the app's route walk and scope table read them before any app starts). */
export const WEBHOOKS_CONTROLLERS = [WebhooksController];

/**
 * The webhooks context's HTTP face: its controller and the management use cases, built from the ports the
 * app binds. Delivering is not here: the app composes the delivery worker (in the API process or a
 * process of its own) and the event sinks the links and analytics contexts tell their events to.
 */
@Module({
  controllers: WEBHOOKS_CONTROLLERS,
  providers: [
    ...PORTS,
    { provide: WebhooksSettings, inject: [OPTIONS], useFactory: ({ settings }: WebhooksModuleOptions) => settings },
    ...USE_CASES,
  ],
})
export class WebhooksModule extends ConfigurableModuleClass {}
