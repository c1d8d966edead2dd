import { Domain, DomainProps, DomainRepository } from '@lnk/domains/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';

// One behaviour for the in-memory fake and the TypeORM adapter (see links.contract.ts). Names carry a
// fresh id: the adapter's database is shared by the whole file, and verified names are unique across it.

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const later = new Date('2026-06-01T12:01:00.000Z');
const freshName = (label = 'go') => `${label}.d${ids.next().slice(-12)}.example`;

function domain(ownerId: string, name = freshName(), over: Partial<DomainProps> = {}): Domain {
  return new Domain({
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
    ...over,
  });
}

/** The DomainRepository port's behaviour; `makeRepo` is called before each test. */
export function describeDomainRepositoryContract(makeRepo: () => DomainRepository): void {
  describe('DomainRepository contract', () => {
    let repo: DomainRepository;
    beforeEach(() => (repo = makeRepo()));

    it('stores, finds, searches and deletes an owner’s domains', async () => {
      const owner = ids.next();
      const d = domain(owner, freshName('go'));
      const shop = domain(owner, freshName('shop'));
      await repo.insertWithinQuota(d, 5);
      await repo.insertWithinQuota(shop, 5);
      expect((await repo.findOfOwner(owner, d.id))?.toProps()).toEqual(d.toProps());
      expect(await repo.findOfOwner(ids.next(), d.id)).toBeNull();
      expect(await repo.findVerifiedOfOwner(owner, d.id)).toBeNull();
      expect((await repo.listOfOwner(owner, 'SHOP', PageRequest.of())).items.map((x) => x.id)).toEqual([shop.id]);
      const first = await repo.listOfOwner(owner, undefined, PageRequest.of(0, 1));
      expect(first.total).toBe(2);
      expect(first.items.map((x) => x.id)).toEqual([shop.id]);
      expect(await repo.hasOfOwner(owner, d.name)).toBe(true);
      expect(await repo.hasOfOwner(ids.next(), d.name)).toBe(false);
      await expect(repo.insertWithinQuota(domain(owner, d.name), 5)).rejects.toMatchObject({ errors: [{ name: 'name' }] });
      expect(await repo.deleteOfOwner(ids.next(), d.id)).toBe(false);
      expect(await repo.deleteOfOwner(owner, d.id)).toBe(true);
      expect(await repo.countOfOwner(owner)).toBe(1);
      await repo.deleteAllOfOwner(owner);
      expect(await repo.countOfOwner(owner)).toBe(0);
    });

    // With a by-reference fake, a use case that verified a domain and forgot markVerified still passed.
    it('keeps its own copy: a domain changed after reading is stored only by a save', async () => {
      const owner = ids.next();
      const d = domain(owner);
      await repo.insertWithinQuota(d, 5);
      const read = (await repo.findOfOwner(owner, d.id)) as Domain;
      read.markVerified(later);
      expect((await repo.findOfOwner(owner, d.id))?.isVerified).toBe(false);
      await repo.markVerified(read);
      expect((await repo.findVerifiedOfOwner(owner, d.id))?.toProps()).toMatchObject({
        isVerified: true,
        verifiedAt: later,
        checkedAt: later,
        updatedAt: later,
      });
    });

    it('lets only one account hold a name verified', async () => {
      const name = freshName('shared');
      const [a, b] = [domain(ids.next(), name), domain(ids.next(), name)];
      await repo.insertWithinQuota(a, 5);
      await repo.insertWithinQuota(b, 5);
      a.markVerified(now);
      await repo.markVerified(a);
      expect((await repo.findVerifiedByName(name))?.id).toBe(a.id);
      expect(await repo.isVerifiedByAnother(name, b.ownerId)).toBe(true);
      expect(await repo.isVerifiedByAnother(name, a.ownerId)).toBe(false);
      b.markVerified(now);
      const refused = await repo.markVerified(b).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ValidationError);
      expect(refused).toMatchObject({ errors: [{ name: 'name' }] });
      expect(await repo.findVerifiedOfOwner(b.ownerId, b.id)).toBeNull();
    });

    it('lets only one of several concurrent additions take the last slot of the quota', async () => {
      const owner = ids.next();
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => repo.insertWithinQuota(domain(owner), 1)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(QuotaExceededError);
      expect((refused?.reason as QuotaExceededError).meta).toEqual({ limit: { resource: 'domains', used: 1, limit: 1 } });
    });

    it('lists verified domains for the re-check least recently checked first, and saves a lost verification once', async () => {
      const [fresh, stale] = [domain(ids.next()), domain(ids.next())];
      for (const d of [fresh, stale]) {
        await repo.insertWithinQuota(d, 5);
        d.markVerified(now);
        await repo.markVerified(d);
      }
      fresh.markChecked(later);
      await repo.markChecked(fresh);
      const due = (await repo.listVerifiedCheckedBefore(later, 1000)).map((d) => d.id);
      expect(due).toContain(stale.id);
      expect(due).not.toContain(fresh.id);
      expect(
        (await repo.listVerifiedCheckedBefore(new Date(later.getTime() + 1), 1000))
          .map((d) => d.id)
          .filter((id) => id === fresh.id || id === stale.id),
      ).toEqual([stale.id, fresh.id]);

      stale.loseVerification('DNS has no CNAME record', later);
      expect(await repo.loseVerification(stale)).toBe(true);
      expect(await repo.loseVerification(stale)).toBe(false);
      expect((await repo.findOfOwner(stale.ownerId, stale.id))?.toProps()).toEqual({
        ...stale.toProps(),
        isVerified: false,
        verifiedAt: null,
        verificationLostAt: later,
        verificationLostReason: 'DNS has no CNAME record',
        checkedAt: later,
        updatedAt: later,
      });
      expect(await repo.findVerifiedByName(stale.name)).toBeNull();

      // Verified again: the loss is forgotten.
      stale.markVerified(later);
      await repo.markVerified(stale);
      expect((await repo.findOfOwner(stale.ownerId, stale.id))?.toProps()).toMatchObject({
        isVerified: true,
        verificationLostAt: null,
        verificationLostReason: null,
        checkedAt: later,
      });
    });
  });
}
