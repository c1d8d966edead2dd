import Stripe from 'stripe';
import {
  CheckoutSession,
  CheckoutState,
  InvalidWebhookError,
  NewCheckout,
  PaymentEvent,
  PaymentGateway,
  PaymentWebhookReader,
} from '@lnk/billing/domain';

export interface StripeSettings {
  secretKey: string;
  /** Where the API is; unset means Stripe's own. Tests point it at a loopback server. */
  apiUrl?: string | null;
}

/** The Stripe client the service uses: two retries on network errors (the SDK makes them safe with idempotency keys), 15 s per call. */
export function createStripeClient(settings: StripeSettings): Stripe {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    timeout: 15_000,
    telemetry: false,
    appInfo: { name: 'lnk' },
    ...(api
      ? {
          host: api.hostname,
          port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
        }
      : {}),
  });
}

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

/** Stripe Checkout in subscription mode: one line item, the plan's price, the account as client reference. */
export class StripePaymentGateway extends PaymentGateway {
  constructor(
    private readonly stripe: Stripe,
    private readonly priceIds: Record<string, string>,
    private readonly onError: (message: string, error: unknown) => void,
  ) {
    super();
  }

  async createCheckout(checkout: NewCheckout): Promise<CheckoutSession> {
    const price = this.priceIds[checkout.plan.id];
    if (!price) throw new Error(`No Stripe price is configured for plan ${checkout.plan.id}`);
    const metadata = { userId: checkout.userId, planId: checkout.plan.id };
    const session = await this.stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: 1 }],
      success_url: checkout.successUrl,
      cancel_url: checkout.cancelUrl,
      client_reference_id: checkout.userId,
      metadata,
      subscription_data: { metadata },
    });
    if (!session.url) throw new Error(`Stripe answered checkout session ${session.id} without a URL`);
    return { sessionId: session.id, url: session.url, expiresAt: new Date(session.expires_at * 1000) };
  }

  async checkoutState(sessionId: string): Promise<CheckoutState | null> {
    try {
      const session = await this.stripe.checkout.sessions.retrieve(sessionId);
      const paid = session.status === 'complete' && (session.payment_status === 'paid' || session.payment_status === 'no_payment_required');
      return { paid, expired: session.status === 'expired', providerSubscriptionId: idOf(session.subscription) };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.statusCode === 404) return null;
      throw error;
    }
  }

  async cancelSubscription(providerSubscriptionId: string): Promise<void> {
    try {
      await this.stripe.subscriptions.cancel(providerSubscriptionId);
    } catch (error) {
      // The new plan is already in force; a subscription Stripe cannot cancel is for an operator to see.
      this.onError(`Stripe did not cancel replaced subscription ${providerSubscriptionId}`, error);
    }
  }

  async forgetOwner(): Promise<void> {
    // Stripe keeps its records at Stripe: this service's database holds nothing of its own for them.
  }
}

/** Stripe's webhook events, checked against the endpoint's signing secret and turned into payment events. */
export class StripeWebhookReader extends PaymentWebhookReader {
  constructor(
    private readonly stripe: Stripe,
    private readonly signingSecret: string,
  ) {
    super();
  }

  /** The event the payload carries; null for event types billing does not act on. */
  read(payload: Uint8Array | string, signature: string | undefined): PaymentEvent | null {
    let event: Stripe.Event;
    try {
      if (!signature) throw new Error('no Stripe-Signature header');
      event = this.stripe.webhooks.constructEvent(payload, signature, this.signingSecret);
    } catch (error) {
      throw new InvalidWebhookError(error instanceof Error ? error.message : 'invalid webhook');
    }
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded': {
        const session = event.data.object;
        if (session.mode !== 'subscription' || !(session.payment_status === 'paid' || session.payment_status === 'no_payment_required'))
          return null;
        return { kind: 'checkout_paid', sessionId: session.id, providerSubscriptionId: idOf(session.subscription) };
      }
      case 'invoice.payment_failed':
      case 'invoice.paid': {
        const subscription = idOf(event.data.object.parent?.subscription_details?.subscription);
        if (!subscription) return null;
        return { kind: event.type === 'invoice.paid' ? 'payment_succeeded' : 'payment_failed', providerSubscriptionId: subscription };
      }
      case 'customer.subscription.updated': {
        const subscription = event.data.object;
        if (subscription.status === 'past_due' || subscription.status === 'unpaid')
          return { kind: 'payment_failed', providerSubscriptionId: subscription.id };
        if (subscription.status === 'active') return { kind: 'payment_succeeded', providerSubscriptionId: subscription.id };
        if (subscription.status === 'canceled') return { kind: 'subscription_ended', providerSubscriptionId: subscription.id };
        return null;
      }
      case 'customer.subscription.deleted':
        return { kind: 'subscription_ended', providerSubscriptionId: event.data.object.id };
      default:
        return null;
    }
  }
}
