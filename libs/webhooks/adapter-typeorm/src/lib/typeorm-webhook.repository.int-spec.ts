import { ObjectIdGenerator, PageRequest, QuotaExceededError } from '@lnk/shared/kernel';
import { createdInRace, testMigration, useTestRepositories } from '@lnk/shared/testing';
import { Webhook } from '@lnk/webhooks/domain';
import { Webhooks1764330000000 } from './migrations/1764330000000-webhooks';
import { WebhookEventBatches1764360000000 } from './migrations/1764360000000-webhook-event-batches';
import { TypeormWebhookRepository } from './typeorm-webhook.repository';
import { webhooksPersistence } from './webhooks.persistence';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const webhook = (ownerId: string) =>
  new Webhook({
    id: ids.next(),
    ownerId,
    url: 'https://example.com/hook',
    events: ['link.clicked'],
    linkIds: null,
    description: '',
    sealedSecret: 'v2.x',
    isActive: true,
    disabledReason: null,
    consecutiveFailures: 0,
    createdAt: now,
    updatedAt: now,
  });

// The webhook limit reads and locks the owner's row of a usage table its triggers keep (insertWithinQuota,
// as links, tags and custom domains): these defend against an account holding more webhooks than the
// limit by creating them in parallel, and against the count drifting from the rows.
describe('TypeormWebhookRepository on PostgreSQL: the webhook limit and its usage counter', () => {
  const { dataSource, repos } = useTestRepositories([webhooksPersistence], (ds) => ({ webhooks: new TypeormWebhookRepository(ds) }));
  const rowsOf = async (owner: string) =>
    Number((await dataSource().query('SELECT count(*) AS n FROM webhooks WHERE owner_id = $1', [owner]))[0].n);

  it('lets exactly the limit through when many creations race, refusing the others with QuotaExceededError', async () => {
    const owner = ids.next();
    expect(await createdInRace(30, () => repos.webhooks.insertWithinLimit(webhook(owner), 10))).toBe(10);
    expect([await rowsOf(owner), await repos.webhooks.countOfOwner(owner)]).toEqual([10, 10]);
    expect((await repos.webhooks.listOfOwner(owner, PageRequest.of(0, 5))).total).toBe(10);
    const error = await repos.webhooks.insertWithinLimit(webhook(owner), 10).catch((e: unknown) => e);
    expect((error as QuotaExceededError).meta).toEqual({ limit: { resource: 'webhooks', used: 10, limit: 10 } });
  });

  it('keeps each owner’s count exact through additions, deletions and erasure, and frees the slot a deleted webhook held', async () => {
    const [owner, other] = [ids.next(), ids.next()];
    const [a, b] = [webhook(owner), webhook(owner)];
    await repos.webhooks.insertWithinLimit(a, 2);
    await repos.webhooks.insertWithinLimit(b, 2);
    await repos.webhooks.insertWithinLimit(webhook(other), 2);
    await expect(repos.webhooks.insertWithinLimit(webhook(owner), 2)).rejects.toBeInstanceOf(QuotaExceededError);
    expect(await repos.webhooks.deleteOfOwner(other, a.id)).toBe(false);
    expect(await repos.webhooks.deleteOfOwner(owner, a.id)).toBe(true);
    await expect(repos.webhooks.insertWithinLimit(webhook(owner), 2)).resolves.toBeUndefined();
    expect(await repos.webhooks.countOfOwner(owner)).toBe(2);
    await repos.webhooks.deleteAllOfOwner(owner);
    expect([await repos.webhooks.countOfOwner(owner), await rowsOf(owner), await repos.webhooks.countOfOwner(other)]).toEqual([0, 0, 1]);
  });
});

describe('webhooks usage counter migration', () => {
  it('fills each owner’s webhook count from the existing rows', async () => {
    const owner = ids.next();
    await testMigration({
      before: [{ migrations: [Webhooks1764330000000, WebhookEventBatches1764360000000] }],
      seed: async (before) => {
        await before.query(
          `INSERT INTO webhooks (id, owner_id, url, events, sealed_secret, created_at, updated_at)
           SELECT lpad(to_hex(g), 24, '0'), $1, 'https://example.com/' || g, '{link.clicked}', 'v2.x', now(), now()
             FROM generate_series(1, 3) AS g`,
          [owner],
        );
      },
      after: [webhooksPersistence],
      check: async (after) => {
        expect(await new TypeormWebhookRepository(after).countOfOwner(owner)).toBe(3);
      },
    });
  });
});
