import { Domain } from '@lnk/domains/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError } from '@lnk/shared/kernel';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, useTestDataSource } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';
import { DomainsCustomDomains1763800200000 } from './migrations/1763800200000-domains-custom-domains';
import { DomainsVerificationChallenge1763900100000 } from './migrations/1763900100000-domains-verification-challenge';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const domain = (ownerId: string, name: string) => Domain.add({ id: ids.next(), ownerId, name, challenge: `challenge-${ids.next()}`, now });

// What the shared contract (libs/shared/testing contracts) cannot see: the per-owner counter the
// database's triggers keep, and the migration that fills it.
describe('TypeormDomainRepository on PostgreSQL: the usage counter', () => {
  const dataSource = useTestDataSource([domainsPersistence]);
  let repo: TypeormDomainRepository;

  beforeAll(() => {
    repo = new TypeormDomainRepository(dataSource());
  });

  // The quota and the unfiltered total read a per-owner counter that triggers keep: it must follow
  // deletions and an erasure, and free the slot a deleted domain held.
  it('keeps each owner’s domain count exact through additions, deletions and erasure', async () => {
    const owner = ids.next();
    const [a, b] = [domain(owner, 'a.example.com'), domain(owner, 'b.example.com')];
    await repo.insertWithinQuota(a, 2);
    await repo.insertWithinQuota(b, 2);
    await repo.insertWithinQuota(domain(ids.next(), 'a.example.com'), 2);
    await expect(repo.insertWithinQuota(domain(owner, 'c.example.com'), 2)).rejects.toBeInstanceOf(QuotaExceededError);
    await repo.deleteOfOwner(owner, a.id);
    await expect(repo.insertWithinQuota(domain(owner, 'c.example.com'), 2)).resolves.toBeUndefined();
    expect([await repo.countOfOwner(owner), (await repo.listOfOwner(owner, undefined, PageRequest.of())).total]).toEqual([2, 2]);
    await repo.deleteAllOfOwner(owner);
    expect(await repo.countOfOwner(owner)).toBe(0);
  });
});

describe('domains usage counter migration', () => {
  it('fills each owner’s domain count from the existing rows', async () => {
    const database = await createTestDatabase();
    const owner = ids.next();
    try {
      const before = await openDatabase(createDataSource(database.config, [{ migrations: [DomainsCustomDomains1763800200000, DomainsVerificationChallenge1763900100000] }]));
      await before.query(
        `INSERT INTO custom_domains (id, owner_id, name, challenge, created_at, updated_at)
         SELECT lpad(to_hex(g), 24, '0'), $1, 'd' || g || '.example.com', 'c', now(), now() FROM generate_series(1, 3) AS g`,
        [owner],
      );
      await before.destroy();
      const after = await openDatabase(createDataSource(database.config, [domainsPersistence]));
      try {
        expect(await new TypeormDomainRepository(after).countOfOwner(owner)).toBe(3);
      } finally {
        await after.destroy();
      }
    } finally {
      await database.drop();
    }
  });
});
