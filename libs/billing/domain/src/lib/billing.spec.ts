import { Clock, IdGenerator, NotFoundError, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { DEFAULT_PLANS, Plan, PlanCatalog } from './model/plan';
import { PaymentNotCompletedError, Subscription } from './model/subscription';
import { CheckoutRecord, CheckoutRepository, CheckoutSession, CheckoutState, NewCheckout, PaymentGateway, SubscriptionRepository } from './ports/billing.ports';
import { ActivateCheckout, GetSubscriptionUseCase, HandlePaymentEventUseCase, PlanQuotaPolicy, StartCheckoutUseCase, VerifyCheckoutUseCase } from './use-cases/billing.use-cases';

class MemorySubscriptions extends SubscriptionRepository {
  readonly rows = new Map<string, Subscription>();
  async lockOwner(): Promise<void> {
    // One event loop: nothing interleaves between awaits that matter here.
  }
  private copy(s: Subscription | undefined) {
    return s ? this.clone(s) : null;
  }
  private clone(s: Subscription) {
    return new Subscription(s.toProps());
  }
  async findCurrent(userId: string) {
    return this.copy([...this.rows.values()].find((s) => s.userId === userId && s.isCurrent));
  }
  async findByCheckoutSession(id: string) {
    return this.copy([...this.rows.values()].find((s) => s.checkoutSessionId === id));
  }
  async findByProviderSubscription(id: string) {
    return this.copy([...this.rows.values()].find((s) => s.providerSubscriptionId === id));
  }
  async insert(s: Subscription) {
    if (s.isCurrent && (await this.findCurrent(s.userId))) throw new Error('two current subscriptions');
    this.rows.set(s.id, this.clone(s));
  }
  async save(s: Subscription) {
    this.rows.set(s.id, this.clone(s));
  }
  async deleteAllOfOwner(userId: string) {
    for (const [id, s] of this.rows) if (s.userId === userId) this.rows.delete(id);
  }
  of(userId: string) {
    return [...this.rows.values()].filter((s) => s.userId === userId);
  }
}

class MemoryCheckouts extends CheckoutRepository {
  readonly rows = new Map<string, CheckoutRecord>();
  async insert(r: CheckoutRecord) {
    this.rows.set(r.sessionId, r);
  }
  async find(id: string) {
    return this.rows.get(id) ?? null;
  }
  async deleteAllOfOwner(userId: string) {
    for (const [id, r] of this.rows) if (r.userId === userId) this.rows.delete(id);
  }
}

class FakeGateway extends PaymentGateway {
  readonly sessions = new Map<string, CheckoutState & { checkout: NewCheckout }>();
  readonly cancelled: string[] = [];
  private n = 0;
  async createCheckout(checkout: NewCheckout): Promise<CheckoutSession> {
    const sessionId = `cs_${++this.n}`;
    this.sessions.set(sessionId, { paid: false, expired: false, providerSubscriptionId: null, checkout });
    return { sessionId, url: `https://pay.test/${sessionId}`, expiresAt: new Date(now.getTime() + 86_400_000) };
  }
  async checkoutState(id: string) {
    return this.sessions.get(id) ?? null;
  }
  async cancelSubscription(id: string) {
    this.cancelled.push(id);
  }
  pay(id: string, providerSubscriptionId: string | null = `sub_${id}`) {
    Object.assign(this.sessions.get(id) ?? {}, { paid: true, providerSubscriptionId });
  }
}

const now = new Date('2026-03-04T05:06:07.000Z');
let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = { now: () => now };
const uow: UnitOfWork = { run: (work) => work() };

function setup(plans: readonly Plan[] = DEFAULT_PLANS) {
  const catalog = new PlanCatalog(plans);
  const subscriptions = new MemorySubscriptions();
  const checkouts = new MemoryCheckouts();
  const gateway = new FakeGateway();
  const activation = new ActivateCheckout(subscriptions, gateway, uow, ids, clock);
  return {
    catalog,
    subscriptions,
    checkouts,
    gateway,
    current: new GetSubscriptionUseCase(subscriptions, catalog, uow, ids, clock),
    quota: new PlanQuotaPolicy(subscriptions, catalog),
    checkout: new StartCheckoutUseCase(subscriptions, checkouts, gateway, catalog, clock),
    verify: new VerifyCheckoutUseCase(subscriptions, checkouts, gateway, activation),
    events: new HandlePaymentEventUseCase(subscriptions, checkouts, activation, catalog, uow, ids, clock),
  };
}

const urls = { successUrl: 'https://app.test/ok', cancelUrl: 'https://app.test/no' };

describe('plan catalogue', () => {
  it('needs exactly one free plan, unique ids and whole-number limits', () => {
    const free = DEFAULT_PLANS[0];
    expect(() => new PlanCatalog([{ ...free, price: 5 }])).toThrow(/exactly one plan must be free/);
    expect(() => new PlanCatalog([free, { ...free }])).toThrow(/appears twice/);
    expect(() => new PlanCatalog([{ ...free, maxLinks: 1.5 }])).toThrow(/maxLinks/);
    expect(() => new PlanCatalog([{ ...free, currency: 'dollars' }])).toThrow(/currency/);
    expect(new PlanCatalog(DEFAULT_PLANS).free.id).toBe('free');
  });

  it('sells only known paid plans', () => {
    const catalog = new PlanCatalog(DEFAULT_PLANS);
    expect(catalog.purchasable('pro').id).toBe('pro');
    for (const id of ['free', 'gold']) {
      const error = (() => {
        try {
          catalog.purchasable(id);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors[0].name).toBe('planId');
    }
  });
});

describe('subscriptions', () => {
  it('gives every account the free plan, once, and its limits as quotas', async () => {
    const s = setup();
    expect(await s.quota.limitFor('u1', 'links')).toBe(100);
    const first = await s.current.execute('u1');
    const again = await s.current.execute('u1');
    expect(first.subscription.id).toBe(again.subscription.id);
    expect(first.plan.id).toBe('free');
    expect(first.subscription.status).toBe('active');
    expect(s.subscriptions.of('u1')).toHaveLength(1);
  });

  it('checkout, unpaid verify, paid verify, idempotent verify; quotas follow the plan', async () => {
    const s = setup();
    await s.current.execute('u1');
    const session = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    expect(s.checkouts.rows.get(session.sessionId)).toMatchObject({ userId: 'u1', planId: 'pro' });
    await expect(s.verify.execute('u1', session.sessionId)).rejects.toBeInstanceOf(PaymentNotCompletedError);
    s.gateway.pay(session.sessionId);
    const paid = await s.verify.execute('u1', session.sessionId);
    expect(paid).toMatchObject({ planId: 'pro', status: 'active', startDate: now });
    expect((await s.verify.execute('u1', session.sessionId)).id).toBe(paid.id);
    expect(s.subscriptions.of('u1').map((x) => [x.planId, x.status])).toEqual([
      ['free', 'canceled'],
      ['pro', 'active'],
    ]);
    expect(await s.quota.limitFor('u1', 'domains')).toBe(5);
    expect(await s.quota.limitFor('u1', 'tags')).toBe(100);
  });

  it('answers another account and an unknown session as not found', async () => {
    const s = setup();
    const session = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    s.gateway.pay(session.sessionId);
    await expect(s.verify.execute('u2', session.sessionId)).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.verify.execute('u1', 'cs_nope')).rejects.toBeInstanceOf(NotFoundError);
    expect(s.subscriptions.of('u2')).toHaveLength(0);
  });

  it('refuses a checkout for the plan the account is already active on, allows another plan', async () => {
    const s = setup();
    const session = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    s.gateway.pay(session.sessionId);
    await s.verify.execute('u1', session.sessionId);
    await expect(s.checkout.execute('u1', { planId: 'pro', ...urls })).rejects.toBeInstanceOf(ValidationError);
    const upgrade = await s.checkout.execute('u1', { planId: 'business', ...urls });
    s.gateway.pay(upgrade.sessionId);
    await s.verify.execute('u1', upgrade.sessionId);
    // The replaced plan stops renewing at the provider.
    expect(s.gateway.cancelled).toEqual([`sub_${session.sessionId}`]);
    expect((await s.current.execute('u1')).plan.id).toBe('business');
  });

  it('webhook and verify of the same session make one subscription', async () => {
    const s = setup();
    const session = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    s.gateway.pay(session.sessionId, 'sub_1');
    expect(await s.events.execute({ kind: 'checkout_paid', sessionId: session.sessionId, providerSubscriptionId: 'sub_1' })).toBe('applied');
    expect(await s.events.execute({ kind: 'checkout_paid', sessionId: session.sessionId, providerSubscriptionId: 'sub_1' })).toBe('unchanged');
    const verified = await s.verify.execute('u1', session.sessionId);
    expect(s.subscriptions.of('u1').filter((x) => x.isCurrent).map((x) => x.id)).toEqual([verified.id]);
    expect(await s.events.execute({ kind: 'checkout_paid', sessionId: 'cs_other', providerSubscriptionId: null })).toBe('ignored');
  });

  it('failed renewal is past_due with the plan kept; recovery is active; the end is the free plan, data untouched', async () => {
    const s = setup();
    const session = await s.checkout.execute('u1', { planId: 'business', ...urls });
    s.gateway.pay(session.sessionId, 'sub_9');
    await s.verify.execute('u1', session.sessionId);

    expect(await s.events.execute({ kind: 'payment_failed', providerSubscriptionId: 'sub_9' })).toBe('applied');
    const pastDue = await s.current.execute('u1');
    expect(pastDue.subscription).toMatchObject({ status: 'past_due', isActive: false, planId: 'business' });
    expect(await s.quota.limitFor('u1', 'links')).toBe(50_000);

    expect(await s.events.execute({ kind: 'payment_succeeded', providerSubscriptionId: 'sub_9' })).toBe('applied');
    expect((await s.current.execute('u1')).subscription.status).toBe('active');
    expect(await s.events.execute({ kind: 'payment_succeeded', providerSubscriptionId: 'sub_9' })).toBe('unchanged');

    expect(await s.events.execute({ kind: 'subscription_ended', providerSubscriptionId: 'sub_9' })).toBe('applied');
    const after = await s.current.execute('u1');
    expect(after.plan.id).toBe('free');
    expect(after.subscription.isActive).toBe(true);
    expect(await s.quota.limitFor('u1', 'links')).toBe(100);
    expect(await s.events.execute({ kind: 'subscription_ended', providerSubscriptionId: 'sub_9' })).toBe('unchanged');
    expect(await s.events.execute({ kind: 'payment_failed', providerSubscriptionId: 'sub_unknown' })).toBe('ignored');
    // A late failure notice for the ended subscription changes nothing.
    expect(await s.events.execute({ kind: 'payment_failed', providerSubscriptionId: 'sub_9' })).toBe('unchanged');
  });

  it('an expired unpaid session says so', async () => {
    const s = setup();
    const session = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    Object.assign(s.gateway.sessions.get(session.sessionId) ?? {}, { expired: true });
    await expect(s.verify.execute('u1', session.sessionId)).rejects.toThrow(/expired/);
  });
});
