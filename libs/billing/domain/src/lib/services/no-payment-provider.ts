import { BillingDisabledError } from '../model/subscription';
import { CheckoutSession, CheckoutState, PaymentGateway } from '../ports/payment-gateway.port';

/**
 * The payment provider of a service with billing off: nothing is ever paid. It holds no I/O, so it is the
 * domain's own. A subscription a provider billed before billing was turned off cannot be cancelled from
 * here: saying so (the caller reports it) is what lets an operator do it by hand.
 */
export class NoPaymentProvider extends PaymentGateway {
  override readonly takesPayments = false;

  async createCheckout(): Promise<CheckoutSession> {
    throw new BillingDisabledError();
  }

  async checkoutState(): Promise<CheckoutState | null> {
    throw new BillingDisabledError();
  }

  async cancelSubscription(providerSubscriptionId: string): Promise<void> {
    throw new Error(`billing is off (no payment provider configured): cancel ${providerSubscriptionId} at the provider by hand`);
  }

  async forgetOwner(): Promise<void> {
    // Nothing is kept for an account when no provider is configured.
  }
}
