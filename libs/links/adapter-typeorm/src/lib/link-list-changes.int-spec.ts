import { Link, LinkListChanges, Tag } from '@lnk/links/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import { useTestRepositories } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormTagRepository } from './typeorm-tag.repository';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');

function link(ownerId: string): Link {
  return new Link({
    id: ids.next(),
    ownerId,
    domainId: null,
    slug: `s${ids.next().slice(-10)}`,
    url: 'https://example.com/page',
    title: '',
    description: '',
    status: true,
    passwordHash: null,
    tagIds: [],
    clicks: 0,
    createdAt: now,
    updatedAt: now,
  });
}

/**
 * Every method of the repository, sorted by what it does to an owner's list answers. A method added to the
 * repository fails the first test until it is put here: a write must report its owner (and be tested below),
 * so that the list cache cannot miss it.
 */
const READS = [
  'findOfOwner',
  'findManyOfOwner',
  'listOfOwner',
  'listOfOwnerByExpiry',
  'listMatching',
  'batchOfOwner',
  'countOfOwner',
  'countUsingDomain',
  'idsTaggedWith',
  'findForRedirect',
];
const REPORTED_WRITES = [
  'insertWithinQuota',
  'insertManyWithinQuota',
  'update',
  'deleteOfOwner',
  'deleteManyOfOwner',
  'retagManyOfOwner',
  'deleteAllOfOwner',
];
/** Click totals change with every counted visit: a cached answer's totals are bounded by its max age instead. */
const UNREPORTED_WRITES = ['addClicks'];
/** Private steps of the writes above (each reached only through one of them). */
const HELPERS = [
  'reporting',
  'insertCounted',
  'insertRows',
  'insertRowsUnreported',
  'updateUnreported',
  'retagUnreported',
  'replaceTags',
  'insertLockingFirst',
  'usageOf',
];

function methodsOf(prototype: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    for (const name of Object.getOwnPropertyNames(p))
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(p, name)?.value === 'function') names.add(name);
  }
  return [...names].sort();
}

describe('TypeormLinkRepository reports every owner whose list answers a write may change (the list cache)', () => {
  const reported: string[] = [];
  const changes: LinkListChanges = { linksChanged: (ownerId) => reported.push(ownerId) };
  const { dataSource, repos } = useTestRepositories([linksPersistence], (ds) => ({
    links: new TypeormLinkRepository(ds, undefined, changes),
    tags: new TypeormTagRepository(ds),
  }));
  beforeEach(() => (reported.length = 0));

  it('knows each of its methods as a read, a reported write or a write whose effect is bounded otherwise', () => {
    expect(methodsOf(TypeormLinkRepository.prototype)).toEqual([...READS, ...REPORTED_WRITES, ...UNREPORTED_WRITES, ...HELPERS].sort());
  });

  it('reports the owner after each write of links, and no other owner', async () => {
    const owner = ids.next();
    const bystander = ids.next();
    await repos.links.insertWithinQuota(link(bystander), 100);
    reported.length = 0;
    const written: string[] = [];
    const expectReported = async (name: string, write: () => Promise<unknown>) => {
      reported.length = 0;
      await write();
      written.push(name);
      expect({ name, reported }).toEqual({ name, reported: [owner] });
    };
    const [a, b, c] = [link(owner), link(owner), link(owner)];
    const tag = new Tag({ id: ids.next(), ownerId: owner, name: 'news', isFavorite: false, createdAt: now, updatedAt: now });
    await repos.tags.insertWithinQuota(tag, 10);
    await expectReported('insertWithinQuota', () => repos.links.insertWithinQuota(a, 100));
    await expectReported('insertManyWithinQuota', () => repos.links.insertManyWithinQuota([b, c], 100));
    await expectReported('update', () => repos.links.update(new Link({ ...a.toProps(), title: 'changed' })));
    await expectReported('retagManyOfOwner', () => repos.links.retagManyOfOwner(owner, [a.id, b.id], [tag.id], [], 10));
    await expectReported('deleteOfOwner', () => repos.links.deleteOfOwner(owner, a.id));
    await expectReported('deleteManyOfOwner', () => repos.links.deleteManyOfOwner(owner, [b.id]));
    await expectReported('deleteAllOfOwner', () => repos.links.deleteAllOfOwner(owner));
    expect(written.sort()).toEqual([...REPORTED_WRITES].sort());
  });

  it('reports a write that failed too (a quota refusal), since it cannot tell what a lost COMMIT did', async () => {
    const owner = ids.next();
    await repos.links.insertWithinQuota(link(owner), 1);
    reported.length = 0;
    await expect(repos.links.insertWithinQuota(link(owner), 1)).rejects.toThrow();
    expect(reported).toEqual([owner]);
  });

  // Reported before the COMMIT, a list read in between would put the old answer back in the cache.
  it('reports a write inside a unit of work when the transaction ends, not before', async () => {
    const owner = ids.next();
    const seenInside: string[][] = [];
    await new TypeormUnitOfWork(dataSource()).run(async () => {
      await repos.links.insertManyWithinQuota([link(owner)], 100);
      await repos.links.insertManyWithinQuota([link(owner)], 100);
      seenInside.push([...reported]);
    });
    expect(seenInside).toEqual([[]]);
    expect(reported).toEqual([owner, owner]);
  });
});
