import { Clock, ValidationError } from '@lnk/shared/kernel';
import { PlanCatalog } from '../model/plan';
import { BillingDisabledError } from '../model/subscription';
import { CheckoutRepository } from '../ports/checkout.repository';
import { CheckoutSession, PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** What starting a checkout needs: the account's subscription, the checkouts, the provider and the plans. */
export interface CheckoutStart {
  subscriptions: SubscriptionRepository;
  checkouts: CheckoutRepository;
  gateway: PaymentGateway;
  catalog: PlanCatalog;
  clock: Clock;
}

/** Opens a payment session for a paid plan and remembers whose it is. */
export class StartCheckoutUseCase {
  constructor(private readonly deps: CheckoutStart) {}

  async execute(userId: string, input: { planId: string; successUrl: string; cancelUrl: string }): Promise<CheckoutSession> {
    // Said before anything about the plan: with billing off no plan can be bought, whichever is named.
    if (!this.deps.gateway.takesPayments) throw new BillingDisabledError();
    const plan = this.deps.catalog.purchasable(input.planId);
    const current = await this.deps.subscriptions.findCurrent(userId);
    if (current?.isActive && current.planId === plan.id) throw ValidationError.field('planId', 'your subscription is already on this plan');
    const session = await this.deps.gateway.createCheckout({ userId, plan, successUrl: input.successUrl, cancelUrl: input.cancelUrl });
    await this.deps.checkouts.insert({
      sessionId: session.sessionId,
      userId,
      planId: plan.id,
      createdAt: this.deps.clock.now(),
      expiresAt: session.expiresAt,
    });
    return session;
  }
}
