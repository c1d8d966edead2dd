import { Clock, IdGenerator, UnitOfWork } from '@lnk/shared/kernel';
import { Subscription } from '../model/subscription';
import { CheckoutRecord } from '../ports/checkout.repository';
import { PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/**
 * Turns a paid checkout into the account's subscription, once: the first caller (the user's verify, the
 * provider's webhook or the sandbox page) creates it, every later one gets the same subscription back.
 */
export class ActivateCheckout {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly gateway: PaymentGateway,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The checkout's subscription, and whether this call created it. */
  async activate(record: CheckoutRecord, providerSubscriptionId: string | null): Promise<{ subscription: Subscription; created: boolean }> {
    let replacedAtProvider: string | null = null;
    const outcome = await this.uow.run(async () => {
      await this.subscriptions.lockOwner(record.userId);
      const existing = await this.subscriptions.findByCheckoutSession(record.sessionId);
      if (existing) return { subscription: existing, created: false };
      const now = this.clock.now();
      const current = await this.subscriptions.findCurrent(record.userId);
      if (current?.end(now)) {
        await this.subscriptions.save(current);
        replacedAtProvider = current.providerSubscriptionId;
      }
      const next = Subscription.start({ id: this.ids.next(), userId: record.userId, planId: record.planId, checkoutSessionId: record.sessionId, providerSubscriptionId, now });
      await this.subscriptions.insert(next);
      return { subscription: next, created: true };
    });
    // The replaced plan must stop renewing at the provider, or the account would pay for both.
    if (replacedAtProvider && replacedAtProvider !== providerSubscriptionId) await this.gateway.cancelSubscription(replacedAtProvider);
    return outcome;
  }
}
