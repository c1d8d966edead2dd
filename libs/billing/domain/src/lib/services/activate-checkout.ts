import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { Subscription } from '../model/subscription';
import { CheckoutRecord } from '../ports/checkout.repository';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** What activating a paid checkout touches: the subscriptions, the payment provider, the transaction. */
export interface CheckoutActivation {
  subscriptions: SubscriptionRepository;
  gateway: PaymentGateway;
  uow: UnitOfWork;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Turns a paid checkout into the account's subscription, once: the first caller (the user's verify, the
 * provider's webhook or the sandbox page) creates it, every later one gets the same subscription back.
 */
export class ActivateCheckout {
  constructor(private readonly deps: CheckoutActivation) {}

  /** The checkout's subscription, and whether this call created it. */
  async activate(record: CheckoutRecord, providerSubscriptionId: string | null): Promise<{ subscription: Subscription; created: boolean }> {
    let replacedAtProvider: string | null = null;
    const outcome = await this.deps.uow.run(async () => {
      await this.deps.subscriptions.lockOwner(record.userId);
      const existing = await this.deps.subscriptions.findByCheckoutSession(record.sessionId);
      if (existing) return { subscription: existing, created: false };
      const now = this.deps.clock.now();
      const current = await this.deps.subscriptions.findCurrent(record.userId);
      if (current?.end(now)) {
        await this.deps.subscriptions.save(current);
        replacedAtProvider = current.providerSubscriptionId;
      }
      const next = Subscription.start({
        id: this.deps.ids.next(),
        userId: record.userId,
        planId: record.planId,
        checkoutSessionId: record.sessionId,
        providerSubscriptionId,
        now,
      });
      await this.deps.subscriptions.insert(next);
      return { subscription: next, created: true };
    });
    // The replaced plan must stop renewing at the provider, or the account would pay for both.
    if (replacedAtProvider && replacedAtProvider !== providerSubscriptionId) await this.deps.gateway.cancelSubscription(replacedAtProvider);
    return outcome;
  }
}
