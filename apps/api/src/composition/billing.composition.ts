import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import {
  AccountUsage,
  ActivateCheckout,
  BillingIncidents,
  EraseBillingAccountUseCase,
  GetAccountLimitsUseCase,
  GetSubscriptionUseCase,
  HandlePaymentEventUseCase,
  ListPlansUseCase,
  PaymentGateway,
  PlanCatalog,
  PlanQuotaPolicy,
  StartCheckoutUseCase,
  VerifyCheckoutUseCase,
} from '@lnk/billing/domain';
import { SandboxPaymentGateway, TypeormCheckoutRepository, TypeormSubscriptionRepository } from '@lnk/billing/adapter-typeorm';
import { createStripeClient, StripePaymentGateway, StripeWebhookReader } from '@lnk/billing/adapter-stripe';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { AppConfig } from '../config/app-config';

/**
 * The billing context: Stripe takes payments when configured, else the built-in sandbox page does. The
 * sandbox pays any session, so in production loadConfig lets it run only with BILLING_SANDBOX=true.
 */
export function composeBilling(dataSource: DataSource, config: AppConfig, logger: Logger, ids: IdGenerator, clock: Clock, usage: AccountUsage) {
  const catalog = new PlanCatalog(config.plans);
  const subscriptions = new TypeormSubscriptionRepository(dataSource);
  const checkouts = new TypeormCheckoutRepository(dataSource);
  const uow = new TypeormUnitOfWork(dataSource);

  let gateway: PaymentGateway;
  let sandbox: SandboxPaymentGateway | null = null;
  let stripeWebhooks: StripeWebhookReader | null = null;
  if (config.stripe) {
    const client = createStripeClient(config.stripe);
    gateway = new StripePaymentGateway(client, config.stripe.priceIds, (message, error) => logger.error({ err: error instanceof Error ? error.message : String(error) }, message));
    stripeWebhooks = new StripeWebhookReader(client, config.stripe.webhookSecret);
  } else {
    sandbox = new SandboxPaymentGateway(dataSource, clock, { pageBaseUrl: config.publicBaseUrl });
    gateway = sandbox;
  }
  const activation = new ActivateCheckout(subscriptions, gateway, uow, ids, clock);
  const quota = new PlanQuotaPolicy(subscriptions, catalog);
  const incidents: BillingIncidents = {
    cancellationFailed: (providerSubscriptionId, reason) => logger.error({ providerSubscriptionId, err: reason }, 'payment provider did not cancel the subscription of a deleted account'),
  };

  return {
    /** The use cases the HTTP app calls (with the sandbox page and Stripe's webhook reader, when configured). */
    billing: {
      plans: new ListPlansUseCase(catalog),
      current: new GetSubscriptionUseCase(subscriptions, catalog, uow, ids, clock),
      checkout: new StartCheckoutUseCase(subscriptions, checkouts, gateway, catalog, clock),
      verify: new VerifyCheckoutUseCase(subscriptions, checkouts, gateway, activation),
      paymentEvents: new HandlePaymentEventUseCase(subscriptions, checkouts, activation, catalog, uow, ids, clock),
      limits: new GetAccountLimitsUseCase(quota, usage),
      sandbox,
      stripeWebhooks,
    },
    /** For the other contexts, through bridges: plan quotas, and billing's part of deleting an account. */
    quota,
    eraseAccount: new EraseBillingAccountUseCase(subscriptions, checkouts, gateway, incidents),
  };
}

export type Billing = ReturnType<typeof composeBilling>['billing'];
