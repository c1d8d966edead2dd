import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, createPat, TestAccount } from './support/identity';
import { freePort, startTestApp, TestApp } from './support/test-app';
import { asBrowser } from './support/visitor';
import { Received, startWebhookReceiver, until } from './support/webhook-receiver';
import { startDnsServer } from './support/dns-server';
import { CONTEXTS, type Contexts } from '@lnk/composition';

const receiver = startWebhookReceiver;

// Test-speed settings: the worker looks every 20 ms, a retry waits 50 ms · 4^(n-1).
const FAST = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_POLL_INTERVAL: '20',
  WEBHOOKS_RETRY_BASE_DELAY: '50',
  WEBHOOKS_BATCH_SIZE: '50',
  SECRET_KEY: 'a'.repeat(64),
};

describe('Webhooks (issue 19)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let owner: TestAccount;
  let other: TestAccount;

  beforeAll(async () => {
    database = await createTestDatabase();
    // The embedded database on disk, so that the restart below finds what the first app left.
    if (database.config.kind === 'pglite')
      database = { ...database, config: { kind: 'pglite', dataDir: mkdtempSync(join(tmpdir(), 'lnk-webhooks-')) } };
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
      // The created object is the data, its secret in it (as a token's value, a client's secret).
      const { secret, ...webhook } = created.body.data;
      // whsec_ + base64 of 32 random bytes.
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(webhook).toMatchObject({
        url: r.url,
        events: ['link.created'],
        linkIds: null,
        description: 'CRM',
        isActive: true,
        disabledReason: null,
        consecutiveFailures: 0,
      });
      expect(webhook).not.toHaveProperty('webhook');
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
    const id = created.body.data.id;
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

  // The limit is taken through the owner's usage row (insertWithinQuota, as links, tags and domains): this
  // defends that parallel creations cannot pass it, and that a deleted webhook frees its slot.
  it('stops at 10 webhooks per account with 403 QUOTA_EXCEEDED, however many creations race, and a deletion frees a slot', async () => {
    const account = await createAccount(t);
    const answers = await Promise.all(
      Array.from({ length: 13 }, (_, i) =>
        createHook(account.accessToken, { url: `http://127.0.0.1:9/limit-${i}`, events: ['link.created'] }),
      ),
    );
    const created = answers.filter((a) => a.status === 200);
    expect(created).toHaveLength(10);
    for (const refused of answers.filter((a) => a.status !== 200)) {
      expect([refused.status, refused.body.code, refused.body.meta]).toEqual([
        403,
        'QUOTA_EXCEEDED',
        { limit: { resource: 'webhooks', used: 10, limit: 10 } },
      ]);
    }
    expect((await t.request('GET', '/user/webhooks', { token: account.accessToken })).body.meta.total).toBe(10);
    await t.request('DELETE', `/user/webhooks/${created[0].body.data.id}`, { token: account.accessToken });
    expect((await createHook(account.accessToken, { url: 'http://127.0.0.1:9/limit-again', events: ['link.created'] })).status).toBe(200);
    expect((await createHook(account.accessToken, { url: 'http://127.0.0.1:9/limit-over', events: ['link.created'] })).status).toBe(403);
  });

  it('refuses a token without webhooks:write (a links:read token cannot create or read webhooks)', async () => {
    const pat = await createPat(t, owner, ['links:read']);
    const answer = await createHook(pat.token, { url: 'https://example.com/hook', events: ['link.created'] });
    expect(answer.status).toBe(403);
    expect((await t.request('GET', '/user/webhooks', { token: pat.token })).status).toBe(403);
  });

  it("refuses a link filter naming another account's link, as if it did not exist", async () => {
    const link = await t.request('POST', '/user/link', { token: other.accessToken, body: { url: 'https://example.com/theirs' } });
    const answer = await createHook(owner.accessToken, {
      url: 'http://127.0.0.1:9/x',
      events: ['link.clicked'],
      linkIds: [link.body.data.id],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.meta.errors).toEqual([expect.objectContaining({ name: 'linkIds' })]);
  });

  it('refuses link-local and metadata destinations even with WEBHOOKS_ALLOW_PRIVATE, and bad events', async () => {
    for (const url of [
      'http://169.254.169.254/latest/meta-data',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
      'http://0.0.0.0/',
    ]) {
      const answer = await createHook(owner.accessToken, { url, events: ['link.created'] });
      expect([url, answer.status, answer.body.meta?.errors?.[0]?.name]).toEqual([url, 400, 'url']);
    }
    const bad = await createHook(owner.accessToken, { url: 'https://example.com/', events: ['link.exploded'] });
    expect(bad.status).toBe(400);
  });

  it('updates a webhook (turning it off), rotates its secret', async () => {
    const created = await createHook(owner.accessToken, { url: 'http://127.0.0.1:9/x', events: ['link.created'] });
    const { secret, ...webhook } = created.body.data;
    const off = await t.request('PUT', `/user/webhooks/${webhook.id}`, {
      token: owner.accessToken,
      body: { isActive: false, events: ['link.updated', 'link.deleted'] },
    });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ isActive: false, events: ['link.updated', 'link.deleted'] });
    const rotated = await t.request('POST', `/user/webhooks/${webhook.id}/rotate-secret`, { token: owner.accessToken });
    expect(rotated.status).toBe(200);
    // The same shape as the creation's: the webhook, the new secret in it.
    const { secret: rotatedSecret, ...after } = rotated.body.data;
    expect(rotatedSecret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(rotatedSecret).not.toBe(secret);
    expect(after).toMatchObject({ id: webhook.id, isActive: false, events: ['link.updated', 'link.deleted'] });
    await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
    expect((await t.request('GET', `/user/webhooks/${webhook.id}`, { token: owner.accessToken })).status).toBe(404);
  });

  /** Every body a receiver got, verified as a receiver verifies it: a forged or altered delivery throws. */
  const verified = (secret: string, got: Received[]) =>
    got.map((g) => ({
      id: g.headers['webhook-id'],
      payload: new Webhook(secret).verify(g.body, g.headers) as { type: string; timestamp: string; data: Record<string, any> },
    }));

  it(
    'sends link.created, link.updated and link.deleted, signed per ' + 'Standard Webhooks (verified with the standardwebhooks package)',
    async () => {
      const r = await receiver();
      try {
        const { secret, ...webhook } = (
          await createHook(owner.accessToken, { url: r.url, events: ['link.created', 'link.updated', 'link.deleted'] })
        ).body.data;
        const link = (
          await t.request('POST', '/user/link', {
            token: owner.accessToken,
            body: { url: 'https://example.com/a', slug: `wh-${Date.now()}` },
          })
        ).body.data;
        await t.request('PUT', `/user/link/${link.id}`, { token: owner.accessToken, body: { title: 'Renamed' } });
        await t.request('DELETE', `/user/link/${link.id}`, { token: owner.accessToken });
        // Another account's link changes are not told to this webhook.
        await t.request('POST', '/user/link', { token: other.accessToken, body: { url: 'https://example.com/other' } });
        await until(
          () => r.got.length,
          (n) => n >= 3,
        );
        await new Promise((resolve) => setTimeout(resolve, 200));
        const events = verified(secret, r.got);
        expect(events.map((e) => e.payload.type).sort()).toEqual(['link.created', 'link.deleted', 'link.updated']);
        expect(events.every((e) => e.payload.data['id'] === link.id)).toBe(true);
        expect(events.find((e) => e.payload.type === 'link.updated')?.payload.data['title']).toBe('Renamed');
        // A body altered on the way does not verify.
        expect(() => new Webhook(secret).verify(r.got[0].body.replace('link.', 'lnk.'), r.got[0].headers)).toThrow();
        // The deliveries list shows them delivered.
        const deliveries = await t.request('GET', `/user/webhooks/${webhook.id}/deliveries`, { token: owner.accessToken });
        expect(deliveries.body.data).toHaveLength(3);
        expect(deliveries.body.data.every((d: any) => d.status === 'delivered' && d.attempts === 1 && d.responseStatus === 204)).toBe(true);
        // A test event reaches it too.
        expect((await t.request('POST', `/user/webhooks/${webhook.id}/test`, { token: owner.accessToken })).status).toBe(200);
        await until(
          () => r.got.length,
          (n) => n >= 4,
        );
        expect(verified(secret, r.got.slice(3))[0].payload.type).toBe('webhook.test');
        await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
      } finally {
        await r.close();
      }
    },
  );

  it('does not enqueue a link event when the change is refused (the event shares its transaction)', async () => {
    const r = await receiver();
    try {
      const webhook = (await createHook(owner.accessToken, { url: r.url, events: ['link.created'] })).body.data;
      const slug = `taken-${Date.now()}`;
      expect(
        (await t.request('POST', '/user/link', { token: owner.accessToken, body: { url: 'https://example.com/1', slug } })).status,
      ).toBe(200);
      expect(
        (await t.request('POST', '/user/link', { token: owner.accessToken, body: { url: 'https://example.com/2', slug } })).status,
      ).toBe(400);
      await until(
        () => r.got.length,
        (n) => n >= 1,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(r.got).toHaveLength(1);
      const rows = await t.dataSource.query('SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = $1', [webhook.id]);
      expect(rows[0].n).toBe(1);
      await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
    } finally {
      await r.close();
    }
  });

  it('retries a receiver that fails 3 times, then gets the event once more with the same webhook-id', async () => {
    const r = await receiver((n) => (n <= 3 ? 500 : 200));
    try {
      const { secret, ...webhook } = (await createHook(owner.accessToken, { url: r.url, events: ['link.created'] })).body.data;
      await t.request('POST', '/user/link', { token: owner.accessToken, body: { url: 'https://example.com/retry' } });
      await until(
        () => r.got.length,
        (n) => n >= 4,
      );
      const events = verified(secret, r.got);
      expect(events).toHaveLength(4);
      expect(new Set(events.map((e) => e.id)).size).toBe(1);
      const deliveries = await until(
        async () => (await t.request('GET', `/user/webhooks/${webhook.id}/deliveries`, { token: owner.accessToken })).body.data,
        (d: any[]) => d[0]?.status === 'delivered',
      );
      expect(deliveries[0]).toMatchObject({ status: 'delivered', attempts: 4, responseStatus: 200, messageId: events[0].id });
      await t.request('DELETE', `/user/webhooks/${webhook.id}`, { token: owner.accessToken });
    } finally {
      await r.close();
    }
  });

  it('sends exactly one link.clicked per counted click, with distinct ids, and never the visitor address', async () => {
    const clicks = Number(process.env['WEBHOOK_TEST_CLICKS'] ?? 200);
    const r = await receiver();
    try {
      const link = (
        await t.request('POST', '/user/link', {
          token: owner.accessToken,
          body: { url: 'https://example.com/clicked', slug: `clk-${Date.now()}` },
        })
      ).body.data;
      const { secret } = (await createHook(owner.accessToken, { url: r.url, events: ['link.clicked'], linkIds: [link.id] })).body.data;
      for (let i = 0; i < clicks; i += 20) {
        await Promise.all(
          Array.from({ length: Math.min(20, clicks - i) }, () =>
            fetch(`${t.baseUrl}/${link.slug}`, {
              redirect: 'manual',
              headers: asBrowser({ referer: 'https://news.example.org/post' }),
            }).then((res) => res.text()),
          ),
        );
      }
      await t.app.get<Contexts>(CONTEXTS).analytics.clicks.flush();
      await until(
        () => r.got.length,
        (n) => n >= clicks,
        60_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events = verified(secret, r.got);
      expect(events).toHaveLength(clicks);
      expect(new Set(events.map((e) => e.id)).size).toBe(clicks);
      expect(events[0].payload).toMatchObject({
        type: 'link.clicked',
        data: { linkId: link.id, referrer: 'news.example.org', trigger: 'link' },
      });
      expect(r.got[0].body).not.toContain('127.0.0.1');
    } finally {
      await r.close();
    }
  }, 120_000);

  it('refuses a destination that resolves to loopback at creation when WEBHOOKS_ALLOW_PRIVATE is off, and plain http', async () => {
    const strict = await startTestApp({ database, env: { ...FAST, WEBHOOKS_ALLOW_PRIVATE: 'false', WEBHOOKS_WORKER: 'false' } });
    try {
      const account = await createAccount(strict);
      for (const url of [
        'https://localhost:8443/hook',
        'https://127.0.0.1/hook',
        'https://10.0.0.1/hook',
        'https://[::1]/hook',
        'http://example.com/hook',
      ]) {
        const answer = await strict.request('POST', '/user/webhooks', {
          token: account.accessToken,
          body: { url, events: ['link.created'] },
        });
        expect([url, answer.status, answer.body.meta?.errors?.[0]?.name]).toEqual([url, 400, 'url']);
      }
    } finally {
      await strict.close();
    }
  });

  // Issue 27, finding 9: "10.1.2.3 is an internal address" and "the host … does not resolve" told a
  // caller what the service's resolver sees (its internal DNS). One answer now, naming nothing, at creation,
  // at update and in a delivery's lastError (the connect-time check, after the name moved: DNS rebinding).
  it(
    'answers one generic error for every refused destination, naming no ' + 'address or host, at creation, update and in lastError',
    async () => {
      const dns = await startDnsServer();
      // A database of its own: the worker of the suite's app (which resolves names through the system) takes none of these deliveries.
      const own = await createTestDatabase();
      const strict = await startTestApp({ database: own, env: { ...FAST, WEBHOOKS_ALLOW_PRIVATE: 'false', DNS_SERVERS: dns.address } });
      try {
        dns.as.set('intranet.example.org', ['10.1.2.3']);
        dns.as.set('mixed.example.org', ['93.184.216.34', '10.1.2.4']);
        dns.as.set('hooks.example.org', ['93.184.216.34']);
        dns.as.set('gone.example.org', ['93.184.216.35']);
        const account = await createAccount(strict);
        const refused = [
          'https://intranet.example.org/hook',
          'https://mixed.example.org/hook',
          'https://nowhere.example.org/hook',
          'https://10.1.2.3/hook',
          'https://localhost/hook',
          'https://[::1]/hook',
          'https://169.254.169.254/latest',
        ];
        const answers = [];
        for (const url of refused)
          answers.push([
            url,
            await strict.request('POST', '/user/webhooks', { token: account.accessToken, body: { url, events: ['link.created'] } }),
          ] as const);
        // Public at creation: then changed to each refused destination.
        const made = await strict.request('POST', '/user/webhooks', {
          token: account.accessToken,
          body: { url: 'https://hooks.example.org/hook', events: ['link.created'] },
        });
        expect(made.status).toBe(200);
        for (const url of refused)
          answers.push([
            url,
            await strict.request('PUT', `/user/webhooks/${made.body.data.id}`, { token: account.accessToken, body: { url } }),
          ] as const);
        const seen = answers.map(([url, a]) => [url, a.status, a.body.code, a.body.meta?.errors]);
        expect(seen).toEqual(
          answers.map(([url]) => [url, 400, 'VALIDATION_ERROR', [{ name: 'url', error: 'url must resolve to public addresses only' }]]),
        );
        for (const [, a] of answers)
          expect(a.text).not.toMatch(/10\.1\.2\.|127\.0\.0\.1|::1|169\.254|example\.org|localhost|internal|private/);

        // The names move after creation: one to an internal address, one to nowhere. The sender refuses both at connect time.
        const gone = await strict.request('POST', '/user/webhooks', {
          token: account.accessToken,
          body: { url: 'https://gone.example.org/hook', events: ['link.created'] },
        });
        expect(gone.status).toBe(200);
        dns.as.set('hooks.example.org', ['10.1.2.3']);
        dns.as.delete('gone.example.org');
        const lastErrors = [];
        for (const id of [made.body.data.id, gone.body.data.id]) {
          expect((await strict.request('POST', `/user/webhooks/${id}/test`, { token: account.accessToken })).status).toBe(200);
          const deliveries = await until(
            async () => await strict.request('GET', `/user/webhooks/${id}/deliveries`, { token: account.accessToken }),
            (d) => d.body.data[0]?.attempts >= 1,
          );
          lastErrors.push(deliveries.body.data[0].lastError);
          expect(deliveries.text).not.toMatch(/10\.1\.2\.3|93\.184|example\.org|ENOTFOUND|not allowed|private/);
        }
        expect(lastErrors).toEqual(['url must resolve to public addresses only', 'url must resolve to public addresses only']);
      } finally {
        await strict.close();
        await own.drop();
        await dns.close();
      }
    },
  );

  it('keeps deliveries to a receiver that is down pending and retried, lists them, and loses none across a restart', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/hook`;
    const { secret, ...webhook } = (await createHook(owner.accessToken, { url, events: ['link.created'] })).body.data;
    for (let i = 0; i < 3; i++)
      await t.request('POST', '/user/link', { token: owner.accessToken, body: { url: `https://example.com/down-${i}` } });
    const pending = await until(
      async () => (await t.request('GET', `/user/webhooks/${webhook.id}/deliveries`, { token: owner.accessToken })).body.data,
      (d: any[]) => d.length === 3 && d.every((x) => x.attempts >= 2),
    );
    expect(
      pending.every((d: any) => d.status === 'pending' && d.responseStatus === null && typeof d.lastError === 'string' && d.nextAttemptAt),
    ).toBe(true);
    const ids = pending.map((d: any) => d.messageId).sort();
    // The app stops with deliveries pending; a new one on the same database takes them up.
    await t.close();
    t = await startTestApp({ database, env: FAST });
    const r = await startWebhookReceiver(() => 200, port);
    try {
      await until(
        () => r.got.length,
        (n) => n >= 3,
        30_000,
      );
      expect(
        verified(secret, r.got)
          .map((e) => e.id)
          .sort(),
      ).toEqual(ids);
    } finally {
      await r.close();
    }
  }, 60_000);

  // Clicks' events wait in compact batches (one row per click write and webhook) until a worker makes them
  // into deliveries: with no worker running they are kept, listed once expanded, and none is lost or doubled.
  it('keeps link.clicked events batched while no worker runs, and sends each once when one starts', async () => {
    const clicks = 30;
    await t.close();
    t = await startTestApp({ database, env: { ...FAST, WEBHOOKS_WORKER: 'false' } });
    const r = await receiver();
    try {
      const link = (
        await t.request('POST', '/user/link', {
          token: owner.accessToken,
          body: { url: 'https://example.com/batched', slug: `bat-${Date.now()}` },
        })
      ).body.data;
      const { secret, ...webhook } = (await createHook(owner.accessToken, { url: r.url, events: ['link.clicked'], linkIds: [link.id] }))
        .body.data;
      for (let i = 0; i < clicks; i++)
        await fetch(`${t.baseUrl}/${link.slug}`, { redirect: 'manual', headers: asBrowser() }).then((res) => res.text());
      await t.app.get<Contexts>(CONTEXTS).analytics.clicks.flush();
      const stored = await t.dataSource.query(
        'SELECT count(*)::int AS batches, coalesce(sum(events), 0)::int AS events FROM webhook_event_batches WHERE webhook_id = $1',
        [webhook.id],
      );
      expect(stored[0].events).toBe(clicks);
      expect(stored[0].batches).toBeLessThan(clicks);
      expect((await t.request('GET', `/user/webhooks/${webhook.id}/deliveries`, { token: owner.accessToken })).body.data).toEqual([]);
      await t.close();
      t = await startTestApp({ database, env: FAST });
      await until(
        () => r.got.length,
        (n) => n >= clicks,
        30_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      const events = verified(secret, r.got);
      expect(events).toHaveLength(clicks);
      expect(new Set(events.map((e) => e.id)).size).toBe(clicks);
      expect(events.every((e) => e.payload.type === 'link.clicked' && e.payload.data['linkId'] === link.id)).toBe(true);
      const listed = await t.request('GET', `/user/webhooks/${webhook.id}/deliveries?limit=100`, { token: owner.accessToken });
      expect(listed.body.data).toHaveLength(clicks);
      expect(
        (await t.dataSource.query('SELECT count(*)::int AS n FROM webhook_event_batches WHERE webhook_id = $1', [webhook.id]))[0].n,
      ).toBe(0);
    } finally {
      await r.close();
    }
  }, 60_000);
});
