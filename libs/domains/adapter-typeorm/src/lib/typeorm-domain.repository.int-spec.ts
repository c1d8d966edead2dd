import { Domain } from '@lnk/domains/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError } from '@lnk/shared/kernel';
import { testMigration, useTestRepositories } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';
import { DomainsCustomDomains1763800200000 } from './migrations/1763800200000-domains-custom-domains';
import { DomainsVerificationChallenge1763900100000 } from './migrations/1763900100000-domains-verification-challenge';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const domain = (ownerId: string, name: string) => Domain.add({ id: ids.next(), ownerId, name, challenge: `challenge-${ids.next()}`, now });

// What the repository contract (libs/domains/testing) cannot see: the per-owner counter the
// database's triggers keep, and the migration that fills it.
describe('TypeormDomainRepository on PostgreSQL: the usage counter', () => {
  const { repos } = useTestRepositories([domainsPersistence], (ds) => ({ domains: new TypeormDomainRepository(ds) }));

  // The quota and the unfiltered total read a per-owner counter that triggers keep: it must follow
  // deletions and an erasure, and free the slot a deleted domain held.
  it('keeps each owner’s domain count exact through additions, deletions and erasure', async () => {
    const owner = ids.next();
    const [a, b] = [domain(owner, 'a.example.com'), domain(owner, 'b.example.com')];
    await repos.domains.insertWithinQuota(a, 2);
    await repos.domains.insertWithinQuota(b, 2);
    await repos.domains.insertWithinQuota(domain(ids.next(), 'a.example.com'), 2);
    await expect(repos.domains.insertWithinQuota(domain(owner, 'c.example.com'), 2)).rejects.toBeInstanceOf(QuotaExceededError);
    await repos.domains.deleteOfOwner(owner, a.id);
    await expect(repos.domains.insertWithinQuota(domain(owner, 'c.example.com'), 2)).resolves.toBeUndefined();
    expect([await repos.domains.countOfOwner(owner), (await repos.domains.listOfOwner(owner, undefined, PageRequest.of())).total]).toEqual([
      2, 2,
    ]);
    await repos.domains.deleteAllOfOwner(owner);
    expect(await repos.domains.countOfOwner(owner)).toBe(0);
  });
});

describe('domains usage counter migration', () => {
  it('fills each owner’s domain count from the existing rows', async () => {
    const owner = ids.next();
    await testMigration({
      before: [{ migrations: [DomainsCustomDomains1763800200000, DomainsVerificationChallenge1763900100000] }],
      seed: async (before) => {
        await before.query(
          `INSERT INTO custom_domains (id, owner_id, name, challenge, created_at, updated_at)
           SELECT lpad(to_hex(g), 24, '0'), $1, 'd' || g || '.example.com', 'c', now(), now() FROM generate_series(1, 3) AS g`,
          [owner],
        );
      },
      after: [domainsPersistence],
      check: async (after) => {
        expect(await new TypeormDomainRepository(after).countOfOwner(owner)).toBe(3);
      },
    });
  });
});
