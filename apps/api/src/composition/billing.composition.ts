import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import {
  AccountUsage,
  ActivateCheckout,
  AssignPlanUseCase,
  BillingIncidents,
  EraseBillingAccountUseCase,
  GetAccountLimitsUseCase,
  GetSubscriptionUseCase,
  HandlePaymentEventUseCase,
  ListPlansUseCase,
  NoPaymentProvider,
  PaymentGateway,
  PlanCatalog,
  PlanQuotaPolicy,
  SetCustomLimitsUseCase,
  StartCheckoutUseCase,
  VerifyCheckoutUseCase,
} from '@lnk/billing/domain';
import { SandboxPaymentGateway, TypeormAccountQuotaRepository, TypeormCheckoutRepository, TypeormSubscriptionRepository } from '@lnk/billing/adapter-typeorm';
import { createStripeClient, StripePaymentGateway, StripeWebhookReader } from '@lnk/billing/adapter-stripe';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { AppConfig } from '../config/app-config';

/**
 * The billing context in its mode (BILLING): Stripe takes payments, or the built-in sandbox page (which
 * pays any session: only when asked for by name), or nothing (off: plans and limits are the operator's).
 */
export function composeBilling(dataSource: DataSource, config: AppConfig, logger: Logger, ids: IdGenerator, clock: Clock, usage: AccountUsage) {
  const catalog = new PlanCatalog(config.plans);
  const subscriptions = new TypeormSubscriptionRepository(dataSource);
  const checkouts = new TypeormCheckoutRepository(dataSource);
  const quotas = new TypeormAccountQuotaRepository(dataSource);
  const uow = new TypeormUnitOfWork(dataSource);

  let gateway: PaymentGateway = new NoPaymentProvider();
  let sandbox: SandboxPaymentGateway | null = null;
  let stripeWebhooks: StripeWebhookReader | null = null;
  if (config.stripe) {
    const client = createStripeClient(config.stripe);
    gateway = new StripePaymentGateway(client, config.stripe.priceIds, (message, error) => logger.error({ err: error instanceof Error ? error.message : String(error) }, message));
    stripeWebhooks = new StripeWebhookReader(client, config.stripe.webhookSecret);
  } else if (config.billingMode === 'sandbox') {
    sandbox = new SandboxPaymentGateway(dataSource, clock, { pageBaseUrl: config.publicBaseUrl });
    gateway = sandbox;
  }
  const activation = new ActivateCheckout(subscriptions, gateway, uow, ids, clock);
  const quota = new PlanQuotaPolicy(quotas, catalog);
  const current = new GetSubscriptionUseCase(subscriptions, catalog, uow, ids, clock, quota);
  const incidents: BillingIncidents = {
    cancellationFailed: (providerSubscriptionId, reason) => logger.error({ providerSubscriptionId, err: reason }, 'payment provider did not cancel the subscription of a deleted account'),
  };

  return {
    /** The use cases the HTTP app calls (with the sandbox page and Stripe's webhook reader, when configured). */
    billing: {
      plans: new ListPlansUseCase(catalog),
      current,
      checkout: new StartCheckoutUseCase(subscriptions, checkouts, gateway, catalog, clock),
      verify: new VerifyCheckoutUseCase(subscriptions, checkouts, gateway, activation),
      paymentEvents: new HandlePaymentEventUseCase(subscriptions, checkouts, activation, catalog, uow, ids, clock),
      limits: new GetAccountLimitsUseCase(quota, usage),
      sandbox,
      stripeWebhooks,
      /** The operator's commands (CLI), in any mode: an account's plan, or limits of its own. */
      operator: {
        assignPlan: new AssignPlanUseCase({ subscriptions, catalog, gateway, uow, ids, clock, current }),
        setCustomLimits: new SetCustomLimitsUseCase(quotas, subscriptions, uow, clock),
      },
    },
    /** For the other contexts, through bridges: plan quotas, and billing's part of deleting an account. */
    quota,
    eraseAccount: new EraseBillingAccountUseCase(subscriptions, checkouts, gateway, incidents, quotas),
  };
}

export type Billing = ReturnType<typeof composeBilling>['billing'];
