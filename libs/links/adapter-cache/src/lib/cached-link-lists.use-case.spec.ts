import { Clock, PageRequest } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories } from '@lnk/links/testing';
import { Link, LinkDomains, ListLinksUseCase, RepositoryLinkLists } from '@lnk/links/domain';
import { CachedLinkLists } from './cached-link-lists';

const OWNER = 'a'.repeat(24);
const now = new Date('2026-02-03T04:05:06.007Z');
const clock: Clock = clockReading(() => now);
const domains: LinkDomains = { verifiedDomainOf: async () => null, namesOf: async () => new Map(), verifiedDomainByName: async () => null };

function setUp() {
  const { links } = memoryLinksRepositories();
  const reads = { count: 0 };
  const counted = new Proxy(links, {
    get(target, name, receiver) {
      if (name === 'listOfOwner' || name === 'listOfOwnerByExpiry') reads.count++;
      return Reflect.get(target, name, receiver);
    },
  });
  const link = new Link({
    id: '1'.padStart(24, '0'),
    ownerId: OWNER,
    domainId: null,
    slug: 'launch',
    url: 'https://example.com/',
    title: 'Launch',
    description: '',
    status: true,
    passwordHash: null,
    tagIds: [],
    clicks: 0,
    createdAt: now,
    updatedAt: now,
  });
  const cache = new CachedLinkLists(
    new RepositoryLinkLists(counted, domains, clock),
    { maxEntries: 100, maxBytes: 1_000_000, maxAgeMs: 60_000 },
    undefined,
    () => now.getTime(),
  );
  return { links, cache, reads, link, list: new ListLinksUseCase(cache) };
}

/** Lists as the apps compose them: the use case over the cached reads of the repository. */
describe('ListLinksUseCase over CachedLinkLists', () => {
  it('answers a repeated request from the cache, and reads again once the owner is reported changed', async () => {
    const { list, reads, cache, links, link } = setUp();
    await links.insertWithinQuota(link, 10);
    const first = await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(await list.execute(OWNER, undefined, PageRequest.of(0, 20))).toBe(first);
    expect(reads.count).toBe(1);
    cache.linksChanged(OWNER);
    await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(reads.count).toBe(2);
  });

  // The search is case-insensitive and trimmed: "  LAUNCH " and "launch" are one answer, one entry.
  it('keys a search by its normalised text, and a page by start and limit', async () => {
    const { list, reads } = setUp();
    const first = await list.execute(OWNER, '  LAUNCH ', PageRequest.of(0, 20));
    expect(await list.execute(OWNER, 'launch', PageRequest.of(0, 20))).toBe(first);
    expect(reads.count).toBe(1);
    await list.execute(OWNER, 'launch', PageRequest.of(20, 20));
    await list.execute(OWNER, 'launch', PageRequest.of(0, 10));
    await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(reads.count).toBe(4);
  });

  // expired=true|false depends on the clock (a link expires at its time without any write): never kept.
  it('reads an expiry-filtered list every time', async () => {
    const { list, reads } = setUp();
    await list.execute(OWNER, undefined, PageRequest.of(0, 20), { expired: true });
    await list.execute(OWNER, undefined, PageRequest.of(0, 20), { expired: true });
    expect(reads.count).toBe(2);
  });

  it('shares a frozen answer: a caller cannot change what others are answered', async () => {
    const { list, links, link } = setUp();
    await links.insertWithinQuota(link, 10);
    const answer = await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(Object.isFrozen(answer) && Object.isFrozen(answer.page) && Object.isFrozen(answer.page.items)).toBe(true);
  });
});
