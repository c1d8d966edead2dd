import { Domain } from '@lnk/domains/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';
import { useTestDataSource } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';

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
  const dataSource = useTestDataSource([domainsPersistence]);
  let repo: TypeormDomainRepository;

  beforeAll(async () => {
    repo = new TypeormDomainRepository(dataSource());
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
