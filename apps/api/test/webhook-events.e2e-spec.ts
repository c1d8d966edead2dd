import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';
import { startWebhookReceiver, until, WebhookReceiver } from './support/webhook-receiver';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
// Test-speed settings: the workers look every 20 ms for deliveries and every 200 ms for expired links.
const FAST = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_POLL_INTERVAL: '20',
  WEBHOOKS_RETRY_BASE_DELAY: '50',
  WEBHOOKS_EXPIRY_SCAN_INTERVAL: '200',
  SECRET_KEY: 'a'.repeat(64),
  REDIS_URL,
};

describe('webhook events on two instances sharing PostgreSQL and Redis', () => {
  let database: TestDatabase;
  let a: TestApp;
  let b: TestApp;
  let r: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    a = await startTestApp({ database, env: FAST });
    b = await startTestApp({ database, env: FAST });
    r = await startWebhookReceiver();
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await r?.close();
    await database?.drop();
  });

  const deliveriesOf = async (ownerId: string) =>
    Number(
      (
        await a.dataSource.query(
          'SELECT count(*) AS n FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id WHERE w.owner_id = $1',
          [ownerId],
        )
      )[0].n,
    );
  const allDeliveries = async () => Number((await a.dataSource.query('SELECT count(*) AS n FROM webhook_deliveries'))[0].n);
  const hook = (app: TestApp, account: TestAccount, events: string[]) =>
    app.request('POST', '/user/webhooks', { token: account.accessToken, body: { url: r.url, events } });

  // Creation throughput (issue 15): without webhooks a link creation is the insert alone, no BEGIN/enqueue/COMMIT.
  it('creates a link of an account without webhooks with no transaction and no enqueue statement', async () => {
    const account = await createAccount(b);
    const before = await allDeliveries();
    const transactions = jest.spyOn(b.dataSource, 'transaction');
    let created;
    try {
      created = await b.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/quiet' } });
      expect(created.status).toBe(200);
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    // An update and a delete enqueue nothing either (the update's own transaction, for its tags, is as before).
    await b.request('PUT', `/user/link/${created.body.data.id}`, { token: account.accessToken, body: { title: 'changed' } });
    await b.request('DELETE', `/user/link/${created.body.data.id}`, { token: account.accessToken });
    expect(await allDeliveries()).toBe(before);
  });

  // The subscriber cache of B is exact (and says "no") for these owners before the webhook exists on A:
  // without the invalidation through Redis, B would create the link with no event for 5 s.
  it('delivers link.created for a link created on B right after its webhook was created on A', async () => {
    for (let round = 0; round < 3; round++) {
      const account = await createAccount(a);
      const warm = await b.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/before' } });
      expect(warm.status).toBe(200);
      expect(await deliveriesOf(account.id)).toBe(0);
      expect((await hook(a, account, ['link.created'])).status).toBe(200);
      const created = await b.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/after' } });
      expect(created.status).toBe(200);
      const events = await until(
        () => r.events().filter((e) => e.type === 'link.created' && e.data.id === created.body.data.id),
        (e) => e.length > 0,
      );
      expect([round, events.length]).toEqual([round, 1]);
    }
  });

  it('stops the events on B as soon as the webhook is turned off on A, and answers its test event with 400', async () => {
    const account = await createAccount(a);
    const webhook = (await hook(a, account, ['link.created'])).body.data;
    const off = await a.request('PUT', `/user/webhooks/${webhook.id}`, { token: account.accessToken, body: { isActive: false } });
    expect(off.status).toBe(200);
    const transactions = jest.spyOn(b.dataSource, 'transaction');
    try {
      await until(
        async () => {
          transactions.mockClear();
          await b.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/off' } });
          return transactions.mock.calls.length;
        },
        (n) => n === 0,
        2000,
      );
      expect(transactions).not.toHaveBeenCalled();
    } finally {
      transactions.mockRestore();
    }
    // A turned-off webhook gets no test event: said so, rather than 200 with nothing sent.
    const test = await b.request('POST', `/user/webhooks/${webhook.id}/test`, { token: account.accessToken });
    expect([test.status, test.body.code, test.body.meta?.errors?.[0]?.name]).toEqual([400, 'VALIDATION_ERROR', 'isActive']);
    expect(await deliveriesOf(account.id)).toBe(0);
    const on = await b.request('PUT', `/user/webhooks/${webhook.id}`, { token: account.accessToken, body: { isActive: true } });
    expect(on.status).toBe(200);
    expect((await a.request('POST', `/user/webhooks/${webhook.id}/test`, { token: account.accessToken })).status).toBe(200);
  });

  // The visit-limit statement tells one taker that it took the last visit, whichever instance it runs on.
  it('sends link.limit_reached exactly once when the last allowed visit is taken, visits spread over both instances', async () => {
    const account = await createAccount(a);
    expect((await hook(a, account, ['link.limit_reached'])).status).toBe(200);
    const link = (
      await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/limited', maxVisits: 5 } })
    ).body.data;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        fetch(`${(i % 2 ? a : b).baseUrl}/${link.slug}`, { redirect: 'manual', headers: asBrowser() }).then((res) => res.status),
      ),
    );
    expect(answers.filter((s) => s === 302)).toHaveLength(5);
    const events = await until(
      () => r.events().filter((e) => e.type === 'link.limit_reached' && e.data.id === link.id),
      (e) => e.length > 0,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(r.events().filter((e) => e.type === 'link.limit_reached' && e.data.id === link.id)).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id: link.id, slug: link.slug, maxVisits: 5 });
  });

  // Both instances' workers scan for expiries over overlapping windows: the event's id is derived from the expiry.
  it('sends link.expired once when a link expires, though both instances scan for it, and only to subscribed owners', async () => {
    const account = await createAccount(a);
    const bystander = await createAccount(a);
    expect((await hook(a, account, ['link.expired'])).status).toBe(200);
    expect((await hook(a, bystander, ['link.created'])).status).toBe(200);
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const link = (
      await a.request('POST', '/user/link', { token: account.accessToken, body: { url: 'https://example.com/soon', expiresAt } })
    ).body.data;
    const other = (
      await a.request('POST', '/user/link', { token: bystander.accessToken, body: { url: 'https://example.com/soon', expiresAt } })
    ).body.data;
    const events = await until(
      () => r.events().filter((e) => e.type === 'link.expired' && e.data.id === link.id),
      (e) => e.length > 0,
      10_000,
    );
    expect(events).toHaveLength(1);
    expect(events[0].data).toMatchObject({ id: link.id, slug: link.slug, expiresAt: new Date(expiresAt).toISOString() });
    // Several more scans by both instances: still one.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(r.events().filter((e) => e.type === 'link.expired' && e.data.id === link.id)).toHaveLength(1);
    expect(r.events().filter((e) => e.type === 'link.expired' && e.data.id === other.id)).toHaveLength(0);
  });
});
