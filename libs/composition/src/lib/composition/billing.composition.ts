import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import {
  AccountUsage,
  AssignPlanUseCase,
  BillingIncidents,
  EraseBillingAccountUseCase,
  GetAccountLimitsUseCase,
  GetSubscriptionUseCase,
  ListPlansUseCase,
  NoPaymentProvider,
  NoPaymentWebhookReader,
  NoSandboxCheckouts,
  PaymentGateway,
  PaymentWebhookReader,
  PlanCatalog,
  PlanQuotaPolicy,
  SandboxCheckouts,
  SetCustomLimitsUseCase,
} from '@lnk/billing/domain';
import type { BillingPorts, BillingSettings } from '@lnk/billing/adapter-nest';
import {
  SandboxPaymentGateway,
  TypeormAccountQuotaRepository,
  TypeormCheckoutRepository,
  TypeormSubscriptionRepository,
} from '@lnk/billing/adapter-typeorm';
import { createStripeClient, StripePaymentGateway, StripeWebhookReader } from '@lnk/billing/adapter-stripe';
import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { AppConfig } from '../config/app-config';

/**
 * The billing context in its mode (BILLING): Stripe takes payments, or the built-in sandbox page (which
 * pays any session: only when asked for by name), or nothing (off: plans and limits are the operator's).
 */
export function composeBilling(
  dataSource: DataSource,
  config: AppConfig,
  logger: Logger,
  ids: IdGenerator,
  clock: Clock,
  usage: AccountUsage,
) {
  const catalog = new PlanCatalog(config.plans);
  const subscriptions = new TypeormSubscriptionRepository(dataSource);
  const checkouts = new TypeormCheckoutRepository(dataSource);
  const quotas = new TypeormAccountQuotaRepository(dataSource);
  const uow = new TypeormUnitOfWork(dataSource);

  let gateway: PaymentGateway = new NoPaymentProvider();
  // Stripe's webhook endpoint and the sandbox's page answer 404 unless their provider is the one configured.
  let sandbox: SandboxCheckouts = new NoSandboxCheckouts();
  let webhooks: PaymentWebhookReader = new NoPaymentWebhookReader();
  if (config.stripe) {
    const client = createStripeClient(config.stripe);
    gateway = new StripePaymentGateway(client, config.stripe.priceIds, (message, error) =>
      logger.error({ err: error instanceof Error ? error.message : String(error) }, message),
    );
    webhooks = new StripeWebhookReader(client, config.stripe.webhookSecret);
  } else if (config.billingMode === 'sandbox') {
    const sandboxGateway = new SandboxPaymentGateway(dataSource, clock, { pageBaseUrl: config.publicBaseUrl });
    gateway = sandboxGateway;
    sandbox = sandboxGateway;
  }
  const quota = new PlanQuotaPolicy(quotas, catalog);
  const current = new GetSubscriptionUseCase({ subscriptions, catalog, uow, ids, clock, quota });
  const incidents: BillingIncidents = {
    cancellationFailed: (providerSubscriptionId, reason) =>
      logger.error({ providerSubscriptionId, err: reason }, 'payment provider did not cancel the subscription of a deleted account'),
  };

  // The ports of the billing use cases BillingModule builds for its routes.
  const ports: BillingPorts = { subscriptions, checkouts, quotas, gateway, webhooks, sandbox, unitOfWork: uow, ids, clock };
  const settings: BillingSettings = { plans: config.plans };

  return {
    billing: {
      ports,
      settings,
      /** An account's limits and usage: GET /user/me/limits, the CLI, and identity's password grant (through a bridge). */
      limits: new GetAccountLimitsUseCase(quota, usage),
      /** The operator's commands (CLI), in any mode: the catalogue, an account's plan, or limits of its own. */
      operator: {
        plans: new ListPlansUseCase(catalog),
        assignPlan: new AssignPlanUseCase({ subscriptions, catalog, gateway, uow, ids, clock, current }),
        setCustomLimits: new SetCustomLimitsUseCase(quotas, subscriptions, uow, clock),
      },
    },
    /** For the other contexts, through bridges: plan quotas, and billing's part of deleting an account. */
    quota,
    eraseAccount: new EraseBillingAccountUseCase({ subscriptions, checkouts, gateway, incidents, quotas }),
  };
}
