import {
  AccountQuotaRepository,
  CheckoutRepository,
  PaymentGateway,
  PaymentWebhookReader,
  SandboxCheckouts,
  SubscriptionRepository,
} from '@lnk/billing/domain';
import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import type { Token } from '@lnk/shared/http';

/**
 * Every port the billing use cases need, by the name the app binds it under (BillingPorts), each provided
 * in BillingModule under its abstract class: the use cases are built from them by class, and the app's
 * composition root binds them all in one typed object, so a port left unbound does not compile.
 */
export const BILLING_PORTS = {
  subscriptions: SubscriptionRepository,
  checkouts: CheckoutRepository,
  /** Each account's plan and the operator's limits of its own. */
  quotas: AccountQuotaRepository,
  /** The payment provider of the app's mode (BILLING): Stripe, the sandbox, or none (NoPaymentProvider). */
  gateway: PaymentGateway,
  /** Stripe's signed webhook events; without Stripe, NoPaymentWebhookReader. */
  webhooks: PaymentWebhookReader,
  /** The sandbox provider's sessions, served by its own page (BILLING=sandbox); else NoSandboxCheckouts. */
  sandbox: SandboxCheckouts,
  unitOfWork: UnitOfWork,
  ids: IdGenerator,
  clock: Clock,
};

/** What the app binds each of BILLING_PORTS to. */
export type BillingPorts = { readonly [K in keyof typeof BILLING_PORTS]: (typeof BILLING_PORTS)[K] extends Token<infer T> ? T : never };
