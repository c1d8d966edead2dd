import Stripe from 'stripe';
import { FakeStripeApi } from '@lnk/shared/testing';
import { sql } from '@lnk/shared/database';
import { UNLIMITED } from '@lnk/shared/kernel';
import { createAccount, createPat, TestAccount } from './support/identity';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';

/** The subscription an account has on a plan it pays nothing for: active, monthly, never bought (spec 2.8). */
function unpaidSubscription(
  userId: string,
  plan: { planId: string; planName: string; maxDomains: number; maxTags: number; maxLinks: number },
) {
  return {
    id: expect.stringMatching(/^[0-9a-f]{24}$/),
    userId,
    ...plan,
    price: 0,
    currency: 'USD',
    status: 'active',
    isActive: true,
    billingCycle: 'monthly',
  };
}

const urls = {
  successUrl: 'https://app.example/billing/done?session={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://app.example/billing/cancelled',
};

async function billingRows(t: TestApp, userId: string) {
  const { rows } = await sql<{ plan_id: string; status: string }>(
    t.dataSource,
    'SELECT plan_id, status FROM billing_subscriptions WHERE user_id = $1 ORDER BY start_date, id',
    [userId],
  );
  return rows.map((r) => `${r.plan_id}:${r.status}`);
}

describe('billing over HTTP with the built-in sandbox provider', () => {
  let t: TestApp;
  let ada: TestAccount;
  let bob: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ env: { BILLING: 'sandbox', PLANS: freePlanLimits({ maxLinks: 1 }) } });
    ada = await createAccount(t);
    bob = await createAccount(t);
  });
  afterAll(() => t?.close());

  const checkout = (account: TestAccount, body: Record<string, unknown>) =>
    t.request('POST', '/user/subscription/checkout', { token: account.accessToken, body });
  const verify = (account: TestAccount, sessionId: unknown) =>
    t.request('POST', '/user/subscription/verify', { token: account.accessToken, body: { sessionId } });

  it('lists the plans a client chooses a planId from', async () => {
    const plans = await t.request('GET', '/user/plans', { token: ada.accessToken });
    expect(plans.status).toBe(200);
    expect(plans.body.data.map((p: { id: string }) => p.id)).toEqual(['free', 'pro', 'business']);
    expect(plans.body.data[1]).toEqual({
      id: 'pro',
      name: 'Pro',
      price: 9,
      currency: 'USD',
      billingCycle: 'monthly',
      maxDomains: 5,
      maxLinks: 5000,
      maxTags: 100,
    });
  });

  it('gives every account the free plan as its current subscription (spec 2.8)', async () => {
    const current = await t.request('GET', '/user/subscription/current', { token: ada.accessToken });
    expect(current.status).toBe(200);
    expect(current.body.data).toEqual(
      unpaidSubscription(ada.id, { planId: 'free', planName: 'Free', maxDomains: 1, maxTags: 10, maxLinks: 1 }),
    );
    const again = await t.request('GET', '/user/subscription/current', { token: ada.accessToken });
    expect(again.body.data.id).toBe(current.body.data.id);
  });

  it('refuses an unknown or free plan and URLs that are not absolute http(s)', async () => {
    for (const planId of ['gold', 'free']) {
      const answer = await checkout(ada, { planId, ...urls });
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'VALIDATION_ERROR', meta: { errors: [{ name: 'planId' }] } });
    }
    for (const successUrl of ['/relative', 'ftp://files.example/x', 'javascript:alert(1)', 'not a url']) {
      const answer = await checkout(ada, { planId: 'pro', ...urls, successUrl });
      expect(answer.status).toBe(400);
      expect(answer.body.meta.errors.map((e: { name: string }) => e.name)).toEqual(['successUrl']);
    }
    const missing = await checkout(ada, {});
    expect(missing.status).toBe(400);
    expect(missing.body.meta.errors.map((e: { name: string }) => e.name).sort()).toEqual(['cancelUrl', 'planId', 'successUrl']);
    expect((await verify(ada, 42)).body.meta.errors[0].name).toBe('sessionId');
  });

  it('checks out, pays on the sandbox page, verifies idempotently; the plan lifts the quotas', async () => {
    expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/1' } })).status).toBe(200);
    const overQuota = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/2' } });
    expect(overQuota.status).toBe(403);
    expect(overQuota.body.code).toBe('QUOTA_EXCEEDED');

    const started = await checkout(ada, { planId: 'pro', ...urls });
    expect(started.status).toBe(200);
    const { sessionId, url, expiresAt } = started.body.data;
    expect(url).toBe(`${t.baseUrl}/billing/sandbox/${sessionId}`);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);

    const unpaid = await verify(ada, sessionId);
    expect(unpaid.status).toBe(400);
    expect(unpaid.body.code).toBe('PAYMENT_NOT_COMPLETED');

    const page = await t.request('GET', `/billing/sandbox/${sessionId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Subscribe to Pro');
    expect(page.text).toContain('$9.00');
    expect(page.text).toContain(`href="${urls.cancelUrl}"`);
    expect(page.headers.get('content-security-policy')).toContain("form-action 'self' https://app.example");

    const paid = await t.request('POST', `/billing/sandbox/${sessionId}`, {
      raw: { body: '', contentType: 'application/x-www-form-urlencoded' },
    });
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toBe(`https://app.example/billing/done?session=${sessionId}`);

    const verified = await verify(ada, sessionId);
    expect(verified.status).toBe(200);
    expect(verified.body.data).toEqual({ id: expect.any(String), status: 'active', planId: 'pro', startDate: expect.any(String) });
    const twice = await verify(ada, sessionId);
    expect(twice.body.data).toEqual(verified.body.data);

    const current = await t.request('GET', '/user/subscription/current', { token: ada.accessToken });
    expect(current.body.data).toMatchObject({
      id: verified.body.data.id,
      planId: 'pro',
      planName: 'Pro',
      price: 9,
      isActive: true,
      maxLinks: 5000,
    });
    const limits = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
    expect(limits.body.data).toEqual({ domains: { used: 0, limit: 5 }, links: { used: 1, limit: 5000 }, tags: { used: 0, limit: 100 } });
    expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/2' } })).status).toBe(200);
    expect(await billingRows(t, ada.id)).toEqual(['free:canceled', 'pro:active']);

    // Already on pro: another pro checkout is refused.
    expect((await checkout(ada, { planId: 'pro', ...urls })).body.meta.errors[0].name).toBe('planId');
  });

  it("answers another user's session and an unknown one as 404, and changes nothing for them", async () => {
    const started = await checkout(ada, { planId: 'business', ...urls });
    await t.request('POST', `/billing/sandbox/${started.body.data.sessionId}`, {
      raw: { body: '', contentType: 'application/x-www-form-urlencoded' },
    });
    const stolen = await verify(bob, started.body.data.sessionId);
    expect(stolen.status).toBe(404);
    expect(stolen.body.code).toBe('NOT_FOUND');
    expect((await verify(bob, 'cs_sandbox_0123456789abcdef0123456789abcdef')).status).toBe(404);
    expect((await t.request('GET', '/user/subscription/current', { token: bob.accessToken })).body.data.planId).toBe('free');
  });

  it('serves no page for an unknown session, and no Stripe webhook without Stripe', async () => {
    expect((await t.request('GET', '/billing/sandbox/cs_sandbox_nope')).status).toBe(404);
    expect(
      (await t.request('POST', '/billing/sandbox/cs_sandbox_nope', { raw: { body: '', contentType: 'application/x-www-form-urlencoded' } }))
        .status,
    ).toBe(404);
    const webhook = await t.request('POST', '/billing/stripe/webhook', { body: { type: 'checkout.session.completed' } });
    expect(webhook.status).toBe(404);
  });

  it('needs subscription:read on all four routes', async () => {
    const pat = await createPat(t, bob, ['links:read']);
    for (const [method, path] of [
      ['GET', '/user/plans'],
      ['GET', '/user/subscription/current'],
      ['POST', '/user/subscription/checkout'],
      ['POST', '/user/subscription/verify'],
    ]) {
      const answer = await t.request(method, path, { token: pat.token, body: method === 'POST' ? {} : undefined });
      expect([path, answer.status]).toEqual([path, 403]);
    }
    const allowed = await createPat(t, bob, ['subscription:read']);
    expect((await t.request('GET', '/user/plans', { token: allowed.token })).status).toBe(200);
  });

  it("erases the account's billing rows with the account", async () => {
    const carl = await createAccount(t);
    const started = await checkout(carl, { planId: 'pro', ...urls });
    await t.request('POST', `/billing/sandbox/${started.body.data.sessionId}`, {
      raw: { body: '', contentType: 'application/x-www-form-urlencoded' },
    });
    expect(await billingRows(t, carl.id)).toEqual(['pro:active']);
    expect((await t.request('DELETE', '/user/me', { token: carl.accessToken })).status).toBe(200);
    expect(await billingRows(t, carl.id)).toEqual([]);
    const { rows } = await sql(
      t.dataSource,
      'SELECT 1 FROM billing_checkouts WHERE user_id = $1 UNION ALL SELECT 1 FROM billing_sandbox_sessions WHERE user_id = $1',
      [carl.id],
    );
    expect(rows).toEqual([]);
  });
});

