import { ConfigurableModuleBuilder, Module, Provider } from '@nestjs/common';
import {
  AccountQuotaRepository,
  ActivateCheckout,
  CheckoutRepository,
  GetSandboxCheckoutUseCase,
  GetSubscriptionUseCase,
  HandlePaymentEventUseCase,
  ListPlansUseCase,
  PaymentGateway,
  PaymentWebhookReader,
  PaySandboxCheckoutUseCase,
  PlanCatalog,
  PlanQuotaPolicy,
  ReceivePaymentWebhookUseCase,
  SandboxCheckouts,
  StartCheckoutUseCase,
  SubscriptionRepository,
  VerifyCheckoutUseCase,
} from '@lnk/billing/domain';
import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { providerOf } from '@lnk/shared/http';
import { SandboxCheckoutController, StripeWebhookController, SubscriptionController } from './billing.controller';
import { BILLING_PORTS, BillingPorts } from './billing.ports';
import { BillingSettings } from './billing.settings';

export interface BillingModuleOptions {
  ports: BillingPorts;
  settings: BillingSettings;
}

/**
 * `BillingModule.forRootAsync({ inject, useFactory })`: the app gives the ports it bound and the settings
 * (Nest's ConfigurableModuleBuilder makes the methods and the options' provider).
 */
const { ConfigurableModuleClass, MODULE_OPTIONS_TOKEN: OPTIONS } = new ConfigurableModuleBuilder<BillingModuleOptions>()
  .setClassMethodName('forRoot')
  .build();

/** Each port under its abstract class, as the app bound it. */
const PORTS: Provider[] = Object.entries(BILLING_PORTS).map(([name, port]) => ({
  provide: port,
  inject: [OPTIONS],
  useFactory: ({ ports }: BillingModuleOptions) => ports[name as keyof BillingPorts],
}));

/** Each use case, built from the ports it needs (injected by their classes), once for the app. */
const USE_CASES: Provider[] = [
  providerOf(PlanCatalog, [BillingSettings], (settings) => new PlanCatalog(settings.plans)),
  providerOf(PlanQuotaPolicy, [AccountQuotaRepository, PlanCatalog]),
  // Shared by the user's verify and the provider's events, which may activate one checkout at once.
  providerOf(ActivateCheckout, {
    subscriptions: SubscriptionRepository,
    gateway: PaymentGateway,
    uow: UnitOfWork,
    ids: IdGenerator,
    clock: Clock,
  }),
  providerOf(ListPlansUseCase, [PlanCatalog]),
  providerOf(GetSubscriptionUseCase, {
    subscriptions: SubscriptionRepository,
    catalog: PlanCatalog,
    uow: UnitOfWork,
    ids: IdGenerator,
    clock: Clock,
    quota: PlanQuotaPolicy,
  }),
  providerOf(StartCheckoutUseCase, {
    subscriptions: SubscriptionRepository,
    checkouts: CheckoutRepository,
    gateway: PaymentGateway,
    catalog: PlanCatalog,
    clock: Clock,
  }),
  providerOf(VerifyCheckoutUseCase, [SubscriptionRepository, CheckoutRepository, PaymentGateway, ActivateCheckout]),
  providerOf(HandlePaymentEventUseCase, {
    subscriptions: SubscriptionRepository,
    checkouts: CheckoutRepository,
    activation: ActivateCheckout,
    catalog: PlanCatalog,
    uow: UnitOfWork,
    ids: IdGenerator,
    clock: Clock,
  }),
  providerOf(ReceivePaymentWebhookUseCase, [PaymentWebhookReader, HandlePaymentEventUseCase]),
  providerOf(GetSandboxCheckoutUseCase, [SandboxCheckouts]),
  providerOf(PaySandboxCheckoutUseCase, [SandboxCheckouts, HandlePaymentEventUseCase]),
];

/** The billing context's controllers (the app's route walk and scope table read them before any app starts). */
export const BILLING_CONTROLLERS = [SubscriptionController, StripeWebhookController, SandboxCheckoutController];

/**
 * The billing context's HTTP face: plans and the account's subscription, Stripe's webhook and the sandbox
 * provider's page, with their use cases built from the ports the app binds. What the app's platform uses
 * (an account's limits, the operator's commands, quotas for the other contexts) the app composes itself.
 */
@Module({
  controllers: BILLING_CONTROLLERS,
  providers: [
    ...PORTS,
    { provide: BillingSettings, inject: [OPTIONS], useFactory: ({ settings }: BillingModuleOptions) => settings },
    ...USE_CASES,
  ],
})
export class BillingModule extends ConfigurableModuleClass {}
