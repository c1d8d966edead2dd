import { DataSource } from 'typeorm';
import { Link, NO_LINK_OPTIONS } from '@lnk/links/domain';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormVisitLimits } from './typeorm-visit-limits';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');

function limited(maxVisits: number | null): Link {
  const options = maxVisits === null ? undefined : { ...NO_LINK_OPTIONS, maxVisits };
  return new Link({
    id: ids.next(),
    ownerId: ids.next(),
    domainId: null,
    slug: `v${ids.next().slice(-10)}`,
    url: 'https://example.com/',
    title: '',
    description: '',
    status: true,
    passwordHash: null,
    tagIds: [],
    clicks: 0,
    createdAt: now,
    updatedAt: now,
    options,
  });
}

// maxVisits must hold exactly when several instances answer one link at once: each instance has its own
// pool, so two DataSources (two pools, several connections each) stand for two instances on one database.
describe('TypeormVisitLimits on PostgreSQL: the visit limit under concurrency', () => {
  let database: TestDatabase;
  let first: DataSource;
  let second: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    first = await openDatabase(createDataSource(database.config, [linksPersistence]));
    second = await openDatabase(createDataSource(database.config, [linksPersistence]));
  });
  afterAll(async () => {
    await first?.destroy();
    await second?.destroy();
    await database?.drop();
  });

  it('lets exactly 10 of 50 concurrent visits through two instances take a visit of a limit of 10', async () => {
    const link = limited(10);
    await new TypeormLinkRepository(first).insertWithinQuota(link, 100);
    const instances = [new TypeormVisitLimits(first), new TypeormVisitLimits(second)];
    const claimed = await Promise.all(Array.from({ length: 50 }, (_, i) => instances[i % 2].claim(link.id)));
    expect(claimed.filter((c) => c !== 'none')).toHaveLength(10);
    // Exactly one taker is told it took the last visit: the limit_reached event is told once, not once per instance.
    expect(claimed.filter((c) => c === 'last')).toHaveLength(1);
    expect(await instances[0].hasLeft(link.id)).toBe(false);
    expect((await new TypeormLinkRepository(second).findOfOwner(link.ownerId, link.id))?.options).toMatchObject({
      maxVisits: 10,
      visitsUsed: 10,
    });
  });

  it('takes nothing from a link without a limit, and answers whether visits are left without taking one', async () => {
    const plain = limited(null);
    const two = limited(2);
    const repository = new TypeormLinkRepository(first);
    await repository.insertWithinQuota(plain, 100);
    await repository.insertWithinQuota(two, 100);
    const limits = new TypeormVisitLimits(first);
    expect(await limits.claim(plain.id)).toBe('none');
    expect(await limits.hasLeft(two.id)).toBe(true);
    expect(await limits.hasLeft(two.id)).toBe(true);
    expect([await limits.claim(two.id), await limits.claim(two.id), await limits.claim(two.id)]).toEqual(['taken', 'last', 'none']);
  });

  // Raising the limit of a used-up link lets that many more through; clearing it and setting a new one starts over.
  it('keeps the visits used when the limit changes, and forgets them when it is cleared', async () => {
    const repository = new TypeormLinkRepository(first);
    const limits = new TypeormVisitLimits(first);
    const link = limited(1);
    await repository.insertWithinQuota(link, 100);
    expect(await limits.claim(link.id)).toBe('last');
    link.change({ options: { ...link.options, maxVisits: 3, visitsUsed: 1 } }, now);
    await repository.update(link);
    expect([await limits.claim(link.id), await limits.claim(link.id), await limits.claim(link.id)]).toEqual(['taken', 'last', 'none']);
    link.change({ options: { ...link.options, maxVisits: null, visitsUsed: 0 } }, now);
    await repository.update(link);
    link.change({ options: { ...link.options, maxVisits: 1, visitsUsed: 0 } }, now);
    await repository.update(link);
    expect(await limits.claim(link.id)).toBe('last');
    expect(await limits.claim(link.id)).toBe('none');
  });
});
