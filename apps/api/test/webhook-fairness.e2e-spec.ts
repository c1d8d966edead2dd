import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createAccount, TestAccount } from './support/identity';
import { startTestApp, TestApp } from './support/test-app';
import { HoldingReceiver, startHoldingReceiver, startWebhookReceiver, until, WebhookReceiver } from './support/webhook-receiver';

/** Deliveries to one webhook in flight at once, across workers (WEBHOOKS_MAX_IN_FLIGHT). */
const MAX_IN_FLIGHT = 3;
// The worker looks every 20 ms; 20 sends in flight at most (the default), at most 3 of them to one webhook.
const ENV = {
  WEBHOOKS_ALLOW_PRIVATE: 'true',
  WEBHOOKS_POLL_INTERVAL: '20',
  WEBHOOKS_RETRY_BASE_DELAY: '50',
  WEBHOOKS_BATCH_SIZE: '20',
  WEBHOOKS_MAX_IN_FLIGHT: String(MAX_IN_FLIGHT),
  SECRET_KEY: 'a'.repeat(64),
};

/**
 * Issue 27, finding 4: one tenant stalled every tenant's webhooks. Two slow receivers of one account and 90
 * links created in bulk (180 deliveries) held the worker, whose claim took the oldest due deliveries of all
 * accounts and waited for the slowest send of each batch: another account's delivery went out 81 s late.
 */
describe('webhook delivery is fair between webhooks (issue 27)', () => {
  let database: TestDatabase;
  let t: TestApp;
  let slowA: HoldingReceiver;
  let slowB: HoldingReceiver;
  let quick: WebhookReceiver;

  beforeAll(async () => {
    database = await createTestDatabase();
    t = await startTestApp({ database, env: ENV });
    [slowA, slowB, quick] = await Promise.all([startHoldingReceiver(), startHoldingReceiver(), startWebhookReceiver()]);
  });
  afterAll(async () => {
    await t?.close();
    await Promise.all([slowA?.close(), slowB?.close(), quick?.close()]);
    await database?.drop();
  });

  const hook = async (account: TestAccount, url: string) => {
    const made = await t.request('POST', '/user/webhooks', { token: account.accessToken, body: { url, events: ['link.created'] } });
    expect(made.status).toBe(200);
    return made.body.data.id as string;
  };
  const pendingOf = async (webhookIds: string[]) =>
    Number(
      (
        await t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_deliveries WHERE webhook_id = ANY ($1) AND status = 'pending'`, [
          webhookIds,
        ])
      )[0].n,
    );

  // Slowness is the test's hand, not a clock: the slow receivers answer nothing until released, so what
  // they hold is what the worker has in flight to them, and "prompt" means "while they still hold it".
  it(
    "sends another account's delivery while one account's slow receivers hold " +
      'a backlog, never more than the cap in flight to one webhook',
    async () => {
      const busy = await createAccount(t);
      const bystander = await createAccount(t);
      const busyHooks = [await hook(busy, slowA.url), await hook(busy, slowB.url)];
      await hook(bystander, quick.url);

      const links = Array.from({ length: 90 }, (_, i) => ({ url: `https://example.com/bulk-${i}` }));
      expect((await t.request('POST', '/user/link/bulk', { token: busy.accessToken, body: { links } })).status).toBe(200);
      // Both slow receivers hold deliveries (the claim takes each webhook's in turn, not one webhook's oldest).
      await until(
        () => [slowA.open(), slowB.open()],
        ([a, b]) => a > 0 && b > 0,
      );
      expect([slowA.open() > 0, slowB.open() > 0]).toEqual([true, true]);

      // The bystander's one event comes after 180 of the busy account's, all due before it.
      const created = await t.request('POST', '/user/link', {
        token: bystander.accessToken,
        body: { url: 'https://example.com/bystander' },
      });
      expect(created.status).toBe(200);
      await until(
        () => quick.got.length,
        (n) => n >= 1,
      );
      expect(quick.events().map((e) => [e.type, e.data['id']])).toEqual([['link.created', created.body.data.id]]);
      // ...sent while the slow receivers still hold what they got (no send of theirs given up on) and most
      // of their backlog waits, with no more than the cap in flight to either of them.
      expect([slowA.abandoned(), slowB.abandoned()]).toEqual([0, 0]);
      expect(slowA.got.length + slowB.got.length).toBeLessThanOrEqual(2 * MAX_IN_FLIGHT);
      expect(await pendingOf(busyHooks)).toBeGreaterThan(180 - 2 * MAX_IN_FLIGHT - 1);

      // Released, the backlog drains, every event once, still within the cap.
      slowA.release();
      slowB.release();
      await until(
        () => pendingOf(busyHooks),
        (n) => n === 0,
        60_000,
      );
      expect(await pendingOf(busyHooks)).toBe(0);
      for (const r of [slowA, slowB]) {
        expect(new Set(r.got.map((g) => g.headers['webhook-id'])).size).toBe(90);
        expect(r.maxOpen()).toBeLessThanOrEqual(MAX_IN_FLIGHT);
      }
    },
    90_000,
  );
});
