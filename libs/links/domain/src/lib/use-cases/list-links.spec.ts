import { Clock, PageRequest } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories } from '@lnk/links/testing';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { LinkListCache } from '../services/link-list-cache';
import { LinkListAnswer, ListLinksUseCase, weighLinkListAnswer } from './list-links.use-case';

const OWNER = 'a'.repeat(24);
const now = new Date('2026-02-03T04:05:06.007Z');
const clock: Clock = clockReading(() => now);
const domains: LinkDomains = { verifiedDomainOf: async () => null, namesOf: async () => new Map(), verifiedDomainByName: async () => null };

function setUp() {
  const { links } = memoryLinksRepositories();
  const cache = new LinkListCache<LinkListAnswer>({ maxEntries: 100, maxBytes: 1_000_000, maxAgeMs: 60_000 }, weighLinkListAnswer, () => now.getTime());
  const reads = { count: 0 };
  const counted = new Proxy(links, {
    get(target, name, receiver) {
      if (name === 'listOfOwner' || name === 'listOfOwnerByExpiry') reads.count++;
      return Reflect.get(target, name, receiver);
    },
  });
  const link = new Link({
    id: '1'.padStart(24, '0'), ownerId: OWNER, domainId: null, slug: 'launch', url: 'https://example.com/', title: 'Launch', description: '', status: true, passwordHash: null,
    tagIds: [], clicks: 0, createdAt: now, updatedAt: now,
  });
  return { links, cache, reads, link, list: new ListLinksUseCase(counted, domains, clock, cache) };
}

describe('ListLinksUseCase with its cache', () => {
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

  // Issue 31: an answer of one sort, tag or favourites filter is never given for another (the key holds each).
  it('keys an answer by its sort, tag and favourites filter, newest spelt out being the default', async () => {
    const { list, reads, links, link } = setUp();
    await links.insertWithinQuota(new Link({ ...link.toProps(), isFavorite: true, tagIds: ['t'.repeat(24)] }), 10);
    const plain = await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(await list.execute(OWNER, undefined, PageRequest.of(0, 20), { sort: 'newest' })).toBe(plain);
    const views = [{ sort: 'oldest' }, { sort: 'title' }, { tagId: 't'.repeat(24) }, { tagId: 'u'.repeat(24) }, { favorite: true }] as const;
    const answers = [];
    for (const view of views) answers.push(await list.execute(OWNER, undefined, PageRequest.of(0, 20), view));
    expect(reads.count).toBe(1 + views.length);
    expect(answers[3].page.items).toEqual([]);
    expect(answers[4].page.items.map((l) => l.id)).toEqual([link.id]);
    // Each is kept under its own key: asked again, none is read.
    for (const [i, view] of views.entries()) expect(await list.execute(OWNER, undefined, PageRequest.of(0, 20), view)).toBe(answers[i]);
    expect(reads.count).toBe(1 + views.length);
  });

  it('shares a frozen answer: a caller cannot change what others are answered', async () => {
    const { list, links, link } = setUp();
    await links.insertWithinQuota(link, 10);
    const answer = await list.execute(OWNER, undefined, PageRequest.of(0, 20));
    expect(Object.isFrozen(answer) && Object.isFrozen(answer.page) && Object.isFrozen(answer.page.items)).toBe(true);
  });
});
