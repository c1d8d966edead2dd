import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import {
  ActivateCheckout,
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
export function composeBilling(dataSource: DataSource, config: AppConfig, logger: Logger, ids: IdGenerator, clock: Clock) {
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

  return {
    plans: new ListPlansUseCase(catalog),
    current: new GetSubscriptionUseCase(subscriptions, catalog, uow, ids, clock),
    checkout: new StartCheckoutUseCase(subscriptions, checkouts, gateway, catalog, clock),
    verify: new VerifyCheckoutUseCase(subscriptions, checkouts, gateway, activation),
    paymentEvents: new HandlePaymentEventUseCase(subscriptions, checkouts, activation, catalog, uow, ids, clock),
    quota: new PlanQuotaPolicy(subscriptions, catalog),
    sandbox,
    stripeWebhooks,
    /** Account deletion: a paid plan stops renewing at the provider, then the account's billing rows go. */
    async eraseAccount(userId: string): Promise<void> {
      const current = await subscriptions.findCurrent(userId);
      if (current?.providerSubscriptionId) await gateway.cancelSubscription(current.providerSubscriptionId);
      await subscriptions.deleteAllOfOwner(userId);
      await checkouts.deleteAllOfOwner(userId);
      await sandbox?.deleteAllOfOwner(userId);
    },
  };
}

export type Billing = ReturnType<typeof composeBilling>;