describe('billing over HTTP with Stripe (a Stripe-like API on loopback)', () => {
  const webhookSecret = 'whsec_e2e_secret';
  let stripeApi: FakeStripeApi;
  let t: TestApp;
  let ada: TestAccount;

  beforeAll(async () => {
    stripeApi = await new FakeStripeApi().start();
    t = await startTestApp({
      env: {
        PLANS: freePlanLimits({ maxLinks: 1 }),
        STRIPE_SECRET_KEY: 'sk_test_e2e',
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_PRICES: 'pro=price_pro_monthly, business=price_business_monthly',
        STRIPE_API_URL: stripeApi.url,
      },
    });
    ada = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await stripeApi?.stop();
  });

  const checkout = (planId: string) =>
    t.request('POST', '/user/subscription/checkout', { token: ada.accessToken, body: { planId, ...urls } });
  const verify = (sessionId: string) => t.request('POST', '/user/subscription/verify', { token: ada.accessToken, body: { sessionId } });
  const current = async () => (await t.request('GET', '/user/subscription/current', { token: ada.accessToken })).body.data;
  const deliver = (event: Record<string, unknown>, secret = webhookSecret) => {
    const payload = JSON.stringify({
      id: `evt_${Math.random().toString(16).slice(2)}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      ...event,
    });
    return t.request('POST', '/billing/stripe/webhook', {
      raw: { body: payload, contentType: 'application/json' },
      headers: { 'stripe-signature': Stripe.webhooks.generateTestHeaderString({ payload, secret }) },
    });
  };

  it('creates a Stripe Checkout Session for the plan price, and verifies it once Stripe says it is paid', async () => {
    const started = await checkout('pro');
    expect(started.status).toBe(200);
    const { sessionId, url } = started.body.data;
    expect(url).toBe(`https://checkout.stripe.test/c/pay/${sessionId}`);
    expect(stripeApi.sessions.get(sessionId)).toMatchObject({
      mode: 'subscription',
      price: 'price_pro_monthly',
      client_reference_id: ada.id,
      success_url: urls.successUrl,
    });

    expect((await verify(sessionId)).body.code).toBe('PAYMENT_NOT_COMPLETED');
    stripeApi.complete(sessionId);
    const verified = await verify(sessionId);
    expect(verified.body.data).toMatchObject({ status: 'active', planId: 'pro' });
    expect((await current()).planId).toBe('pro');
  });

  it('refuses a webhook with a bad or missing signature and changes nothing', async () => {
    const before = await billingRows(t, ada.id);
    const [session] = stripeApi.sessions.values();
    const event = {
      type: 'customer.subscription.deleted',
      data: { object: { id: session.subscription, object: 'subscription', status: 'canceled' } },
    };
    const forged = await deliver(event, 'whsec_not_ours');
    expect(forged.status).toBe(400);
    expect(forged.body.code).toBe('VALIDATION_ERROR');
    const unsigned = await t.request('POST', '/billing/stripe/webhook', { body: event });
    expect(unsigned.status).toBe(400);
    expect(await billingRows(t, ada.id)).toEqual(before);
  });

  it('marks a failed renewal past_due, recovers it, and ends a cancelled subscription on the free plan without deleting data', async () => {
    expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/1' } })).status).toBe(200);
    expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/2' } })).status).toBe(200);
    const subscription = [...stripeApi.sessions.values()][0].subscription;
    const invoice = (type: string) => ({
      type,
      data: { object: { id: 'in_1', object: 'invoice', parent: { type: 'subscription_details', subscription_details: { subscription } } } },
    });

    expect((await deliver(invoice('invoice.payment_failed'))).status).toBe(200);
    expect(await current()).toMatchObject({ planId: 'pro', status: 'past_due', isActive: false });
    expect((await deliver(invoice('invoice.paid'))).status).toBe(200);
    expect(await current()).toMatchObject({ planId: 'pro', status: 'active', isActive: true });

    const ended = await deliver({
      type: 'customer.subscription.deleted',
      data: { object: { id: subscription, object: 'subscription', status: 'canceled' } },
    });
    expect(ended.body.data).toEqual({ received: true, outcome: 'applied' });
    expect(await current()).toMatchObject({ planId: 'free', status: 'active', maxLinks: 1 });
    // Over quota after the downgrade: both links stay, a third is refused.
    const list = await t.request('GET', '/user/link', { token: ada.accessToken });
    expect(list.body.meta.total).toBe(2);
    expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://a.example/3' } })).body.code).toBe(
      'QUOTA_EXCEEDED',
    );
  });

  it(
    'activates from the checkout.session.completed webhook; verify then answers ' +
      'the same subscription; an upgrade cancels the old one at Stripe',
    async () => {
      const pro = (await checkout('pro')).body.data.sessionId;
      const paidPro = stripeApi.complete(pro);
      const hook = await deliver({ type: 'checkout.session.completed', data: { object: { ...paidPro } } });
      expect(hook.body.data.outcome).toBe('applied');
      const viaWebhook = await current();
      expect(viaWebhook.planId).toBe('pro');
      expect((await verify(pro)).body.data.id).toBe(viaWebhook.id);
      expect((await deliver({ type: 'checkout.session.completed', data: { object: { ...paidPro } } })).body.data.outcome).toBe('unchanged');

      const business = (await checkout('business')).body.data.sessionId;
      expect(stripeApi.session(business).price).toBe('price_business_monthly');
      stripeApi.complete(business);
      expect((await verify(business)).body.data.planId).toBe('business');
      expect(stripeApi.cancelled).toContain(paidPro.subscription);
    },
  );

  it('has no sandbox page when Stripe takes the payments', async () => {
    expect((await t.request('GET', '/billing/sandbox/cs_sandbox_x')).status).toBe(404);
  });
});

