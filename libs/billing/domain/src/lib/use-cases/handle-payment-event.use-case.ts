import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { PlanCatalog } from '../model/plan';
import { Subscription } from '../model/subscription';
import { CheckoutRepository } from '../ports/checkout.repository';
import { PaymentEvent } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';
import { ActivateCheckout } from '../services/activate-checkout';

export type PaymentEventOutcome = 'applied' | 'unchanged' | 'ignored';

/** Applies what the payment provider reports: completed checkouts, failed and recovered renewals, ends. */
export class HandlePaymentEventUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly checkouts: CheckoutRepository,
    private readonly activation: ActivateCheckout,
    private readonly catalog: PlanCatalog,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(event: PaymentEvent): Promise<PaymentEventOutcome> {
    if (event.kind === 'checkout_paid') {
      const record = await this.checkouts.find(event.sessionId);
      if (!record) return 'ignored';
      return (await this.activation.activate(record, event.providerSubscriptionId)).created ? 'applied' : 'unchanged';
    }
    const known = await this.subscriptions.findByProviderSubscription(event.providerSubscriptionId);
    if (!known) return 'ignored';
    return this.uow.run(async () => {
      await this.subscriptions.lockOwner(known.userId);
      const subscription = (await this.subscriptions.findByProviderSubscription(event.providerSubscriptionId)) ?? known;
      const now = this.clock.now();
      switch (event.kind) {
        case 'payment_failed':
          if (!subscription.markPastDue(now)) return 'unchanged';
          break;
        case 'payment_succeeded':
          if (!subscription.markPaid(now)) return 'unchanged';
          break;
        case 'subscription_ended':
          if (!subscription.end(now)) return 'unchanged';
          break;
      }
      await this.subscriptions.save(subscription);
      // An account whose paid plan ended is back on the free plan; its data stays, over-quota or not.
      if (!(await this.subscriptions.findCurrent(subscription.userId))) {
        await this.subscriptions.insert(Subscription.start({ id: this.ids.next(), userId: subscription.userId, planId: this.catalog.free.id, checkoutSessionId: null, providerSubscriptionId: null, now }));
      }
      return 'applied';
    });
  }
}
