import { found, NotFoundError } from '@lnk/shared/kernel';
import { BillingDisabledError, PaymentNotCompletedError, Subscription } from '../model/subscription';
import { CheckoutRepository } from '../ports/checkout.repository';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';
import { ActivateCheckout } from '../services/activate-checkout';

export class VerifyCheckoutUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly checkouts: CheckoutRepository,
    private readonly gateway: PaymentGateway,
    private readonly activation: ActivateCheckout,
  ) {}

  async execute(userId: string, sessionId: string): Promise<Subscription> {
    if (!this.gateway.takesPayments) throw new BillingDisabledError();
    const record = await this.checkouts.find(sessionId);
    // Another account's session is answered exactly like one that does not exist.
    if (!record || record.userId !== userId) throw new NotFoundError('Checkout session');
    const done = await this.subscriptions.findByCheckoutSession(sessionId);
    if (done) return done;
    const state = found(await this.gateway.checkoutState(sessionId), 'Checkout session');
    if (!state.paid)
      throw new PaymentNotCompletedError(
        state.expired ? 'The checkout session expired without payment; start a new checkout' : 'The checkout session has not been paid yet',
      );
    return (await this.activation.activate(record, state.providerSubscriptionId)).subscription;
  }
}
