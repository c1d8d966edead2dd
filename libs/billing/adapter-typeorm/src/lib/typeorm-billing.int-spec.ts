import {
  ActivateCheckout,
  AssignPlanUseCase,
  DEFAULT_PLANS,
  GetSubscriptionUseCase,
  HandlePaymentEventUseCase,
  PlanCatalog,
  PlanQuotaPolicy,
  SetCustomLimitsUseCase,
  StartCheckoutUseCase,
  VerifyCheckoutUseCase,
} from '@lnk/billing/domain';
import { ObjectIdGenerator, UNLIMITED } from '@lnk/shared/kernel';
import { sql, TypeormUnitOfWork } from '@lnk/shared/database';
import { FixedClock, useTestDataSource } from '@lnk/shared/testing';
import {
  billingPersistence,
  TypeormAccountQuotaRepository,
  TypeormCheckoutRepository,
  TypeormSubscriptionRepository,
} from './typeorm-billing.repositories';
import { SandboxPaymentGateway } from './sandbox-payment.gateway';

const ids = new ObjectIdGenerator();
const urls = { successUrl: 'https://app.example/ok', cancelUrl: 'https://app.example/cancel' };

describe('billing on PostgreSQL with the sandbox provider', () => {
  const dataSource = useTestDataSource([billingPersistence]);
  let clock: FixedClock;
  let sandbox: SandboxPaymentGateway;
  let uc: ReturnType<typeof compose>;

  function compose() {
    const catalog = new PlanCatalog(DEFAULT_PLANS);
    const subscriptions = new TypeormSubscriptionRepository(dataSource());
    const checkouts = new TypeormCheckoutRepository(dataSource());
    const uow = new TypeormUnitOfWork(dataSource());
    const quotas = new TypeormAccountQuotaRepository(dataSource());
    const activation = new ActivateCheckout({ subscriptions, gateway: sandbox, uow, ids, clock });
    const quota = new PlanQuotaPolicy(quotas, catalog);
    const current = new GetSubscriptionUseCase({ subscriptions, catalog, uow, ids, clock, quota });
    return {
      current,
      quota,
      quotas,
      assignPlan: new AssignPlanUseCase({ subscriptions, catalog, gateway: sandbox, uow, ids, clock, current }),
      setLimits: new SetCustomLimitsUseCase(quotas, subscriptions, uow, clock),
      checkout: new StartCheckoutUseCase({ subscriptions, checkouts, gateway: sandbox, catalog, clock }),
      verify: new VerifyCheckoutUseCase(subscriptions, checkouts, sandbox, activation),
      events: new HandlePaymentEventUseCase({ subscriptions, checkouts, activation, catalog, uow, ids, clock }),
      subscriptions,
      checkouts,
    };
  }

  beforeAll(async () => {
    clock = new FixedClock(new Date('2026-05-01T10:00:00.000Z'));
    sandbox = new SandboxPaymentGateway(dataSource(), clock, { pageBaseUrl: 'https://lnk.example' });
    uc = compose();
  });

  const rowsOf = async (userId: string) =>
    (
      await sql<{ plan_id: string; status: string }>(
        dataSource(),
        'SELECT plan_id, status FROM billing_subscriptions WHERE user_id = $1 ORDER BY start_date, id',
        [userId],
      )
    ).rows.map((r) => [r.plan_id, r.status]);

  it('makes one free subscription however many first reads race', async () => {
    const user = ids.next();
    const results = await Promise.all(Array.from({ length: 6 }, () => uc.current.execute(user)));
    expect(new Set(results.map((r) => r.subscription.id)).size).toBe(1);
    expect(await rowsOf(user)).toEqual([['free', 'active']]);
  });

  it('checks out, pays on the sandbox page, verifies once however many verifies and webhooks race', async () => {
    const user = ids.next();
    await uc.current.execute(user);
    const session = await uc.checkout.execute(user, { planId: 'pro', ...urls });
    expect(session.url).toBe(`https://lnk.example/billing/sandbox/${session.sessionId}`);
    expect(session.expiresAt.toISOString()).toBe('2026-05-02T10:00:00.000Z');
    expect(await sandbox.session(session.sessionId)).toMatchObject({
      planName: 'Pro',
      price: 9,
      currency: 'USD',
      paid: false,
      expired: false,
      successUrl: urls.successUrl,
    });
    await expect(uc.verify.execute(user, session.sessionId)).rejects.toMatchObject({ code: 'PAYMENT_NOT_COMPLETED' });

    expect((await sandbox.pay(session.sessionId)).outcome).toBe('paid');
    expect((await sandbox.pay(session.sessionId)).outcome).toBe('already_paid');
    const state = await sandbox.checkoutState(session.sessionId);
    const racers = await Promise.all([
      ...Array.from({ length: 4 }, () => uc.verify.execute(user, session.sessionId)),
      ...Array.from({ length: 2 }, () =>
        uc.events.execute({
          kind: 'checkout_paid',
          sessionId: session.sessionId,
          providerSubscriptionId: state?.providerSubscriptionId ?? null,
        }),
      ),
    ]);
    const subscriptionIds = new Set(racers.filter((r) => typeof r !== 'string').map((s) => (s as { id: string }).id));
    expect(subscriptionIds.size).toBe(1);
    expect(await rowsOf(user)).toEqual([
      ['free', 'canceled'],
      ['pro', 'active'],
    ]);
    expect(await uc.quota.limitFor(user, 'links')).toBe(5000);
    await expect(uc.verify.execute(ids.next(), session.sessionId)).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });

  it('cannot pay an expired sandbox session; verify says it expired', async () => {
    const user = ids.next();
    const session = await uc.checkout.execute(user, { planId: 'business', ...urls });
    clock.advance(24 * 3_600_000 + 1);
    expect((await sandbox.pay(session.sessionId)).outcome).toBe('expired');
    await expect(uc.verify.execute(user, session.sessionId)).rejects.toThrow(/expired/);
    expect((await sandbox.pay('cs_sandbox_unknown')).outcome).toBe('unknown');
  });

  it('a provider cancellation sends the account back to the free plan; deleting the account erases its rows', async () => {
    const user = ids.next();
    const session = await uc.checkout.execute(user, { planId: 'business', ...urls });
    await sandbox.pay(session.sessionId);
    const paid = await uc.verify.execute(user, session.sessionId);
    const providerSubscriptionId = String(paid.providerSubscriptionId);
    expect(providerSubscriptionId).toMatch(/^sub_sandbox_/);
    expect(await uc.events.execute({ kind: 'payment_failed', providerSubscriptionId })).toBe('applied');
    expect((await uc.current.execute(user)).subscription.status).toBe('past_due');
    expect(await uc.events.execute({ kind: 'subscription_ended', providerSubscriptionId })).toBe('applied');
    expect(await rowsOf(user)).toEqual([
      ['business', 'canceled'],
      ['free', 'active'],
    ]);
    await uc.subscriptions.deleteAllOfOwner(user);
    await uc.checkouts.deleteAllOfOwner(user);
    await sandbox.forgetOwner(user);
    expect(await rowsOf(user)).toEqual([]);
    expect(await uc.checkouts.find(session.sessionId)).toBeNull();
    expect(await sandbox.session(session.sessionId)).toBeNull();
  });

  it('reads the current plan and the custom limits in one statement, none of either as nulls', async () => {
    const user = ids.next();
    expect(await uc.quotas.quotaOf(user)).toEqual({ planId: null, custom: { links: null, domains: null, tags: null } });
    await uc.current.execute(user);
    await uc.quotas.saveCustomLimits(user, { links: UNLIMITED, domains: null, tags: 0 }, clock.now());
    expect(await uc.quotas.quotaOf(user)).toEqual({ planId: 'free', custom: { links: UNLIMITED, domains: null, tags: 0 } });
    await uc.assignPlan.execute(user, 'pro');
    expect(await uc.quotas.quotaOf(user)).toEqual({ planId: 'pro', custom: { links: UNLIMITED, domains: null, tags: 0 } });
    expect(await uc.quota.limitsOf(user)).toEqual({ links: UNLIMITED, domains: 5, tags: 0 });
    // No custom limit left: no row left.
    await uc.quotas.saveCustomLimits(user, { links: null, domains: null, tags: null }, clock.now());
    expect((await sql(dataSource(), 'SELECT 1 FROM billing_account_limits WHERE user_id = $1', [user])).rows).toEqual([]);
    expect(await uc.quota.limitsOf(user)).toEqual({ links: 5000, domains: 5, tags: 100 });
  });

  it("keeps both operators' changes when two set different limits of one account at once", async () => {
    const user = ids.next();
    await Promise.all([
      uc.setLimits.execute(user, { links: 10 }),
      uc.setLimits.execute(user, { domains: 3 }),
      uc.setLimits.execute(user, { tags: 4 }),
    ]);
    expect((await uc.quotas.quotaOf(user)).custom).toEqual({ links: 10, domains: 3, tags: 4 });
    await uc.quotas.deleteAllOfOwner(user);
    expect((await uc.quotas.quotaOf(user)).custom).toEqual({ links: null, domains: null, tags: null });
  });

  it('makes one current subscription however many plan assignments race', async () => {
    const user = ids.next();
    await Promise.all(['pro', 'business', 'pro', 'free'].map((plan) => uc.assignPlan.execute(user, plan)));
    const current = (await rowsOf(user)).filter(([, status]) => status !== 'canceled');
    expect(current).toHaveLength(1);
  });
});