describe('billing off: a self-hosted instance with no payment setting', () => {
  let t: TestApp;
  let ada: TestAccount;

  beforeAll(async () => {
    // Nothing about billing in the environment: what a self-hoster's `npm start` or container gets.
    t = await startTestApp();
    ada = await createAccount(t);
  });
  afterAll(() => t?.close());

  it('is off, with one default plan and no limits, each limit the number 2147483647', async () => {
    expect(t.config.billingMode).toBe('off');
    const plans = await t.request('GET', '/user/plans', { token: ada.accessToken });
    expect(plans.body.data).toEqual([
      {
        id: 'default',
        name: 'Default',
        price: 0,
        currency: 'USD',
        billingCycle: 'monthly',
        maxDomains: UNLIMITED,
        maxLinks: UNLIMITED,
        maxTags: UNLIMITED,
      },
    ]);
    const limits = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
    expect(limits.body.data).toEqual({
      domains: { used: 0, limit: UNLIMITED },
      links: { used: 0, limit: UNLIMITED },
      tags: { used: 0, limit: UNLIMITED },
    });
  });

  it("answers the account's plan as its subscription (spec 2.8)", async () => {
    const current = await t.request('GET', '/user/subscription/current', { token: ada.accessToken });
    expect(current.status).toBe(200);
    expect(current.body.data).toEqual(
      unpaidSubscription(ada.id, {
        planId: 'default',
        planName: 'Default',
        maxDomains: UNLIMITED,
        maxTags: UNLIMITED,
        maxLinks: UNLIMITED,
      }),
    );
  });

  it(
    'refuses checkout and verify with 400 BILLING_DISABLED whatever the ' + 'plan, and records nothing; no sandbox page, no Stripe webhook',
    async () => {
      for (const planId of ['pro', 'default', 'gold']) {
        const refused = await t.request('POST', '/user/subscription/checkout', { token: ada.accessToken, body: { planId, ...urls } });
        expect([refused.status, refused.body.code]).toEqual([400, 'BILLING_DISABLED']);
        expect(refused.body.message).toContain('Billing is not enabled');
      }
      const verify = await t.request('POST', '/user/subscription/verify', {
        token: ada.accessToken,
        body: { sessionId: 'cs_sandbox_0123456789abcdef0123456789abcdef' },
      });
      expect([verify.status, verify.body.code]).toEqual([400, 'BILLING_DISABLED']);
      const { rows } = await sql(t.dataSource, 'SELECT 1 FROM billing_checkouts UNION ALL SELECT 1 FROM billing_sandbox_sessions');
      expect(rows).toEqual([]);
      expect((await t.request('GET', '/billing/sandbox/cs_sandbox_x')).status).toBe(404);
      expect((await t.request('POST', '/billing/stripe/webhook', { body: { type: 'checkout.session.completed' } })).status).toBe(404);
    },
  );

  // Issue 28: the free plan's 100 links used to cut a self-hoster's import short.
  it('imports a 1,000-line CSV with no limits configured: 1,000 links', async () => {
    const csv = ['url,slug', ...Array.from({ length: 1000 }, (_, i) => `https://example.com/page/${i},import-${i}`)].join('\n');
    const imported = await t.request('POST', '/user/link/import', { token: ada.accessToken, raw: { body: csv, contentType: 'text/csv' } });
    expect(imported.status).toBe(200);
    expect(imported.body.data).toMatchObject({ created: 1000, skipped: [], skippedTotal: 0 });
    const limits = await t.request('GET', '/user/me/limits', { token: ada.accessToken });
    expect(limits.body.data.links).toEqual({ used: 1000, limit: UNLIMITED });
  });
});

describe('billing off with limits from configuration (DEFAULT_MAX_*)', () => {
  let t: TestApp;
  let ada: TestAccount;

  beforeAll(async () => {
    t = await startTestApp({ env: { DEFAULT_MAX_LINKS: '2', DEFAULT_MAX_TAGS: 'unlimited' } });
    ada = await createAccount(t);
  });
  afterAll(() => t?.close());

  it('holds every account to them, the ones not set staying unlimited', async () => {
    for (const n of [1, 2])
      expect((await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: `https://example.com/${n}` } })).status).toBe(
        200,
      );
    const over = await t.request('POST', '/user/link', { token: ada.accessToken, body: { url: 'https://example.com/3' } });
    expect([over.status, over.body.code, over.body.meta]).toEqual([
      403,
      'QUOTA_EXCEEDED',
      { limit: { resource: 'links', used: 2, limit: 2 } },
    ]);
    const current = await t.request('GET', '/user/subscription/current', { token: ada.accessToken });
    expect(current.body.data).toMatchObject({ planId: 'default', maxLinks: 2, maxDomains: UNLIMITED, maxTags: UNLIMITED });
  });
});
