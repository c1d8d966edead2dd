import { Clock, IdGenerator, NotFoundError, UNLIMITED, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { CustomLimits, DEFAULT_PLANS, NO_CUSTOM_LIMITS, Plan, PlanCatalog, SELF_HOSTED_PLANS, withFreePlanLimits } from './model/plan';
import { BillingDisabledError, PaymentNotCompletedError, Subscription } from './model/subscription';
import { AccountQuota, AccountQuotaRepository } from './ports/account-quota.repository';
import { NoPaymentProvider } from './services/no-payment-provider';
import { AssignPlanUseCase } from './use-cases/assign-plan.use-case';
import { SetCustomLimitsUseCase } from './use-cases/set-custom-limits.use-case';
import { CheckoutRecord, CheckoutRepository } from './ports/checkout.repository';
import { CheckoutSession, CheckoutState, NewCheckout, PaymentGateway } from './ports/payment-gateway.port';
import { SubscriptionRepository } from './ports/subscription.repository';
import { AccountUsage } from './ports/account-usage.port';
import { BillingIncidents } from './ports/billing-incidents.port';
import { EraseBillingAccountUseCase } from './use-cases/erase-billing-account.use-case';
import { GetAccountLimitsUseCase } from './use-cases/get-account-limits.use-case';
import { ActivateCheckout } from './services/activate-checkout';
import { PlanQuotaPolicy } from './services/plan-quota-policy';
import { GetSubscriptionUseCase } from './use-cases/get-subscription.use-case';
import { HandlePaymentEventUseCase } from './use-cases/handle-payment-event.use-case';
import { StartCheckoutUseCase } from './use-cases/start-checkout.use-case';
import { VerifyCheckoutUseCase } from './use-cases/verify-checkout.use-case';
import { InvalidWebhookError, PaymentWebhookReader } from './ports/payment-webhook-reader.port';
import { SandboxCheckouts, SandboxPayment, SandboxSessionView } from './ports/sandbox-checkouts.port';
import { NoPaymentWebhookReader, NoSandboxCheckouts } from './services/no-provider-endpoints';
import { ReceivePaymentWebhookUseCase } from './use-cases/receive-payment-webhook.use-case';
import { GetSandboxCheckoutUseCase } from './use-cases/get-sandbox-checkout.use-case';
import { PaySandboxCheckoutUseCase } from './use-cases/pay-sandbox-checkout.use-case';

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

/** As the adapter: the current subscription's plan and the custom limits, read together; all-null limits are no row. */
class MemoryAccountQuotas extends AccountQuotaRepository {
  readonly custom = new Map<string, CustomLimits>();
  constructor(private readonly subscriptions: MemorySubscriptions) {
    super();
  }
  async quotaOf(userId: string): Promise<AccountQuota> {
    const current = await this.subscriptions.findCurrent(userId);
    return { planId: current?.planId ?? null, custom: { ...(this.custom.get(userId) ?? NO_CUSTOM_LIMITS) } };
  }
  async saveCustomLimits(userId: string, custom: CustomLimits) {
    if (Object.values(custom).every((v) => v === null)) this.custom.delete(userId);
    else this.custom.set(userId, { ...custom });
  }
  async deleteAllOfOwner(userId: string) {
    this.custom.delete(userId);
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
  readonly forgotten: string[] = [];
  /** Set to make the provider refuse cancellations, as an unreachable Stripe would. */
  failCancellations: Error | null = null;
  async cancelSubscription(id: string) {
    if (this.failCancellations) throw this.failCancellations;
    this.cancelled.push(id);
  }
  async forgetOwner(userId: string) {
    this.forgotten.push(userId);
  }
  pay(id: string, providerSubscriptionId: string | null = `sub_${id}`) {
    Object.assign(this.sessions.get(id) ?? {}, { paid: true, providerSubscriptionId });
  }
}

const now = new Date('2026-03-04T05:06:07.000Z');
let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = clockReading(() => now);
const uow: UnitOfWork = { run: (work) => work() };

function setupWith<G extends PaymentGateway>(gateway: G, plans: readonly Plan[] = DEFAULT_PLANS) {
  const catalog = new PlanCatalog(plans);
  const subscriptions = new MemorySubscriptions();
  const checkouts = new MemoryCheckouts();
  const quotas = new MemoryAccountQuotas(subscriptions);
  const activation = new ActivateCheckout({ subscriptions, gateway, uow, ids, clock });
  const quota = new PlanQuotaPolicy(quotas, catalog);
  const current = new GetSubscriptionUseCase({ subscriptions, catalog, uow, ids, clock, quota });
  return {
    catalog,
    subscriptions,
    checkouts,
    quotas,
    gateway,
    current,
    quota,
    checkout: new StartCheckoutUseCase({ subscriptions, checkouts, gateway, catalog, clock }),
    verify: new VerifyCheckoutUseCase(subscriptions, checkouts, gateway, activation),
    events: new HandlePaymentEventUseCase({ subscriptions, checkouts, activation, catalog, uow, ids, clock }),
    assignPlan: new AssignPlanUseCase({ subscriptions, catalog, gateway, uow, ids, clock, current }),
    setLimits: new SetCustomLimitsUseCase(quotas, subscriptions, uow, clock),
  };
}

const setup = (plans: readonly Plan[] = DEFAULT_PLANS) => setupWith(new FakeGateway(), plans);

/** Counts as the links and domains contexts would report them. */
class FixedUsage extends AccountUsage {
  readonly counts = new Map<string, { links: number; domains: number; tags: number }>();
  async usageOf(ownerId: string) {
    return { ...(this.counts.get(ownerId) ?? { links: 0, domains: 0, tags: 0 }) };
  }
}

class RecordedIncidents extends BillingIncidents {
  readonly failures: { providerSubscriptionId: string; reason: string }[] = [];
  cancellationFailed(providerSubscriptionId: string, reason: string) {
    this.failures.push({ providerSubscriptionId, reason });
  }
}

/** An account on the pro plan, paid through the provider as subscription `sub_<userId>`. */
async function paidAccount(s: ReturnType<typeof setup>, userId: string) {
  const session = await s.checkout.execute(userId, { planId: 'pro', ...urls });
  s.gateway.pay(session.sessionId, `sub_${userId}`);
  await s.verify.execute(userId, session.sessionId);
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
    expect(await s.events.execute({ kind: 'checkout_paid', sessionId: session.sessionId, providerSubscriptionId: 'sub_1' })).toBe(
      'applied',
    );
    expect(await s.events.execute({ kind: 'checkout_paid', sessionId: session.sessionId, providerSubscriptionId: 'sub_1' })).toBe(
      'unchanged',
    );
    const verified = await s.verify.execute('u1', session.sessionId);
    expect(
      s.subscriptions
        .of('u1')
        .filter((x) => x.isCurrent)
        .map((x) => x.id),
    ).toEqual([verified.id]);
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

describe('account limits', () => {
  // One entry point for GET /user/me/limits and the password grant: the plan's limits beside the usage counted elsewhere.
  it("puts the plan's limits beside the account's usage, and follows a plan change", async () => {
    const s = setup();
    const usage = new FixedUsage();
    usage.counts.set('u1', { links: 7, domains: 1, tags: 3 });
    const limits = new GetAccountLimitsUseCase(s.quota, usage);
    expect(await limits.execute('u1')).toEqual({
      domains: { used: 1, limit: 1 },
      links: { used: 7, limit: 100 },
      tags: { used: 3, limit: 10 },
    });
    await paidAccount(s, 'u1');
    expect(await limits.execute('u1')).toEqual({
      domains: { used: 1, limit: 5 },
      links: { used: 7, limit: 5_000 },
      tags: { used: 3, limit: 100 },
    });
    expect(await limits.execute('u2')).toEqual({
      domains: { used: 0, limit: 1 },
      links: { used: 0, limit: 100 },
      tags: { used: 0, limit: 10 },
    });
  });
});

describe("billing's part of deleting an account", () => {
  function eraser(s: ReturnType<typeof setup>) {
    const incidents = new RecordedIncidents();
    return {
      incidents,
      erase: new EraseBillingAccountUseCase({
        subscriptions: s.subscriptions,
        checkouts: s.checkouts,
        gateway: s.gateway,
        incidents,
        quotas: s.quotas,
      }),
    };
  }

  // The provider is called only by the follow-up the deletion runs after its commit: a rolled-back deletion never cancels a plan.
  it('deletes the rows at once and leaves the cancellation at the provider for after the commit', async () => {
    const s = setup();
    await paidAccount(s, 'u1');
    await paidAccount(s, 'u2');
    const { erase, incidents } = eraser(s);
    const afterCommit = await erase.execute('u1');
    expect(s.subscriptions.of('u1')).toEqual([]);
    expect([...s.checkouts.rows.values()].map((r) => r.userId)).toEqual(['u2']);
    expect(s.gateway.forgotten).toEqual(['u1']);
    expect(s.gateway.cancelled).toEqual([]);
    await afterCommit();
    expect(s.gateway.cancelled).toEqual(['sub_u1']);
    expect(incidents.failures).toEqual([]);
    expect(s.subscriptions.of('u2').map((x) => x.providerSubscriptionId)).toEqual(['sub_u2']);
  });

  // A provider that fails must neither undo nor block a deletion that has committed; an operator learns of it.
  it('reports a provider that refuses the cancellation instead of throwing', async () => {
    const s = setup();
    await paidAccount(s, 'u1');
    const { erase, incidents } = eraser(s);
    const afterCommit = await erase.execute('u1');
    s.gateway.failCancellations = new Error('connect ECONNREFUSED');
    await expect(afterCommit()).resolves.toBeUndefined();
    expect(incidents.failures).toEqual([{ providerSubscriptionId: 'sub_u1', reason: 'connect ECONNREFUSED' }]);
    expect(s.subscriptions.of('u1')).toEqual([]);
  });

  it('calls no provider for an account on the free plan', async () => {
    const s = setup();
    await s.current.execute('u1');
    s.gateway.failCancellations = new Error('must not be called');
    const { erase, incidents } = eraser(s);
    await (
      await erase.execute('u1')
    )();
    expect(s.subscriptions.of('u1')).toEqual([]);
    expect(incidents.failures).toEqual([]);
  });
});

describe('billing off: no payment provider, plans and limits from the operator', () => {
  const off = (plans: readonly Plan[] = SELF_HOSTED_PLANS) => setupWith(new NoPaymentProvider(), plans);

  it('refuses every checkout and verify with BILLING_DISABLED, whatever plan is named, and records nothing', async () => {
    const s = off(DEFAULT_PLANS);
    for (const planId of ['pro', 'free', 'no-such-plan']) {
      await expect(s.checkout.execute('u1', { planId, ...urls })).rejects.toBeInstanceOf(BillingDisabledError);
    }
    await expect(s.verify.execute('u1', 'cs_anything')).rejects.toMatchObject({ code: 'BILLING_DISABLED' });
    expect(s.checkouts.rows.size).toBe(0);
    expect(s.subscriptions.of('u1')).toEqual([]);
  });

  it('puts every account on the one default plan, unlimited, as a number', async () => {
    const s = off();
    const { subscription, plan, limits } = await s.current.execute('u1');
    expect([subscription.planId, subscription.status, plan.price]).toEqual(['default', 'active', 0]);
    expect(limits).toEqual({ links: UNLIMITED, domains: UNLIMITED, tags: UNLIMITED });
    expect(await s.quota.limitFor('u2', 'links')).toBe(UNLIMITED);
  });

  it("takes the default plan's limits from configuration where given (DEFAULT_MAX_*), the others staying as they were", async () => {
    const s = off(withFreePlanLimits(SELF_HOSTED_PLANS, { links: 500, domains: null, tags: 0 }));
    expect(await s.quota.limitsOf('u1')).toEqual({ links: 500, domains: UNLIMITED, tags: 0 });
    const paid = withFreePlanLimits(DEFAULT_PLANS, { links: 20, domains: null, tags: null });
    expect(paid.map((p) => [p.id, p.maxLinks, p.maxDomains])).toEqual([
      ['free', 20, 1],
      ['pro', 5_000, 5],
      ['business', 50_000, 25],
    ]);
  });

  // A subscription Stripe billed before billing was turned off cannot be cancelled without a provider: an operator must hear of it.
  it("reports a deleted account's provider subscription it cannot cancel", async () => {
    const s = off(DEFAULT_PLANS);
    await s.subscriptions.insert(
      Subscription.start({
        id: ids.next(),
        userId: 'u1',
        planId: 'pro',
        checkoutSessionId: 'cs_old',
        providerSubscriptionId: 'sub_old',
        now,
      }),
    );
    const incidents = new RecordedIncidents();
    await (
      await new EraseBillingAccountUseCase({
        subscriptions: s.subscriptions,
        checkouts: s.checkouts,
        gateway: s.gateway,
        incidents,
        quotas: s.quotas,
      }).execute('u1')
    )();
    expect(s.subscriptions.of('u1')).toEqual([]);
    expect(incidents.failures).toEqual([{ providerSubscriptionId: 'sub_old', reason: expect.stringContaining('billing is off') }]);
  });
});

describe("the operator's plans and custom limits", () => {
  it(
    'assigns a plan of the catalogue: the current subscription ends, the ' + 'new one holds at once; the same plan again changes nothing',
    async () => {
      const s = setup();
      await s.current.execute('u1');
      const assigned = await s.assignPlan.execute('u1', 'business');
      expect(assigned.subscription).toMatchObject({
        planId: 'business',
        status: 'active',
        checkoutSessionId: null,
        providerSubscriptionId: null,
      });
      expect(assigned.limits).toEqual({ links: 50_000, domains: 25, tags: 1_000 });
      expect(await s.quota.limitFor('u1', 'links')).toBe(50_000);
      expect((await s.assignPlan.execute('u1', 'business')).subscription.id).toBe(assigned.subscription.id);
      expect(s.subscriptions.of('u1').map((x) => [x.planId, x.status])).toEqual([
        ['free', 'canceled'],
        ['business', 'active'],
      ]);
      // Back to the free plan by name, as any other.
      expect((await s.assignPlan.execute('u1', 'free')).limits.links).toBe(100);
    },
  );

  it('refuses a plan not in the catalogue, naming the ones there are, and changes nothing', async () => {
    const s = setup();
    await s.current.execute('u1');
    await expect(s.assignPlan.execute('u1', 'gold')).rejects.toMatchObject({
      errors: [{ name: 'plan', error: 'unknown plan; one of free, pro, business' }],
    });
    expect(s.subscriptions.of('u1').map((x) => x.planId)).toEqual(['free']);
  });

  // Otherwise the account would go on paying for a plan it no longer has.
  it('stops the replaced paid subscription at the provider', async () => {
    const s = setup();
    await paidAccount(s, 'u1');
    await s.assignPlan.execute('u1', 'business');
    expect(s.gateway.cancelled).toEqual(['sub_u1']);
  });

  it('says what is left to do when the provider will not cancel the replaced subscription, the plan assigned all the same', async () => {
    const s = setup();
    await paidAccount(s, 'u1');
    s.gateway.failCancellations = new Error('connect ECONNREFUSED');
    await expect(s.assignPlan.execute('u1', 'business')).rejects.toThrow(
      'the plan is assigned, but the payment provider did not cancel the replaced subscription sub_u1: connect ECONNREFUSED',
    );
    expect((await s.current.execute('u1')).plan.id).toBe('business');
  });

  it("overrides the plan's limits one by one, keeps them across plan changes, and gives the plan's back on null or clear", async () => {
    const s = setup();
    expect(await s.setLimits.execute('u1', { links: 3 })).toEqual({ links: 3, domains: null, tags: null });
    expect(await s.quota.limitsOf('u1')).toEqual({ links: 3, domains: 1, tags: 10 });
    // A change of one limit keeps the others.
    await s.setLimits.execute('u1', { tags: UNLIMITED });
    expect(await s.quota.limitsOf('u1')).toEqual({ links: 3, domains: 1, tags: UNLIMITED });
    await s.assignPlan.execute('u1', 'pro');
    expect(await s.quota.limitsOf('u1')).toEqual({ links: 3, domains: 5, tags: UNLIMITED });
    expect((await s.current.execute('u1')).limits).toEqual({ links: 3, domains: 5, tags: UNLIMITED });
    await s.setLimits.execute('u1', { links: null });
    expect(await s.quota.limitsOf('u1')).toEqual({ links: 5_000, domains: 5, tags: UNLIMITED });
    expect(await s.setLimits.execute('u1', { domains: 2 }, true)).toEqual({ links: null, domains: 2, tags: null });
    expect(await s.setLimits.execute('u1', {}, true)).toEqual(NO_CUSTOM_LIMITS);
    expect(s.quotas.custom.has('u1')).toBe(false);
    expect(await s.quota.limitsOf('u2')).toEqual({ links: 100, domains: 1, tags: 10 });
  });

  it('refuses limits that are not whole numbers from 0 to UNLIMITED, naming each, and keeps the ones it had', async () => {
    const s = setup();
    await s.setLimits.execute('u1', { links: 7 });
    await expect(s.setLimits.execute('u1', { links: -1, tags: 1.5, domains: UNLIMITED + 1 })).rejects.toMatchObject({
      errors: [
        { name: 'links', error: expect.stringContaining('whole number') },
        { name: 'tags', error: expect.stringContaining('whole number') },
        { name: 'domains', error: expect.stringContaining('whole number') },
      ],
    });
    expect(await s.quota.limitFor('u1', 'links')).toBe(7);
  });

  it("erases an account's custom limits with the account", async () => {
    const s = setup();
    await s.setLimits.execute('u1', { links: 7 });
    await (
      await new EraseBillingAccountUseCase({
        subscriptions: s.subscriptions,
        checkouts: s.checkouts,
        gateway: s.gateway,
        incidents: new RecordedIncidents(),
        quotas: s.quotas,
      }).execute('u1')
    )();
    expect(s.quotas.custom.has('u1')).toBe(false);
  });
});

/** As Stripe's reader: a payload without the provider's signature is refused; an event type billing does not act on is null. */
class SignedEvents extends PaymentWebhookReader {
  read(payload: Uint8Array | string, signature: string | undefined) {
    if (signature !== 'signed-by-provider') throw new InvalidWebhookError('no valid signature');
    const event = JSON.parse(typeof payload === 'string' ? payload : new TextDecoder().decode(payload));
    return 'kind' in event ? event : null;
  }
}

/** As the sandbox adapter, over the fake provider's sessions: paid once, never once expired; unknown ids are unknown. */
class MemorySandbox extends SandboxCheckouts {
  constructor(private readonly gateway: FakeGateway) {
    super();
  }
  async session(id: string): Promise<SandboxSessionView | null> {
    const s = this.gateway.sessions.get(id);
    if (!s) return null;
    const { plan, successUrl, cancelUrl } = s.checkout;
    const at = new Date(now.getTime() + 86_400_000);
    return {
      id,
      planId: plan.id,
      planName: plan.name,
      price: plan.price,
      currency: plan.currency,
      successUrl,
      cancelUrl,
      expiresAt: at,
      paid: s.paid,
      expired: s.expired && !s.paid,
      providerSubscriptionId: s.providerSubscriptionId,
    };
  }
  async pay(id: string): Promise<SandboxPayment> {
    const before = await this.session(id);
    if (!before) return { outcome: 'unknown' };
    if (before.paid) return { outcome: 'already_paid', session: before };
    if (before.expired) return { outcome: 'expired' };
    this.gateway.pay(id);
    return { outcome: 'paid', session: (await this.session(id)) as SandboxSessionView };
  }
}

describe("a provider's webhook", () => {
  const checkoutPaid = (sessionId: string) =>
    JSON.stringify({ kind: 'checkout_paid', sessionId, providerSubscriptionId: `sub_${sessionId}` });

  it('applies a signed event once, and ignores an event billing does not act on', async () => {
    const s = setup();
    const receive = new ReceivePaymentWebhookUseCase(new SignedEvents(), s.events);
    const { sessionId } = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    expect(await receive.execute(new TextEncoder().encode(checkoutPaid(sessionId)), 'signed-by-provider')).toBe('applied');
    expect(await receive.execute(checkoutPaid(sessionId), 'signed-by-provider')).toBe('unchanged');
    expect((await s.current.execute('u1')).plan.id).toBe('pro');
    expect(await receive.execute(JSON.stringify({ type: 'customer.created' }), 'signed-by-provider')).toBe('ignored');
  });

  // A forged call must not activate a plan: the reader refuses it before anything is applied.
  it('refuses an unsigned event and applies nothing', async () => {
    const s = setup();
    const { sessionId } = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    await expect(
      new ReceivePaymentWebhookUseCase(new SignedEvents(), s.events).execute(checkoutPaid(sessionId), undefined),
    ).rejects.toThrow(InvalidWebhookError);
    expect(s.subscriptions.of('u1')).toEqual([]);
  });

  it('has no endpoint without Stripe: NOT_FOUND, whatever the call carries', async () => {
    const s = setup();
    await expect(
      new ReceivePaymentWebhookUseCase(new NoPaymentWebhookReader(), s.events).execute('{}', 'signed-by-provider'),
    ).rejects.toThrow(NotFoundError);
  });
});

describe('the sandbox checkout page', () => {
  const sandboxSetup = () => {
    const s = setup();
    const sandbox = new MemorySandbox(s.gateway);
    return { ...s, show: new GetSandboxCheckoutUseCase(sandbox), pay: new PaySandboxCheckoutUseCase(sandbox, s.events) };
  };

  it('shows a session, and paying it starts its plan at once (no verify needed); paying again starts nothing more', async () => {
    const s = sandboxSetup();
    const { sessionId } = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    expect(await s.show.execute(sessionId)).toMatchObject({ id: sessionId, planId: 'pro', paid: false, expired: false });
    expect(await s.pay.execute(sessionId)).toMatchObject({ outcome: 'paid', session: { paid: true, successUrl: urls.successUrl } });
    expect((await s.current.execute('u1')).plan.id).toBe('pro');
    expect(await s.pay.execute(sessionId)).toMatchObject({ outcome: 'already_paid' });
    expect(s.subscriptions.of('u1').map((sub) => [sub.planId, sub.checkoutSessionId])).toEqual([['pro', sessionId]]);
  });

  it('starts no plan for an expired or an unknown session', async () => {
    const s = sandboxSetup();
    const { sessionId } = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    Object.assign(s.gateway.sessions.get(sessionId) ?? {}, { expired: true });
    expect(await s.pay.execute(sessionId)).toEqual({ outcome: 'expired' });
    expect(await s.pay.execute('cs_unknown')).toEqual({ outcome: 'unknown' });
    expect(await s.show.execute('cs_unknown')).toBeNull();
    expect(s.subscriptions.of('u1')).toEqual([]);
  });

  it('knows no session unless the sandbox is the provider', async () => {
    const s = setup();
    const { sessionId } = await s.checkout.execute('u1', { planId: 'pro', ...urls });
    expect(await new GetSandboxCheckoutUseCase(new NoSandboxCheckouts()).execute(sessionId)).toBeNull();
    expect(await new PaySandboxCheckoutUseCase(new NoSandboxCheckouts(), s.events).execute(sessionId)).toEqual({ outcome: 'unknown' });
    expect(s.subscriptions.of('u1')).toEqual([]);
  });
});
