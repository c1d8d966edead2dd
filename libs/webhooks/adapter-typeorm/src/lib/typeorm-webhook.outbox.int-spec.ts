import { useTestDataSource } from '@lnk/shared/testing';
import { Webhook } from '@lnk/webhooks/domain';
import { TypeormWebhookOutbox } from './typeorm-webhook.outbox';
import { TypeormWebhookRepository } from './typeorm-webhook.repository';
import { webhooksPersistence } from './webhooks.persistence';

const hex = (n: number, len = 24) => n.toString(16).padStart(len, '0');

describe('TypeormWebhookOutbox (PostgreSQL, or PGlite when no server answers)', () => {
  const db = useTestDataSource([webhooksPersistence]);
  const now = new Date('2025-01-01T00:00:00Z');

  const webhook = (id: number, ownerId: string, events: string[], linkIds: string[] | null = null) =>
    new Webhook({ id: hex(id), ownerId, url: `https://example.com/${id}`, events: events as never, linkIds, description: '', sealedSecret: 'v2.x', isActive: true, disabledReason: null, consecutiveFailures: 0, createdAt: now, updatedAt: now });

  it('fans events out to the subscribed webhooks of their owner only, once per (event, webhook)', async () => {
    const repo = new TypeormWebhookRepository(db());
    const outbox = new TypeormWebhookOutbox(db());
    const owner = hex(900);
    await repo.insertWithinLimit(webhook(1, owner, ['link.clicked']), 10);
    await repo.insertWithinLimit(webhook(2, owner, ['link.clicked'], [hex(77)]), 10);
    await repo.insertWithinLimit(webhook(3, owner, ['link.created']), 10);
    await repo.insertWithinLimit(webhook(4, hex(901), ['link.clicked']), 10);
    const event = (id: number, linkId: string) => ({ id: hex(id), type: 'link.clicked' as const, ownerId: owner, linkId, at: now, data: {} });
    // Event 1 (link 77): webhooks 1 and 2; event 2 (link 78): webhook 1 only; enqueued twice: no duplicate.
    expect(await outbox.enqueue([event(1, hex(77)), event(2, hex(78))])).toBe(3);
    expect(await outbox.enqueue([event(1, hex(77))])).toBe(0);
    const subscriptions = await outbox.subscriptions();
    expect([...(subscriptions.get('link.clicked') ?? [])].sort()).toEqual([owner, hex(901)]);
    expect([...(subscriptions.get('link.created') ?? [])]).toEqual([owner]);
    expect(subscriptions.has('link.deleted')).toBe(false);
  });

  it('gives each due delivery to one of several concurrent claims (FOR UPDATE SKIP LOCKED and the lease)', async () => {
    const outbox = new TypeormWebhookOutbox(db());
    const events = Array.from({ length: 40 }, (_, i) => ({ id: hex(1000 + i), type: 'link.clicked' as const, ownerId: hex(901), linkId: hex(5), at: now, data: {} }));
    await outbox.enqueue(events);
    const later = new Date(now.getTime() + 1000);
    const claims = await Promise.all(Array.from({ length: 4 }, () => outbox.claimDue(later, 15, 60_000)));
    const ids = claims.flat().map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBeGreaterThanOrEqual(40);
    // Leased: not due again until the lease ends.
    expect(await outbox.claimDue(later, 100, 60_000)).toEqual(expect.not.arrayContaining([expect.objectContaining({ id: ids[0] })]));
  });

  it('counts failures in a row, and a success ends the run', async () => {
    const outbox = new TypeormWebhookOutbox(db());
    const [a, b] = await outbox.claimDue(new Date(now.getTime() + 3_600_000), 2, 60_000);
    expect(await outbox.recordFailure(a, { at: now, responseStatus: 500, error: 'HTTP 500' }, new Date(now.getTime() + 1000))).toBe(1);
    await outbox.recordSuccess(b, { at: now, responseStatus: 200, error: null });
    const failures = await db().query('SELECT consecutive_failures FROM webhooks WHERE id = $1', [a.webhookId]);
    expect(failures[0].consecutive_failures).toBe(a.webhookId === b.webhookId ? 0 : 1);
  });
});
