import { Link, LinkListView, LinkOptions, LinkProps, LinkRepository, NO_LINK_OPTIONS, Tag, TagRepository } from '@lnk/links/domain';
import { ObjectIdGenerator, PageRequest, QuotaExceededError, ValidationError } from '@lnk/shared/kernel';

// One behaviour for the in-memory fakes and the TypeORM adapters: each spec below runs against both
// (the fake in the links domain's unit tests, the adapter against PostgreSQL), so the fake cannot drift.
// Every test uses fresh owners and slugs: the adapter's database is shared by the whole file.

export interface LinksRepositories {
  links: LinkRepository;
  tags: TagRepository;
}

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');
const later = new Date('2026-06-02T08:30:00.000Z');
const freshSlug = () => `s${ids.next().slice(-12)}`;

function link(ownerId: string, over: Partial<LinkProps> = {}): Link {
  return new Link({
    id: ids.next(),
    ownerId,
    domainId: null,
    slug: freshSlug(),
    url: 'https://example.com/page',
    title: '',
    description: '',
    status: true,
    passwordHash: null,
    tagIds: [],
    clicks: 0,
    createdAt: now,
    updatedAt: now,
    ...over,
  });
}

function tag(ownerId: string, name: string, isFavorite = false): Tag {
  return new Tag({ id: ids.next(), ownerId, name, isFavorite, createdAt: now, updatedAt: now });
}

/** The ids of every page of the owner's list in `view`, walked by keyset (pages of two) from an offset first page. */
async function walk(ownerId: string, view: LinkListView, query?: string): Promise<string[]> {
  let page = await links.listOfOwner(ownerId, query, PageRequest.of(0, 2), view);
  const seen = page.items.map((l) => l.id);
  while (page.next) {
    page = await links.listOfOwner(ownerId, query, PageRequest.after(page.next, seen.length, 2), view);
    seen.push(...page.items.map((l) => l.id));
  }
  return seen;
}

const fieldOf = (error: unknown) => (error instanceof ValidationError ? error.errors[0]?.name : undefined);

// The repositories of the test running now, made afresh before each test of either contract.
let links: LinkRepository;
let tags: TagRepository;

function describeAgainst(name: string, makeRepos: () => LinksRepositories, tests: () => void): void {
  describe(name, () => {
    beforeEach(() => ({ links, tags } = makeRepos()));
    tests();
  });
}

