import { DataSource } from 'typeorm';
import { Domain } from '@lnk/domains/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';
import { DomainsCustomDomains1763800200000 } from './migrations/1763800200000-domains-custom-domains';
import { DomainsVerificationChallenge1763900100000 } from './migrations/1763900100000-domains-verification-challenge';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const domain = (ownerId: string, name: string) =>
  new Domain({
    id: ids.next(),
    ownerId,
    name,
    challenge: `challenge-${ids.next()}`,
    isVerified: false,
    verifiedAt: null,
    verificationLostAt: null,
    verificationLostReason: null,
    checkedAt: null,
    createdAt: now,
    updatedAt: now,
  });

describe('TypeormDomainRepository', () => {
  let database: TestDatabase;
  let dataSource: DataSource;
  let repo: TypeormDomainRepository;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, [domainsPersistence]));
    repo = new TypeormDomainRepository(dataSource);
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  it('stores, finds, searches and deletes an owner’s domains', async () => {
    const owner = ids.next();
    const d = domain(owner, 'go.example.com');
    await repo.insertWithinQuota(d, 5);
    await repo.insertWithinQuota(domain(owner, 'shop.example.org'), 5);
    expect((await repo.findOfOwner(owner, d.id))?.toProps()).toEqual(d.toProps());
    expect(await repo.findOfOwner(ids.next(), d.id)).toBeNull();
    expect(await repo.findVerifiedOfOwner(owner, d.id)).toBeNull();
    expect((await repo.listOfOwner(owner, 'EXAMPLE.ORG', PageRequest.of())).items.map((x) => x.name)).toEqual(['shop.example.org']);
    expect((await repo.listOfOwner(owner, undefined, PageRequest.of(0, 1))).total).toBe(2);
    expect(await repo.hasOfOwner(owner, 'go.example.com')).toBe(true);
    await expect(repo.insertWithinQuota(domain(owner, 'go.example.com'), 5)).rejects.toBeInstanceOf(ValidationError);
    expect(await repo.deleteOfOwner(owner, d.id)).toBe(true);
    expect(await repo.countOfOwner(owner)).toBe(1);
  });

  it('lets only one account hold a name verified', async () => {
    const [a, b] = [domain(ids.next(), 'shared.example.com'), domain(ids.next(), 'shared.example.com')];
    await repo.insertWithinQuota(a, 5);
    await repo.insertWithinQuota(b, 5);
    a.markVerified(now);
    await repo.markVerified(a);
    expect((await repo.findVerifiedByName('shared.example.com'))?.id).toBe(a.id);
    expect(await repo.isVerifiedByAnother('shared.example.com', b.ownerId)).toBe(true);
    b.markVerified(now);
    await expect(repo.markVerified(b)).rejects.toMatchObject({ errors: [{ name: 'name' }] });
  });

  it('lets only one of several concurrent additions take the last slot of the quota', async () => {
    const owner = ids.next();
    const results = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => repo.insertWithinQuota(domain(owner, `d${i}.example.com`), 1)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'rejected').every((r) => (r as PromiseRejectedResult).reason instanceof QuotaExceededError)).toBe(true);
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

  it('lists verified domains for the re-check least recently checked first, and saves a lost verification once', async () => {
    const later = new Date(now.getTime() + 60_000);
    const [fresh, stale] = [domain(ids.next(), 'fresh.recheck.example'), domain(ids.next(), 'stale.recheck.example')];
    for (const d of [fresh, stale]) {
      await repo.insertWithinQuota(d, 5);
      d.markVerified(now);
      await repo.markVerified(d);
    }
    fresh.markChecked(later);
    await repo.markChecked(fresh);
    const due = (await repo.listVerifiedCheckedBefore(later, 100)).map((d) => d.id);
    expect(due).toContain(stale.id);
    expect(due).not.toContain(fresh.id);

    stale.loseVerification('DNS has no CNAME record stale.recheck.example -> cname.lnk.test', later);
    expect(await repo.loseVerification(stale)).toBe(true);
    expect(await repo.loseVerification(stale)).toBe(false);
    const stored = (await repo.findOfOwner(stale.ownerId, stale.id))?.toProps();
    expect(stored).toMatchObject({ isVerified: false, verifiedAt: null, verificationLostAt: later, verificationLostReason: expect.stringContaining('no CNAME'), challenge: stale.challenge });
    expect(await repo.findVerifiedByName('stale.recheck.example')).toBeNull();

    // Verified again: the loss is forgotten.
    stale.markVerified(later);
    await repo.markVerified(stale);
    expect((await repo.findOfOwner(stale.ownerId, stale.id))?.toProps()).toMatchObject({ isVerified: true, verificationLostAt: null, verificationLostReason: null, checkedAt: later });
  });
});

// The counter starts from the rows that exist when the migration runs.
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
