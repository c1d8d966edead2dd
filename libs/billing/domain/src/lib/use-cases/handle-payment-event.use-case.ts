import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { PlanCatalog } from '../model/plan';
import { Subscription } from '../model/subscription';
import { CheckoutRepository } from '../ports/checkout.repository';
import { PaymentEvent } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';
import { ActivateCheckout } from '../services/activate-checkout';

export type PaymentEventOutcome = 'applied' | 'unchanged' | 'ignored';

/** What the payment provider's events change: subscriptions, checkouts and their activation. */
export interface PaymentEventHandling {
  subscriptions: SubscriptionRepository;
  checkouts: CheckoutRepository;
  activation: ActivateCheckout;
  catalog: PlanCatalog;
  uow: UnitOfWork;
  ids: IdGenerator;
  clock: Clock;
}

/** Applies what the payment provider reports: completed checkouts, failed and recovered renewals, ends. */
export class HandlePaymentEventUseCase {
  constructor(private readonly deps: PaymentEventHandling) {}

  async execute(event: PaymentEvent): Promise<PaymentEventOutcome> {
    if (event.kind === 'checkout_paid') {
      const record = await this.deps.checkouts.find(event.sessionId);
      if (!record) return 'ignored';
      return (await this.deps.activation.activate(record, event.providerSubscriptionId)).created ? 'applied' : 'unchanged';
    }
    const known = await this.deps.subscriptions.findByProviderSubscription(event.providerSubscriptionId);
    if (!known) return 'ignored';
    return this.deps.uow.run(async () => {
      await this.deps.subscriptions.lockOwner(known.userId);
      const subscription = (await this.deps.subscriptions.findByProviderSubscription(event.providerSubscriptionId)) ?? known;
      const now = this.deps.clock.now();
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
      await this.deps.subscriptions.save(subscription);
      // An account whose paid plan ended is back on the free plan; its data stays, over-quota or not.
      if (!(await this.deps.subscriptions.findCurrent(subscription.userId))) {
        await this.deps.subscriptions.insert(
          Subscription.start({
            id: this.deps.ids.next(),
            userId: subscription.userId,
            planId: this.deps.catalog.free.id,
            checkoutSessionId: null,
            providerSubscriptionId: null,
            now,
          }),
        );
      }
      return 'applied';
    });
  }
}