/** The LinkRepository port's behaviour; `makeRepos` is called before each test. */
export function describeLinkRepositoryContract(makeRepos: () => LinksRepositories): void {
  describeAgainst('LinkRepository contract', makeRepos, () => {
    it('reads back what it stored, only for the owner', async () => {
      const owner = ids.next();
      const t1 = tag(owner, 'news');
      await tags.insertWithinQuota(t1, 10);
      const l = link(owner, { title: 'Docs', tagIds: [t1.id], passwordHash: '$2b$04$x', domainId: ids.next() });
      await links.insertWithinQuota(l, 10);
      expect((await links.findOfOwner(owner, l.id))?.toProps()).toEqual(l.toProps());
      expect(await links.findOfOwner(ids.next(), l.id)).toBeNull();
    });

    // Bulk events and webhook link filters read many ids at once: another account's link is never among them.
    it("reads many of the owner's links at once, by id, leaving out unknown and other accounts' ids", async () => {
      const owner = ids.next();
      const other = ids.next();
      const [a, b] = [link(owner), link(owner)];
      const theirs = link(other);
      for (const l of [a, b, theirs]) await links.insertWithinQuota(l, 10);
      const read = await links.findManyOfOwner(owner, [b.id, theirs.id, ids.next(), a.id, b.id]);
      expect(read.map((l) => l.toProps())).toEqual([a, b].sort((x, y) => x.id.localeCompare(y.id)).map((l) => l.toProps()));
      expect(await links.findManyOfOwner(owner, [])).toEqual([]);
    });

    // The by-reference fakes let a use case change a link and "save" it without calling update.
    it('keeps its own copy: a link changed after reading is stored only by update', async () => {
      const owner = ids.next();
      const l = link(owner, { title: 'before' });
      await links.insertWithinQuota(l, 10);
      l.change({ title: 'changed, not saved' }, later);
      const read = await links.findOfOwner(owner, l.id);
      expect(read?.title).toBe('before');
      read?.change({ title: 'changed after reading' }, later);
      expect((await links.findOfOwner(owner, l.id))?.title).toBe('before');
      if (read) await links.update(read);
      expect((await links.findOfOwner(owner, l.id))?.toProps()).toMatchObject({ title: 'changed after reading', updatedAt: later });
    });

    it('keeps one slug namespace per domain, case-sensitively', async () => {
      const owner = ids.next();
      const slug = freshSlug();
      await links.insertWithinQuota(link(owner, { slug }), 100);
      const refused = await links.insertWithinQuota(link(ids.next(), { slug }), 100).catch((e: unknown) => e);
      expect(fieldOf(refused)).toBe('slug');
      await expect(links.insertWithinQuota(link(owner, { slug, domainId: ids.next() }), 100)).resolves.toBeUndefined();
      await expect(links.insertWithinQuota(link(owner, { slug: slug.toUpperCase() }), 100)).resolves.toBeUndefined();
    });

    it('lets only one of several concurrent creations take the last free slot of a quota', async () => {
      const owner = ids.next();
      await links.insertWithinQuota(link(owner), 2);
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => links.insertWithinQuota(link(owner), 2)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const refused = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(refused?.reason).toBeInstanceOf(QuotaExceededError);
      expect((refused?.reason as QuotaExceededError).meta).toEqual({ limit: { resource: 'links', used: 2, limit: 2 } });
      expect(await links.countOfOwner(owner)).toBe(2);
    });

    it('searches title, slug and url case-insensitively and literally, newest first, with paging', async () => {
      const owner = ids.next();
      const a = link(owner, { title: 'Summer SALE' });
      const b = link(owner, { slug: `sale-${freshSlug()}`, url: 'https://shop.example.com/x' });
      const c = link(owner, { url: 'https://example.com/?q=Sale%25' });
      for (const l of [a, b, c, link(owner, { title: 'other' })]) await links.insertWithinQuota(l, 100);
      const page = await links.listOfOwner(owner, 'sale', PageRequest.of(0, 10));
      expect(page.total).toBe(3);
      expect(page.items.map((l) => l.id)).toEqual([c.id, b.id, a.id]);
      expect((await links.listOfOwner(owner, 'sale%', PageRequest.of())).items.map((l) => l.id)).toEqual([c.id]);
      const second = await links.listOfOwner(owner, undefined, PageRequest.of(1, 2));
      expect(second).toMatchObject({ total: 4, start: 1, limit: 2 });
      expect(second.items.map((l) => l.id)).toEqual([c.id, b.id]);
    });

    // Issue 31's list: every filter and sort answers the same rows by offset and by keyset, and a tag of
    // another account's never reaches its links (nor finds any of the caller's).
    it('filters by tag and favourite and sorts newest, oldest or by title (ties by id), by offset and by keyset alike', async () => {
      const owner = ids.next();
      const other = ids.next();
      const mine = tag(owner, 'news');
      const theirs = tag(other, 'news');
      for (const t of [mine, theirs]) await tags.insertWithinQuota(t, 10);
      const made = ['banana', 'Apple', 'cherry', 'apple', ''].map((title, i) =>
        link(owner, { title, tagIds: i % 2 === 0 ? [mine.id] : [], isFavorite: i < 2 }),
      );
      for (const l of made) await links.insertWithinQuota(l, 100);
      await links.insertWithinQuota(link(other, { title: 'apple', tagIds: [theirs.id], isFavorite: true }), 100);
      const idsOf = (...at: number[]) => at.map((i) => made[i].id);
      expect(await walk(owner, {})).toEqual(idsOf(4, 3, 2, 1, 0));
      expect(await walk(owner, { sort: 'oldest' })).toEqual(idsOf(0, 1, 2, 3, 4));
      expect(await walk(owner, { sort: 'title' })).toEqual(idsOf(4, 1, 3, 0, 2));
      expect(await walk(owner, { sort: 'title' }, 'APPLE')).toEqual(idsOf(1, 3));
      expect(await walk(owner, { tagId: mine.id })).toEqual(idsOf(4, 2, 0));
      expect(await walk(owner, { tagId: mine.id, sort: 'oldest' })).toEqual(idsOf(0, 2, 4));
      expect(await walk(owner, { tagId: mine.id, sort: 'title' })).toEqual(idsOf(4, 0, 2));
      expect(await walk(owner, { favorite: true, sort: 'oldest' })).toEqual(idsOf(0, 1));
      expect(await walk(owner, { favorite: true, tagId: mine.id })).toEqual(idsOf(0));
      expect(await walk(owner, { tagId: theirs.id })).toEqual([]);
      const offset = await links.listOfOwner(owner, undefined, PageRequest.of(1, 2), { sort: 'title' });
      expect({ total: offset.total, ids: offset.items.map((l) => l.id) }).toEqual({ total: 5, ids: idsOf(1, 3) });
      expect((await links.listOfOwner(owner, undefined, PageRequest.of(0, 1), { tagId: mine.id })).total).toBe(3);
      expect((await links.findOfOwner(owner, made[0].id))?.isFavorite).toBe(true);
    });

    it('updates a link and its tags, refusing a slug taken on the domain, and keeps its clicks', async () => {
      const owner = ids.next();
      const [t1, t2] = [tag(owner, 'a'), tag(owner, 'b')];
      await tags.insertWithinQuota(t1, 10);
      await tags.insertWithinQuota(t2, 10);
      const l = link(owner, { tagIds: [t1.id] });
      const other = link(owner);
      await links.insertWithinQuota(l, 10);
      await links.insertWithinQuota(other, 10);
      await links.addClicks(new Map([[l.id, 2]]));
      l.change({ title: 'New', tagIds: [t2.id], status: false }, later);
      await links.update(l);
      expect((await links.findOfOwner(owner, l.id))?.toProps()).toMatchObject({
        title: 'New',
        tagIds: [t2.id],
        status: false,
        clicks: 2,
        createdAt: now,
        updatedAt: later,
      });
      l.change({ slug: other.slug }, later);
      expect(fieldOf(await links.update(l).catch((e: unknown) => e))).toBe('slug');
      expect((await links.findOfOwner(owner, l.id))?.slug).not.toBe(other.slug);
    });

    it('lists the ids of the owner’s links that carry a tag, in id order', async () => {
      const owner = ids.next();
      const [t1, t2] = [tag(owner, 'a'), tag(owner, 'b')];
      await tags.insertWithinQuota(t1, 10);
      await tags.insertWithinQuota(t2, 10);
      const [first, second, untagged] = [
        link(owner, { tagIds: [t1.id, t2.id] }),
        link(owner, { tagIds: [t1.id] }),
        link(owner, { tagIds: [t2.id] }),
      ];
      for (const l of [first, second, untagged]) await links.insertWithinQuota(l, 10);
      expect(await links.idsTaggedWith(owner, t1.id)).toEqual([first.id, second.id]);
      expect(await links.idsTaggedWith(ids.next(), t1.id)).toEqual([]);
    });

    it('does not save a link under another owner', async () => {
      const owner = ids.next();
      const l = link(owner, { title: 'mine' });
      await links.insertWithinQuota(l, 10);
      const forged = new Link({ ...l.toProps(), ownerId: ids.next(), title: 'forged' });
      await links.update(forged);
      expect((await links.findOfOwner(owner, l.id))?.title).toBe('mine');
    });

    it('deletes only the owner’s link, and with it its tag and click rows', async () => {
      const owner = ids.next();
      const t = tag(owner, 'kept');
      await tags.insertWithinQuota(t, 10);
      const l = link(owner, { tagIds: [t.id] });
      await links.insertWithinQuota(l, 10);
      expect((await tags.findOfOwner(owner, t.id))?.linkCount).toBe(1);
      expect(await links.deleteOfOwner(ids.next(), l.id)).toBe(false);
      expect(await links.deleteOfOwner(owner, l.id)).toBe(true);
      expect(await links.deleteOfOwner(owner, l.id)).toBe(false);
      expect(await links.findOfOwner(owner, l.id)).toBeNull();
      expect(await links.findForRedirect(null, l.slug)).toBeNull();
      expect((await tags.findOfOwner(owner, t.id))?.linkCount).toBe(0);
    });

    it('counts the owner’s links, those on a domain, and deletes all of an owner’s', async () => {
      const [owner, other, domain] = [ids.next(), ids.next(), ids.next()];
      for (const l of [
        link(owner),
        link(owner, { domainId: domain }),
        link(owner, { domainId: domain }),
        link(other, { domainId: domain }),
      ])
        await links.insertWithinQuota(l, 10);
      expect(await links.countOfOwner(owner)).toBe(3);
      expect(await links.countUsingDomain(owner, domain)).toBe(2);
      await links.deleteAllOfOwner(owner);
      expect(await links.countOfOwner(owner)).toBe(0);
      expect(await links.countOfOwner(other)).toBe(1);
    });

    it('adds click totals that the link shows, skipping a link deleted since its clicks were counted', async () => {
      const owner = ids.next();
      const [clicked, quiet, gone] = [link(owner), link(owner), link(owner)];
      for (const l of [clicked, quiet, gone]) await links.insertWithinQuota(l, 10);
      await links.deleteOfOwner(owner, gone.id);
      await links.addClicks(
        new Map([
          [clicked.id, 3],
          [gone.id, 5],
        ]),
      );
      await links.addClicks(new Map([[clicked.id, 4]]));
      await links.addClicks(new Map());
      expect((await links.findOfOwner(owner, clicked.id))?.clicks).toBe(7);
      expect((await links.listOfOwner(owner, undefined, PageRequest.of())).items.map((l) => [l.id, l.clicks])).toEqual([
        [quiet.id, 0],
        [clicked.id, 7],
      ]);
    });

    it('looks a short URL up by domain and slug, named by its title or else its slug', async () => {
      const owner = ids.next();
      const domain = ids.next();
      const plain = link(owner, { title: '' });
      const onDomain = link(owner, { slug: plain.slug, title: 'On a domain', domainId: domain, passwordHash: '$2b$04$y', status: false });
      await links.insertWithinQuota(plain, 10);
      await links.insertWithinQuota(onDomain, 10);
      expect(await links.findForRedirect(null, plain.slug)).toEqual({
        id: plain.id,
        ownerId: owner,
        domainId: null,
        slug: plain.slug,
        url: plain.url,
        name: plain.slug,
        status: true,
        passwordHash: null,
        options: null,
      });
      expect(await links.findForRedirect(domain, plain.slug)).toMatchObject({
        id: onDomain.id,
        domainId: domain,
        name: 'On a domain',
        status: false,
        passwordHash: '$2b$04$y',
      });
      expect(await links.findForRedirect(null, freshSlug())).toBeNull();
      expect(await links.findForRedirect(ids.next(), plain.slug)).toBeNull();
    });

    // Issue 18: a link's options round-trip; a plain link reads back with none (its props carry no options).
    it('stores a link’s options, reads them back and hands the redirect what it needs of them', async () => {
      const owner = ids.next();
      const options: LinkOptions = {
        redirectType: 308,
        expiresAt: later,
        expiredUrl: 'https://example.com/over',
        maxVisits: 10,
        visitsUsed: 0,
        utm: { source: 'news', campaign: 'spring' },
        targets: { device: { ios: 'https://apps.example/ios' }, country: { GB: 'https://example.co.uk/' } },
      };
      const l = link(owner, { options });
      const plain = link(owner);
      await links.insertWithinQuota(l, 10);
      await links.insertWithinQuota(plain, 10);
      expect((await links.findOfOwner(owner, l.id))?.toProps()).toEqual(l.toProps());
      expect((await links.findOfOwner(owner, plain.id))?.toProps().options).toBeUndefined();
      expect((await links.findForRedirect(null, l.slug))?.options).toEqual({
        redirectType: 308,
        expiresAt: later.getTime(),
        expiredUrl: 'https://example.com/over',
        maxVisits: 10,
        utm: options.utm,
        targets: options.targets,
      });
    });

    // If-Match: the condition and the write are one, so a write made between a client's read and its
    // conditional update is never overwritten by it.
    it('saves on condition only while no write came since the updatedAt it was read with; else false, and nothing saved', async () => {
      const owner = ids.next();
      const l = link(owner, { title: 'read' });
      await links.insertWithinQuota(l, 10);
      const [one, two] = [await links.findOfOwner(owner, l.id), await links.findOfOwner(owner, l.id)];
      if (!one || !two) throw new Error('the link was not stored');
      one.change({ title: 'first writer' }, later);
      expect(await links.update(one, now)).toBe(true);
      two.change({ title: 'second writer, from the same read' }, later);
      expect(await links.update(two, now)).toBe(false);
      expect((await links.findOfOwner(owner, l.id))?.title).toBe('first writer');
      // Without a condition the write goes through, as before; another owner's link is never written.
      expect(await links.update(two)).toBe(true);
      expect(await links.update(new Link({ ...two.toProps(), ownerId: ids.next() }))).toBe(false);
    });

    // Two writes stamped with one time must still leave different updatedAt, or a conditional write would take the second for the first.
    it('moves updatedAt on by at least a millisecond on every write, whatever time the write is stamped with', async () => {
      const owner = ids.next();
      const l = link(owner);
      await links.insertWithinQuota(l, 10);
      const read = await links.findOfOwner(owner, l.id);
      if (!read) throw new Error('the link was not stored');
      read.change({ title: 'same time' }, now);
      await links.update(read);
      const stamped = (await links.findOfOwner(owner, l.id))?.updatedAt;
      expect(stamped?.getTime()).toBe(now.getTime() + 1);
      read.change({ title: 'stale read' }, now);
      expect(await links.update(read, now)).toBe(false);
      await links.retagManyOfOwner(owner, [l.id], [], [], 10);
      expect((await links.findOfOwner(owner, l.id))?.updatedAt.getTime()).toBeGreaterThan(stamped?.getTime() ?? 0);
    });

    it('changes and clears options on update', async () => {
      const owner = ids.next();
      const l = link(owner, { options: { ...NO_LINK_OPTIONS, redirectType: 301, maxVisits: 3, utm: { source: 'a' } } });
      await links.insertWithinQuota(l, 10);
      l.change({ options: { ...l.options, redirectType: 302, maxVisits: null, utm: null, expiresAt: later } }, later);
      await links.update(l);
      expect((await links.findOfOwner(owner, l.id))?.options).toEqual({ ...NO_LINK_OPTIONS, expiresAt: later });
      l.change({ options: NO_LINK_OPTIONS }, later);
      await links.update(l);
      expect((await links.findOfOwner(owner, l.id))?.toProps().options).toBeUndefined();
      expect((await links.findForRedirect(null, l.slug))?.options).toBeNull();
    });

    it('lists the owner’s expired links (past expiresAt) or the others, with the search and a total', async () => {
      const owner = ids.next();
      const past = link(owner, { title: 'past one', options: { ...NO_LINK_OPTIONS, expiresAt: now } });
      const future = link(owner, { title: 'future one', options: { ...NO_LINK_OPTIONS, expiresAt: later } });
      const plain = link(owner, { title: 'plain one' });
      for (const l of [past, future, plain]) await links.insertWithinQuota(l, 10);
      const at = new Date(now.getTime() + 1);
      const expired = await links.listOfOwnerByExpiry(owner, true, at, undefined, PageRequest.of());
      expect([expired.items.map((l) => l.id), expired.total]).toEqual([[past.id], 1]);
      const live = await links.listOfOwnerByExpiry(owner, false, at, undefined, PageRequest.of());
      expect([live.items.map((l) => l.id), live.total]).toEqual([[plain.id, future.id], 2]);
      expect((await links.listOfOwnerByExpiry(owner, false, at, 'FUTURE', PageRequest.of())).items.map((l) => l.id)).toEqual([future.id]);
      expect((await links.listOfOwnerByExpiry(owner, true, later, undefined, PageRequest.of(0, 1))).total).toBe(2);
    });

    it('stores many links at once, skipping (and not counting) those whose slug is taken on their domain', async () => {
      const owner = ids.next();
      const t1 = tag(owner, 'bulk');
      await tags.insertWithinQuota(t1, 10);
      const taken = freshSlug();
      await links.insertWithinQuota(link(ids.next(), { slug: taken }), 10);
      const batch = [
        link(owner, { tagIds: [t1.id], title: 'A' }),
        link(owner, { slug: taken }),
        link(owner, { slug: taken, domainId: ids.next() }),
        link(owner, { options: { ...NO_LINK_OPTIONS, maxVisits: 3 } }),
      ];
      expect(await links.insertManyWithinQuota(batch, 4)).toEqual({ taken: [batch[1].id] });
      expect(await links.countOfOwner(owner)).toBe(3);
      expect((await links.findOfOwner(owner, batch[0].id))?.toProps()).toEqual(batch[0].toProps());
      expect((await links.findOfOwner(owner, batch[3].id))?.options.maxVisits).toBe(3);
      expect(await links.findOfOwner(owner, batch[1].id)).toBeNull();
    });

    it('stores none of a batch that would take the owner past the quota, even under concurrent batches', async () => {
      const owner = ids.next();
      await links.insertWithinQuota(link(owner), 5);
      const refused = await links
        .insertManyWithinQuota([link(owner), link(owner), link(owner), link(owner), link(owner)], 5)
        .catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(QuotaExceededError);
      expect((refused as QuotaExceededError).meta).toEqual({ limit: { resource: 'links', used: 1, limit: 5 } });
      expect(await links.countOfOwner(owner)).toBe(1);
      const results = await Promise.allSettled(Array.from({ length: 4 }, () => links.insertManyWithinQuota([link(owner), link(owner)], 5)));
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(2);
      expect(await links.countOfOwner(owner)).toBe(5);
    });

    it('deletes many of the owner’s links at once, leaving another owner’s, and says where each deleted one answered', async () => {
      const [owner, other] = [ids.next(), ids.next()];
      const [a, b] = [link(owner), link(owner, { domainId: ids.next() })];
      const theirs = link(other);
      for (const l of [a, b, theirs]) await links.insertWithinQuota(l, 10);
      const deleted = await links.deleteManyOfOwner(owner, [a.id, theirs.id, ids.next(), b.id]);
      expect(deleted.sort((x, y) => (x.id < y.id ? -1 : 1))).toEqual([a, b].map((l) => ({ id: l.id, domainId: l.domainId, slug: l.slug })));
      expect(await links.countOfOwner(owner)).toBe(0);
      expect(await links.findOfOwner(other, theirs.id)).not.toBeNull();
    });

    it('retags many of the owner’s links at once, and refuses (changing nothing) past the tags a link may carry', async () => {
      const [owner, other] = [ids.next(), ids.next()];
      const [t1, t2, t3] = [tag(owner, 'one'), tag(owner, 'two'), tag(owner, 'three')];
      for (const t of [t1, t2, t3]) await tags.insertWithinQuota(t, 10);
      const [a, b] = [link(owner, { tagIds: [t1.id] }), link(owner)];
      const theirs = link(other);
      for (const l of [a, b, theirs]) await links.insertWithinQuota(l, 10);
      expect((await links.retagManyOfOwner(owner, [a.id, b.id, theirs.id], [t2.id], [t1.id], 2)).sort()).toEqual([a.id, b.id].sort());
      expect((await links.findOfOwner(owner, a.id))?.tagIds).toEqual([t2.id]);
      expect((await links.findOfOwner(owner, b.id))?.tagIds).toEqual([t2.id]);
      expect((await links.findOfOwner(other, theirs.id))?.tagIds).toEqual([]);
      const refused = await links.retagManyOfOwner(owner, [a.id, b.id], [t1.id, t3.id], [], 2).catch((e: unknown) => e);
      expect(fieldOf(refused)).toBe('add');
      expect((await links.findOfOwner(owner, a.id))?.tagIds).toEqual([t2.id]);
    });

    it('reads the owner’s links in keyset batches, oldest first', async () => {
      const owner = ids.next();
      const made = [link(owner), link(owner), link(owner)];
      for (const l of made) await links.insertWithinQuota(l, 10);
      await links.insertWithinQuota(link(ids.next()), 10);
      const first = await links.batchOfOwner(owner, null, 2);
      expect(first.map((l) => l.id)).toEqual([made[0].id, made[1].id]);
      expect((await links.batchOfOwner(owner, first[1].id, 2)).map((l) => l.toProps())).toEqual([made[2].toProps()]);
      expect(await links.batchOfOwner(owner, made[2].id, 2)).toEqual([]);
    });
  });
}

