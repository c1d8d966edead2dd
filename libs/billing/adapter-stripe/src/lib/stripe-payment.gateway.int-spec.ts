import Stripe from 'stripe';
import { DEFAULT_PLANS, InvalidWebhookError } from '@lnk/billing/domain';
import { FakeStripeApi } from '@lnk/shared/testing';
import { createStripeClient, StripePaymentGateway, StripeWebhookReader } from './stripe-payment.gateway';

const [, pro] = DEFAULT_PLANS;
const secret = 'whsec_test_secret';
const sign = (payload: string, key = secret) => Stripe.webhooks.generateTestHeaderString({ payload, secret: key });
const event = (type: string, object: Record<string, unknown>) => JSON.stringify({ id: 'evt_1', object: 'event', type, data: { object } });

describe('Stripe payment gateway against a Stripe-like API on loopback', () => {
  let api: FakeStripeApi;
  let gateway: StripePaymentGateway;
  let reader: StripeWebhookReader;
  const errors: string[] = [];

  beforeAll(async () => {
    api = await new FakeStripeApi().start();
    const client = createStripeClient({ secretKey: 'sk_test_123', apiUrl: api.url });
    gateway = new StripePaymentGateway(client, { pro: 'price_pro' }, (message) => errors.push(message));
    reader = new StripeWebhookReader(client, secret);
  });
  afterAll(() => api.stop());

  it('creates a subscription-mode Checkout Session with the plan price and the account as reference', async () => {
    const session = await gateway.createCheckout({
      userId: 'u1',
      plan: pro,
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
    });
    expect(session.url).toMatch(/^https:\/\/checkout\.stripe\.test\/c\/pay\/cs_test_/);
    expect(session.expiresAt.getTime()).toBeGreaterThan(Date.now());
    const request = api.requests[api.requests.length - 1];
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions', authorization: 'Bearer sk_test_123' });
    expect(request.params).toMatchObject({
      mode: 'subscription',
      'line_items[0][price]': 'price_pro',
      'line_items[0][quantity]': '1',
      client_reference_id: 'u1',
      'metadata[planId]': 'pro',
      success_url: 'https://a.example/ok',
    });

    expect(await gateway.checkoutState(session.sessionId)).toEqual({ paid: false, expired: false, providerSubscriptionId: null });
    const paid = api.complete(session.sessionId);
    expect(await gateway.checkoutState(session.sessionId)).toEqual({
      paid: true,
      expired: false,
      providerSubscriptionId: paid.subscription,
    });
    expect(await gateway.checkoutState('cs_test_unknown')).toBeNull();

    await gateway.cancelSubscription(String(paid.subscription));
    expect(api.cancelled).toEqual([paid.subscription]);
    await gateway.cancelSubscription('sub_unknown');
    expect(errors).toEqual(['Stripe did not cancel replaced subscription sub_unknown']);
  });

  it('reports an expired session', async () => {
    const session = await gateway.createCheckout({
      userId: 'u1',
      plan: pro,
      successUrl: 'https://a.example/ok',
      cancelUrl: 'https://a.example/no',
    });
    api.expire(session.sessionId);
    expect(await gateway.checkoutState(session.sessionId)).toMatchObject({ paid: false, expired: true });
  });

  it('reads signed webhook events and refuses unsigned or wrongly signed ones', () => {
    const completed = event('checkout.session.completed', {
      id: 'cs_1',
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'paid',
      subscription: 'sub_1',
    });
    expect(reader.read(completed, sign(completed))).toEqual({ kind: 'checkout_paid', sessionId: 'cs_1', providerSubscriptionId: 'sub_1' });
    expect(() => reader.read(completed, sign(completed, 'whsec_other'))).toThrow(InvalidWebhookError);
    expect(() => reader.read(completed, undefined)).toThrow(InvalidWebhookError);
    expect(() => reader.read(completed.replace('sub_1', 'sub_2'), sign(completed))).toThrow(InvalidWebhookError);

    const unpaid = event('checkout.session.completed', {
      id: 'cs_2',
      object: 'checkout.session',
      mode: 'subscription',
      payment_status: 'unpaid',
      subscription: 'sub_2',
    });
    expect(reader.read(unpaid, sign(unpaid))).toBeNull();
    const failed = event('invoice.payment_failed', {
      id: 'in_1',
      object: 'invoice',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
    });
    expect(reader.read(failed, sign(failed))).toEqual({ kind: 'payment_failed', providerSubscriptionId: 'sub_1' });
    const paid = event('invoice.paid', {
      id: 'in_2',
      object: 'invoice',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_1' } },
    });
    expect(reader.read(paid, sign(paid))).toEqual({ kind: 'payment_succeeded', providerSubscriptionId: 'sub_1' });
    const deleted = event('customer.subscription.deleted', { id: 'sub_1', object: 'subscription', status: 'canceled' });
    expect(reader.read(deleted, sign(deleted))).toEqual({ kind: 'subscription_ended', providerSubscriptionId: 'sub_1' });
    const pastDue = event('customer.subscription.updated', { id: 'sub_1', object: 'subscription', status: 'past_due' });
    expect(reader.read(pastDue, sign(pastDue))).toEqual({ kind: 'payment_failed', providerSubscriptionId: 'sub_1' });
    const other = event('customer.created', { id: 'cus_1', object: 'customer' });
    expect(reader.read(other, sign(other))).toBeNull();
  });
});
