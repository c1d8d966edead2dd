import { createServer, IncomingMessage, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, createPat, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';
import { ANALYTICS } from '../src/composition/contexts.module';
import type { Analytics } from '../src/composition/contexts.composition';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback: answers each request with what `answer` says (by the count so far), keeps what it got. */
async function receiver(answer: (n: number) => number = () => 204): Promise<{ url: string; got: Received[]; close(): Promise<void> }> {
  const got: Received[] = [];
  const server: Server = createServer((req: IncomingMessage, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
      res.statusCode = answer(got.length);
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/hook`, got, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

async function until<T>(what: () => T | Promise<T>, ok: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await what();
    if (ok(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Test-speed settings: the worker looks every 20 ms, a retry waits 50 ms · 4^(n-1).
const FAST = { WEBHOOKS_ALLOW_PRIVATE: 'true', WEBHOOKS_POLL_INTERVAL: '20', WEBHOOKS_RETRY_BASE_DELAY: '50', WEBHOOKS_BATCH_SIZE: '50', SECRET_KEY: 'a'.repeat(64) };

describe('Webhooks (issue 19)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startTestApp({ database, env: FAST });
    owner = await createAccount(t);
    other = await createAccount(t);
  });
  afterAll(async () => {
    await t?.close();
    await database?.drop();
  });

  const createHook = (token: string, body: Record<string, unknown>) => t.request('POST', '/user/webhooks', { token, body });

  it('creates a webhook and shows its secret only in the creation answer; the secret is stored sealed', async () => {
    const r = await receiver();
    try {
      const created = await createHook(owner.accessToken, { url: r.url, events: ['link.created'], description: 'CRM' });
      expect(created.status).toBe(200);
      const { webhook, secret } = created.body.data;
      // whsec_ + base64 of 32 random bytes.
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(webhook).toMatchObject({ url: r.url, events: ['link.created'], linkIds: null, description: 'CRM', isActive: true, disabledReason: null });
      const shown = await t.request('GET', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
      expect(shown.status).toBe(200);
      expect(shown.text).not.toContain(secret);
      const listed = await t.request('GET', '/user/webhooks', { token: owner.accessToken });
      expect(listed.body.data.map((w: { id: string }) => w.id)).toContain(webhook.id);
      expect(listed.text).not.toContain(secret.slice(6));
      // A stolen database does not give the signing secret away.
      const rows = await t.dataSource.query('SELECT sealed_secret FROM webhooks WHERE id = $1', [webhook.id]);
      expect(rows[0].sealed_secret).not.toContain(secret.slice(6));
      expect(rows[0].sealed_secret).toMatch(/^v2\./);
      await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
    } finally {
      await r.close();
    }
  });

  it("answers another account's webhook as 404 on every route (no probing of ids)", async () => {
    const created = await createHook(owner.accessToken, { url: 'http://127.0.0.1:9/x', events: ['link.created'] });
    const id = created.body.data.webhook.id;
    for (const [method, path, body] of [
      ['GET', `/user/webhooks/${id}`],
      ['PUT', `/user/webhooks/${id}`, { isActive: false }],
      ['DELETE', `/user/webhooks/${id}`],
      ['POST', `/user/webhooks/${id}/rotate-secret`],
      ['POST', `/user/webhooks/${id}/test`],
      ['GET', `/user/webhooks/${id}/deliveries`],
    ] as const) {
      const answer = await t.request(method, path, { token: other.accessToken, ...(body ? { body } : {}) });
      expect([method, path, answer.status, answer.body.code]).toEqual([method, path, 404, 'NOT_FOUND']);
    }
    expect((await t.request('GET', `/user/webhooks/${id}`, { token: owner.accessToken })).status).toBe(200);
    await t.request('DELETE', `/user/webhooks/${id}`, { token: owner.accessToken });
  });

  it('refuses a token without webhooks:write (a links:read token cannot create or read webhooks)', async () => {
    const pat = await createPat(t, owner, ['links:read']);
    const answer = await createHook(pat.token, { url: 'https://example.com/hook', events: ['link.created'] });
    expect(answer.status).toBe(403);
    expect((await t.request('GET', '/user/webhooks', { token: pat.token })).status).toBe(403);
  });

  it("refuses a link filter naming another account's link, as if it did not exist", async () => {
    const link = await t.request('POST', '/user/link', { token: other.accessToken, body: { url: 'https://example.com/theirs' } });
    const answer = await createHook(owner.accessToken, { url: 'http://127.0.0.1:9/x', events: ['link.clicked'], linkIds: [link.body.data.id] });
    expect(answer.status).toBe(400);
    expect(answer.body.meta.errors).toEqual([expect.objectContaining({ name: 'linkIds' })]);
  });

  it('refuses link-local and metadata destinations even with WEBHOOKS_ALLOW_PRIVATE, and bad events', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://[fd00:ec2::254]/', 'http://[::ffff:169.254.169.254]/', 'http://0.0.0.0/']) {
      const answer = await createHook(owner.accessToken, { url, events: ['link.created'] });
      expect([url, answer.status, answer.body.meta?.errors?.[0]?.name]).toEqual([url, 400, 'url']);
    }
    const bad = await createHook(owner.accessToken, { url: 'https://example.com/', events: ['link.exploded'] });
    expect(bad.status).toBe(400);
  });

  it('updates a webhook (turning it off), rotates its secret', async () => {
    const created = await createHook(owner.accessToken, { url: 'http://127.0.0.1:9/x', events: ['link.created'] });
    const { webhook, secret } = created.body.data;
    const off = await t.request('PUT', `/user/webhooks/${webhook.id}`, { token: owner.accessToken, body: { isActive: false, events: ['link.updated', 'link.deleted'] } });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ isActive: false, events: ['link.updated', 'link.deleted'] });
    const rotated = await t.request('POST', `/user/webhooks/${webhook.id}/rotate-secret`, { token: owner.accessToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.secret).not.toBe(secret);
    await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
    expect((await t.request('GET', `/user/webhooks/${webhook.id}`, { token: owner.accessToken })).status).toBe(404);
  });
});
