import { Clock, IdGenerator, NotFoundError, QuotaPolicy, QuotaResource, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { limitOf, Plan, PlanCatalog } from '../model/plan';
import { PaymentNotCompletedError, Subscription } from '../model/subscription';
import { CheckoutRecord, CheckoutRepository, CheckoutSession, PaymentEvent, PaymentGateway, SubscriptionRepository } from '../ports/billing.ports';

export interface CurrentSubscription {
  subscription: Subscription;
  plan: Plan;
}

/** The account's current subscription; an account that never paid gets its free one on first read. */
export class GetSubscriptionUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly catalog: PlanCatalog,
    private readonly uow: UnitOfWork,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  async execute(userId: string): Promise<CurrentSubscription> {
    const subscription =
      (await this.subscriptions.findCurrent(userId)) ??
      (await this.uow.run(async () => {
        await this.subscriptions.lockOwner(userId);
        const raced = await this.subscriptions.findCurrent(userId);
        if (raced) return raced;
        const free = Subscription.start({ id: this.ids.next(), userId, planId: this.catalog.free.id, checkoutSessionId: null, providerSubscriptionId: null, now: this.clock.now() });
        await this.subscriptions.insert(free);
        return free;
      }));
    return { subscription, plan: this.catalog.limitsOf(subscription.planId) };
  }
}

/** Quotas of links, domains and tags are the limits of the account's current plan. */
export class PlanQuotaPolicy extends QuotaPolicy {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly catalog: PlanCatalog,
  ) {
    super();
  }

  async limitFor(ownerId: string, resource: QuotaResource): Promise<number> {
    return limitOf(await this.planOf(ownerId), resource);
  }

  /** Every limit of the account's plan, with one read. */
  async limitsOf(ownerId: string): Promise<Record<QuotaResource, number>> {
    const plan = await this.planOf(ownerId);
    return { links: plan.maxLinks, domains: plan.maxDomains, tags: plan.maxTags };
  }

  private async planOf(ownerId: string): Promise<Plan> {
    const current = await this.subscriptions.findCurrent(ownerId);
    return current ? this.catalog.limitsOf(current.planId) : this.catalog.free;
  }
}

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
    const plan = this.catalog.purchasable(input.planId);
    const current = await this.subscriptions.findCurrent(userId);
    if (current?.isActive && current.planId === plan.id) throw ValidationError.field('planId', 'your subscription is already on this plan');
    const session = await this.gateway.createCheckout({ userId, plan, successUrl: input.successUrl, cancelUrl: input.cancelUrl });
    await this.checkouts.insert({ sessionId: session.sessionId, userId, planId: plan.id, createdAt: this.clock.now(), expiresAt: session.expiresAt });
    return session;
  }
}

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

export class VerifyCheckoutUseCase {
  constructor(
    private readonly subscriptions: SubscriptionRepository,
    private readonly checkouts: CheckoutRepository,
    private readonly gateway: PaymentGateway,
    private readonly activation: ActivateCheckout,
  ) {}

  async execute(userId: string, sessionId: string): Promise<Subscription> {
    const record = await this.checkouts.find(sessionId);
    // Another account's session is answered exactly like one that does not exist.
    if (!record || record.userId !== userId) throw new NotFoundError('Checkout session');
    const done = await this.subscriptions.findByCheckoutSession(sessionId);
    if (done) return done;
    const state = await this.gateway.checkoutState(sessionId);
    if (!state) throw new NotFoundError('Checkout session');
    if (!state.paid) throw new PaymentNotCompletedError(state.expired ? 'The checkout session expired without payment; start a new checkout' : 'The checkout session has not been paid yet');
    return (await this.activation.activate(record, state.providerSubscriptionId)).subscription;
  }
}

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

export class ListPlansUseCase {
  constructor(private readonly catalog: PlanCatalog) {}

  execute(): Plan[] {
    return this.catalog.list();
  }
}
