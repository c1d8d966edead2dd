import { QuotaResource } from '@lnk/shared/kernel';
import { Plan } from '../model/plan';
import { Subscription } from '../model/subscription';

export abstract class SubscriptionRepository {
  /** Serialises changes to one account's subscriptions until the surrounding unit of work ends. */
  abstract lockOwner(userId: string): Promise<void>;
  /** The account's subscription that is not canceled, if it has one yet. */
  abstract findCurrent(userId: string): Promise<Subscription | null>;
  abstract findByCheckoutSession(checkoutSessionId: string): Promise<Subscription | null>;
  abstract findByProviderSubscription(providerSubscriptionId: string): Promise<Subscription | null>;
  abstract insert(subscription: Subscription): Promise<void>;
  abstract save(subscription: Subscription): Promise<void>;
  abstract deleteAllOfOwner(userId: string): Promise<void>;
}

/** A checkout the service started: which account it is for and which plan it buys. */
export interface CheckoutRecord {
  sessionId: string;
  userId: string;
  planId: string;
  createdAt: Date;
  expiresAt: Date;
}

export abstract class CheckoutRepository {
  abstract insert(record: CheckoutRecord): Promise<void>;
  abstract find(sessionId: string): Promise<CheckoutRecord | null>;
  abstract deleteAllOfOwner(userId: string): Promise<void>;
}

export interface NewCheckout {
  userId: string;
  plan: Plan;
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  sessionId: string;
  /** The payment page the user is sent to. */
  url: string;
  expiresAt: Date;
}

/** The provider's view of a checkout session. */
export interface CheckoutState {
  paid: boolean;
  expired: boolean;
  providerSubscriptionId: string | null;
}

/** A payment provider: Stripe, or the built-in sandbox. */
export abstract class PaymentGateway {
  abstract createCheckout(checkout: NewCheckout): Promise<CheckoutSession>;
  /** Null when the provider does not know the session. */
  abstract checkoutState(sessionId: string): Promise<CheckoutState | null>;
  /** Stops the provider's recurring billing of a subscription (replaced by another, or its account deleted). */
  abstract cancelSubscription(providerSubscriptionId: string): Promise<void>;
  /** Drops what the provider keeps for an account in this service's own database, inside the caller's unit of work. */
  abstract forgetOwner(userId: string): Promise<void>;
}

/** How much of each limited resource an account holds, counted by the contexts that own the data. */
export abstract class AccountUsage {
  abstract usageOf(ownerId: string): Promise<Record<QuotaResource, number>>;
}

/** What billing must tell an operator about; the app logs it (never a provider's key or a request). */
export abstract class BillingIncidents {
  abstract cancellationFailed(providerSubscriptionId: string, reason: string): void;
}

/** What a provider tells the service about payments, already authenticated by its adapter. */
export type PaymentEvent =
  | { kind: 'checkout_paid'; sessionId: string; providerSubscriptionId: string | null }
  | { kind: 'payment_failed'; providerSubscriptionId: string }
  | { kind: 'payment_succeeded'; providerSubscriptionId: string }
  | { kind: 'subscription_ended'; providerSubscriptionId: string };
