import { randomBytes } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import { AddressInfo } from 'node:net';

export interface FakeCheckoutSession {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  subscription: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  expires_at: number;
  created: number;
  /** The price of the first line item, as the request sent it. */
  price: string;
}

export interface RecordedStripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  params: Record<string, string>;
}

/**
 * A loopback HTTP server answering like Stripe's API for the calls the service makes: create and
 * retrieve Checkout Sessions, cancel subscriptions. Form-encoded requests, JSON answers, Stripe's error
 * shape for unknown ids. Tests play the customer with `complete` and `expire`.
 */
export class FakeStripeApi {
  readonly sessions = new Map<string, FakeCheckoutSession>();
  readonly requests: RecordedStripeRequest[] = [];
  readonly cancelled: string[] = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<this> {
    const server = createServer((req, res) => void this.handle(req, res));
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** The customer paid: the session completes with a new subscription. */
  complete(sessionId: string): FakeCheckoutSession {
    const session = this.session(sessionId);
    Object.assign(session, { status: 'complete', payment_status: 'paid', subscription: `sub_${randomBytes(8).toString('hex')}` });
    return session;
  }

  expire(sessionId: string): void {
    Object.assign(this.session(sessionId), { status: 'expired' });
  }

  session(sessionId: string): FakeCheckoutSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`No checkout session ${sessionId} was created`);
    return session;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const url = new URL(req.url ?? '/', 'http://stripe.test');
    const params = Object.fromEntries(new URLSearchParams(req.method === 'GET' ? url.search : Buffer.concat(chunks).toString()));
    this.requests.push({ method: req.method ?? '', path: url.pathname, authorization: req.headers.authorization, params });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` });
      res.end(JSON.stringify(body));
    };
    const missing = (id: string) =>
      send(404, { error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such object: '${id}'`, param: 'id' } });
    if (!req.headers.authorization?.startsWith('Bearer sk_'))
      return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });

    if (req.method === 'POST' && url.pathname === '/v1/checkout/sessions') {
      const required = ['mode', 'success_url', 'cancel_url', 'line_items[0][price]'];
      const absent = required.find((k) => !params[k]);
      if (absent)
        return send(400, { error: { type: 'invalid_request_error', message: `Missing required param: ${absent}.`, param: absent } });
      const id = `cs_test_${randomBytes(12).toString('hex')}`;
      const now = Math.floor(Date.now() / 1000);
      const metadata = Object.fromEntries(
        Object.entries(params).flatMap(([k, v]) => (k.startsWith('metadata[') ? [[k.slice(9, -1), v]] : [])),
      );
      const session: FakeCheckoutSession = {
        id,
        object: 'checkout.session',
        mode: params['mode'],
        url: `https://checkout.stripe.test/c/pay/${id}`,
        status: 'open',
        payment_status: 'unpaid',
        subscription: null,
        client_reference_id: params['client_reference_id'] ?? null,
        metadata,
        success_url: params['success_url'],
        cancel_url: params['cancel_url'],
        expires_at: now + 86_400,
        created: now,
        price: params['line_items[0][price]'],
      };
      this.sessions.set(id, session);
      return send(200, session);
    }
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'GET' && sessionMatch) {
      const session = this.sessions.get(decodeURIComponent(sessionMatch[1]));
      return session ? send(200, session) : missing(sessionMatch[1]);
    }
    const subscriptionMatch = /^\/v1\/subscriptions\/([^/]+)$/.exec(url.pathname);
    if (req.method === 'DELETE' && subscriptionMatch) {
      const id = decodeURIComponent(subscriptionMatch[1]);
      const known = [...this.sessions.values()].some((s) => s.subscription === id);
      if (!known) return missing(id);
      this.cancelled.push(id);
      return send(200, { id, object: 'subscription', status: 'canceled' });
    }
    send(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${url.pathname})` } });
  }
}
