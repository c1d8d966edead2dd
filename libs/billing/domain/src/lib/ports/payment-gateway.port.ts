import { Plan } from '../model/plan';

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

/** A payment provider: Stripe, or the built-in sandbox; NoPaymentProvider when billing is off. */
export abstract class PaymentGateway {
  /** False only when billing is off: no checkout can start, plans are the operator's to assign. */
  readonly takesPayments: boolean = true;

  abstract createCheckout(checkout: NewCheckout): Promise<CheckoutSession>;
  /** Null when the provider does not know the session. */
  abstract checkoutState(sessionId: string): Promise<CheckoutState | null>;
  /** Stops the provider's recurring billing of a subscription (replaced by another, or its account deleted). */
  abstract cancelSubscription(providerSubscriptionId: string): Promise<void>;
  /** Drops what the provider keeps for an account in this service's own database, inside the caller's unit of work. */
  abstract forgetOwner(userId: string): Promise<void>;
}

/** What a provider tells the service about payments, already authenticated by its adapter. */
export type PaymentEvent =
  | { kind: 'checkout_paid'; sessionId: string; providerSubscriptionId: string | null }
  | { kind: 'payment_failed'; providerSubscriptionId: string }
  | { kind: 'payment_succeeded'; providerSubscriptionId: string }
  | { kind: 'subscription_ended'; providerSubscriptionId: string };