/** The TagRepository port's behaviour; `makeRepos` is called before each test. */
export function describeTagRepositoryContract(makeRepos: () => LinksRepositories): void {
  describeAgainst('TagRepository contract', makeRepos, () => {
    it('keeps tag names unique per owner whatever the case, on insert and on update', async () => {
      const owner = ids.next();
      await tags.insertWithinQuota(tag(owner, 'News'), 10);
      expect(fieldOf(await tags.insertWithinQuota(tag(owner, 'news'), 10).catch((e: unknown) => e))).toBe('name');
      await expect(tags.insertWithinQuota(tag(ids.next(), 'news'), 10)).resolves.toBeUndefined();
      const plain = tag(owner, 'plain');
      await tags.insertWithinQuota(plain, 10);
      plain.change({ name: 'NEWS' }, later);
      expect(fieldOf(await tags.update(plain).catch((e: unknown) => e))).toBe('name');
      expect((await tags.findOfOwner(owner, plain.id))?.tag.name).toBe('plain');
    });

    it('finds the owner’s tags by name whatever the case', async () => {
      const owner = ids.next();
      const [news, promo] = [tag(owner, 'News'), tag(owner, 'Promo')];
      for (const t of [news, promo, tag(ids.next(), 'news')]) await tags.insertWithinQuota(t, 10);
      expect((await tags.findByNamesOfOwner(owner, ['NEWS', 'promo', 'other'])).map((t) => t.id).sort()).toEqual(
        [news.id, promo.id].sort(),
      );
      expect(await tags.findByNamesOfOwner(owner, [])).toEqual([]);
    });

    it('stops at the quota', async () => {
      const owner = ids.next();
      await tags.insertWithinQuota(tag(owner, 'one'), 2);
      await tags.insertWithinQuota(tag(owner, 'two'), 2);
      const refused = await tags.insertWithinQuota(tag(owner, 'three'), 2).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(QuotaExceededError);
      expect((refused as QuotaExceededError).meta).toEqual({ limit: { resource: 'tags', used: 2, limit: 2 } });
      expect(await tags.countOfOwner(owner)).toBe(2);
    });

    it('saves a changed tag only through update, and only the owner’s', async () => {
      const owner = ids.next();
      const t = tag(owner, 'before');
      await tags.insertWithinQuota(t, 10);
      const found = await tags.findOfOwner(owner, t.id);
      found?.tag.change({ name: 'after', isFavorite: true }, later);
      expect((await tags.findOfOwner(owner, t.id))?.tag.name).toBe('before');
      if (found) await tags.update(found.tag);
      expect((await tags.findOfOwner(owner, t.id))?.tag.toProps()).toEqual({
        ...t.toProps(),
        name: 'after',
        isFavorite: true,
        updatedAt: later,
      });
      await tags.update(new Tag({ ...t.toProps(), ownerId: ids.next(), name: 'forged' }));
      expect((await tags.findOfOwner(owner, t.id))?.tag.name).toBe('after');
      expect(await tags.findOfOwner(ids.next(), t.id)).toBeNull();
    });

    it('lists newest first with link counts, searches names case-insensitively, and lists favourites', async () => {
      const owner = ids.next();
      const [news, plain, newer] = [tag(owner, 'News', true), tag(owner, 'plain'), tag(owner, 'newsletter')];
      for (const t of [news, plain, newer]) await tags.insertWithinQuota(t, 10);
      await links.insertWithinQuota(link(owner, { tagIds: [news.id, plain.id] }), 10);
      await links.insertWithinQuota(link(owner, { tagIds: [news.id] }), 10);
      const page = await tags.listOfOwner(owner, 'NEW', PageRequest.of());
      expect(page.total).toBe(2);
      expect(page.items.map((t) => [t.tag.name, t.linkCount])).toEqual([
        ['newsletter', 0],
        ['News', 2],
      ]);
      expect((await tags.listOfOwner(owner, undefined, PageRequest.of(1, 1))).items.map((t) => t.tag.id)).toEqual([plain.id]);
      expect((await tags.favoritesOfOwner(owner)).map((t) => [t.tag.name, t.linkCount])).toEqual([['News', 2]]);
      expect((await tags.findManyOfOwner(owner, [plain.id, tag(ids.next(), 'x').id])).map((t) => t.id)).toEqual([plain.id]);
      expect(await tags.findManyOfOwner(ids.next(), [plain.id])).toEqual([]);
    });

    it('takes a deleted tag off every link, and deletes only the owner’s', async () => {
      const owner = ids.next();
      const [gone, kept] = [tag(owner, 'gone'), tag(owner, 'kept')];
      await tags.insertWithinQuota(gone, 10);
      await tags.insertWithinQuota(kept, 10);
      const l = link(owner, { tagIds: [gone.id, kept.id] });
      await links.insertWithinQuota(l, 10);
      expect(await tags.deleteOfOwner(ids.next(), gone.id)).toBe(false);
      expect(await tags.deleteOfOwner(owner, gone.id)).toBe(true);
      expect(await tags.findOfOwner(owner, gone.id)).toBeNull();
      expect((await links.findOfOwner(owner, l.id))?.tagIds).toEqual([kept.id]);
      await tags.deleteAllOfOwner(owner);
      expect(await tags.countOfOwner(owner)).toBe(0);
      expect((await links.findOfOwner(owner, l.id))?.tagIds).toEqual([]);
    });
  });
}
