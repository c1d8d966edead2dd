import { Clock, ValidationError } from '@lnk/shared/kernel';
import { PlanCatalog } from '../model/plan';
import { BillingDisabledError } from '../model/subscription';
import { CheckoutRepository } from '../ports/checkout.repository';
import { CheckoutSession, PaymentGateway } from '../ports/payment-gateway.port';
import { SubscriptionRepository } from '../ports/subscription.repository';

/** Opens a payment session for a paid plan and remembers whose it is. */
export class StartCheckoutUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly checkouts: CheckoutRepository,
    private readonly gateway: PaymentGateway,
    private readonly catalog: PlanCatalog,
    private readonly clock: Clock,
  ) {}

  async execute(userId: string, input: { planId: string; successUrl: string; cancelUrl: string }): Promise<CheckoutSession> {
    // Said before anything about the plan: with billing off no plan can be bought, whichever is named.
    if (!this.gateway.takesPayments) throw new BillingDisabledError();
    const plan = this.catalog.purchasable(input.planId);
    const current = await this.subscriptions.findCurrent(userId);
    if (current?.isActive && current.planId === plan.id) throw ValidationError.field('planId', 'your subscription is already on this plan');
    const session = await this.gateway.createCheckout({ userId, plan, successUrl: input.successUrl, cancelUrl: input.cancelUrl });
    await this.checkouts.insert({ sessionId: session.sessionId, userId, planId: plan.id, createdAt: this.clock.now(), expiresAt: session.expiresAt });
    return session;
  }
}
