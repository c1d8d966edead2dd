import { Clock, IdGenerator, PasswordHasher, QuotaExceededError, QuotaPolicy, ValidationError } from '@lnk/shared/kernel';
import { clockReading } from '@lnk/shared/testing';
import { memoryLinksRepositories, MemoryLinksUnitOfWork } from '@lnk/links/testing';
import { Link } from '../model/link.entity';
import { LinkDomains } from '../ports/link-domains.port';
import { SlugGenerator } from '../ports/slug-generator.port';
import { BulkCreateLinksUseCase } from './bulk-create-links.use-case';
import { BulkDeleteLinksUseCase } from './bulk-delete-links.use-case';
import { BulkTagLinksUseCase } from './bulk-tag-links.use-case';
import { ExportLinksUseCase } from './export-links.use-case';
import { ImportLine, ImportLinksUseCase } from './import-links.use-case';
import { LinkViews } from '../services/link-views';

let n = 0;
const ids: IdGenerator = { next: () => (++n).toString(16).padStart(24, '0') };
const clock: Clock = clockReading(() => new Date('2026-02-03T04:05:06.007Z'));
const hasher: PasswordHasher = { hash: async (p) => `hashed:${p}`, verify: async (p, h) => h === `hashed:${p}` };
const domains: LinkDomains = {
  verifiedDomainOf: async (ownerId, id) => (ownerId === 'ada' && id === 'dom-verified' ? { id, name: 'go.example.com' } : null),
  namesOf: async () => new Map([['dom-verified', 'go.example.com']]),
  verifiedDomainByName: async () => null,
};
const config = { ownHosts: ['s.lnk.test'] };

function setUp(limits: { links?: number; tags?: number } = {}) {
  const { store, links, tags } = memoryLinksRepositories();
  const quota: QuotaPolicy = { limitFor: async (_o, resource) => (resource === 'tags' ? (limits.tags ?? 10) : (limits.links ?? 20_000)) };
  const generated: string[] = [];
  const slugs: SlugGenerator = { generate: () => generated.shift() ?? `g${ids.next().slice(-8)}` };
  const changed: string[] = [];
  const changes = { linkChanged: (domainId: string | null, slug: string) => void changed.push(`${domainId ?? ''}/${slug}`) };
  const unitOfWork = new MemoryLinksUnitOfWork(store);
  return {
    store,
    links,
    tags,
    generated,
    changed,
    bulkCreate: new BulkCreateLinksUseCase(
      { links, tags, domains, quota, passwords: hasher, slugs, ids, clock, config, changes },
      unitOfWork,
    ),
    bulkDelete: new BulkDeleteLinksUseCase(links, changes, clock),
    bulkTag: new BulkTagLinksUseCase({ links, tags, quota, ids, clock }),
    importLinks: new ImportLinksUseCase(
      { links, tags, domains, quota, passwords: hasher, slugs, ids, clock, config, changes },
      unitOfWork,
      10,
    ),
    exportLinks: new ExportLinksUseCase(links, new LinkViews(tags, domains)),
  };
}

/** Another account's link holding `slug` on the default domain. */
const othersLink = (slug: string) =>
  new Link({
    id: ids.next(),
    ownerId: 'carol',
    domainId: null,
    slug,
    url: 'https://example.com/',
    title: '',
    description: '',
    status: true,
    passwordHash: null,
    tagIds: [],
    clicks: 0,
    createdAt: clock.now(),
    updatedAt: clock.now(),
  });

const errorsOf = (item: object) => ('errors' in item ? (item.errors as { name: string; error: string }[]) : null);

describe('BulkCreateLinksUseCase', () => {
  it('answers each item in order: the link, or its errors by the rules of one creation', async () => {
    const { bulkCreate, links } = setUp();
    await links.insertWithinQuota(othersLink('taken'), 10);
    const out = await bulkCreate.execute('ada', [
      { url: 'https://example.com/a', slug: 'same', hasPassword: true, password: 'long enough' },
      { url: 'https://s.lnk.test/loop', title: 'x'.repeat(201) },
      { url: 'https://example.com/c', slug: 'same' },
      { url: 'https://example.com/d', slug: 'taken' },
      { url: 'https://example.com/e', domainId: 'dom-verified', slug: 'same' },
      { url: 'https://example.com/f', tags: ['no-such-tag'] },
    ]);
    expect('view' in out[0] && out[0].view.link.toProps()).toMatchObject({
      slug: 'same',
      passwordHash: 'hashed:long enough',
      ownerId: 'ada',
    });
    expect(errorsOf(out[1])?.map((e) => e.name)).toEqual(['url', 'title']);
    expect(errorsOf(out[2])).toEqual([{ name: 'slug', error: 'slug is already used by an earlier link of this request' }]);
    expect(errorsOf(out[3])).toEqual([{ name: 'slug', error: 'slug is already taken on this domain' }]);
    // The same slug on another domain is another short URL.
    expect('view' in out[4] && out[4].view.domain).toEqual({ id: 'dom-verified', name: 'go.example.com' });
    expect(errorsOf(out[5])?.map((e) => e.name)).toEqual(['tags']);
    // Why each was not created, for the answer's message (issue 28).
    expect(out.map((o) => ('reason' in o ? o.reason : 'created'))).toEqual([
      'created',
      'invalid',
      'duplicate_slug',
      'duplicate_slug',
      'created',
      'invalid',
    ]);
    expect(await links.countOfOwner('ada')).toBe(2);
  });

  it('writes nothing when the valid links do not all fit in the quota', async () => {
    const { bulkCreate, links, changed } = setUp({ links: 3 });
    await bulkCreate.execute('ada', [{ url: 'https://example.com/1' }]);
    changed.length = 0;
    await expect(
      bulkCreate.execute('ada', [{ url: 'https://example.com/2' }, { url: 'https://example.com/3' }, { url: 'https://example.com/4' }]),
    ).rejects.toBeInstanceOf(QuotaExceededError);
    expect(await links.countOfOwner('ada')).toBe(1);
    expect(changed).toEqual([]);
    // Invalid items take no room: two valid ones fit.
    const out = await bulkCreate.execute('ada', [{ url: 'https://example.com/2' }, { url: 'bad' }, { url: 'https://example.com/3' }]);
    expect(out.filter((o) => 'view' in o)).toHaveLength(2);
    expect(await links.countOfOwner('ada')).toBe(3);
  });

  it('draws a generated slug again when it was taken, within the same unit of work, and evicts every created short URL', async () => {
    const { bulkCreate, links, generated, changed } = setUp();
    await links.insertWithinQuota(othersLink('gtaken'), 10);
    generated.push('gtaken', 'gfresh1', 'gfresh2');
    const out = await bulkCreate.execute('ada', [{ url: 'https://example.com/1' }, { url: 'https://example.com/2' }]);
    expect(out.map((o) => 'view' in o && o.view.link.slug)).toEqual(['gfresh2', 'gfresh1']);
    expect(changed.sort()).toEqual(['/gfresh1', '/gfresh2']);
  });

  it('refuses more than 100 links, or none', async () => {
    const { bulkCreate } = setUp();
    await expect(bulkCreate.execute('ada', [])).rejects.toBeInstanceOf(ValidationError);
    await expect(
      bulkCreate.execute(
        'ada',
        Array.from({ length: 101 }, () => ({ url: 'https://example.com/' })),
      ),
    ).rejects.toBeInstanceOf(ValidationError);
  });
});

describe('BulkDeleteLinksUseCase', () => {
  it('deletes only the owner’s links, answers in request order and evicts only what it deleted', async () => {
    // Defends against cross-account deletion: another account's id is answered not found and its link stays.
    const { bulkCreate, bulkDelete, links, changed } = setUp();
    const [a, b] = (
      await bulkCreate.execute('ada', [
        { url: 'https://example.com/a', slug: 'a1' },
        { url: 'https://example.com/b', slug: 'b1' },
      ])
    ).map((o) => ('view' in o ? o.view.link.id : ''));
    const theirs = othersLink('c1');
    await links.insertWithinQuota(theirs, 10);
    changed.length = 0;
    expect(await bulkDelete.execute('ada', [b, theirs.id, 'unknown', a, b])).toEqual([
      { id: b, found: true },
      { id: theirs.id, found: false },
      { id: 'unknown', found: false },
      { id: a, found: true },
      { id: b, found: true },
    ]);
    expect(await links.countOfOwner('ada')).toBe(0);
    expect(await links.findOfOwner('carol', theirs.id)).not.toBeNull();
    expect(changed.sort()).toEqual(['/a1', '/b1']);
  });
});

describe('BulkTagLinksUseCase', () => {
  it('puts tags on by name (found whatever the case, else made) and takes them off, on the owner’s links only', async () => {
    const { bulkCreate, bulkTag, links, tags } = setUp();
    const [a] = (await bulkCreate.execute('ada', [{ url: 'https://example.com/a' }])).map((o) => ('view' in o ? o.view.link.id : ''));
    const theirs = othersLink('t1');
    await links.insertWithinQuota(theirs, 10);
    expect(await bulkTag.execute('ada', { ids: [a, theirs.id], add: ['News', 'promo'] })).toEqual([
      { id: a, found: true },
      { id: theirs.id, found: false },
    ]);
    expect(await bulkTag.execute('ada', { ids: [a], add: ['NEWS'], remove: ['Promo'] })).toEqual([{ id: a, found: true }]);
    const tagged = await links.findOfOwner('ada', a);
    expect((await tags.findManyOfOwner('ada', tagged?.tagIds ?? [])).map((t) => t.name)).toEqual(['News']);
    expect((await links.findOfOwner('carol', theirs.id))?.tagIds).toEqual([]);
    expect(await tags.countOfOwner('carol')).toBe(0);
  });

  it('refuses names it cannot make under the tag quota, and changes nothing', async () => {
    const { bulkCreate, bulkTag, links } = setUp({ tags: 1 });
    const [a] = (await bulkCreate.execute('ada', [{ url: 'https://example.com/a' }])).map((o) => ('view' in o ? o.view.link.id : ''));
    await expect(bulkTag.execute('ada', { ids: [a], add: ['one', 'two'] })).rejects.toMatchObject({ errors: [{ name: 'add' }] });
    expect((await links.findOfOwner('ada', a))?.tagIds).toEqual([]);
  });
});

describe('ImportLinksUseCase', () => {
  const line = (n: number, over: Partial<ImportLine> = {}): ImportLine => ({ line: n, url: `https://example.com/${n}`, tags: [], ...over });

  it('creates the good lines in batches (of 10 here) and reports each skipped line with its reason', async () => {
    const { importLinks, links } = setUp();
    await links.insertWithinQuota(othersLink('taken'), 10);
    const spy = jest.spyOn(links, 'insertManyWithinQuota');
    const lines = Array.from({ length: 25 }, (_v, i) => line(i + 2, { slug: `s${i}`, tags: i % 2 ? ['odd'] : [] }));
    lines.push(
      line(300, { url: 'ftp://nope' }),
      line(301, { slug: 's7' }),
      line(302, { slug: 'taken' }),
      line(303, { tags: ['x'.repeat(65)] }),
    );
    const report = await importLinks.execute('ada', lines);
    expect(report.created).toBe(25);
    expect(report.skipped).toEqual([
      { line: 300, reason: 'invalid', errors: [expect.objectContaining({ name: 'url' })] },
      { line: 301, reason: 'duplicate_slug', errors: [{ name: 'slug', error: 'slug is already used by line 9 of this file' }] },
      { line: 302, reason: 'duplicate_slug', errors: [{ name: 'slug', error: 'slug is already taken on this domain' }] },
      { line: 303, reason: 'invalid', errors: [expect.objectContaining({ name: 'tags' })] },
    ]);
    // 26 links to write (the one whose slug is taken included), in batches of 10: three statements, not one per line.
    expect(spy).toHaveBeenCalledTimes(3);
    expect(spy.mock.calls.map((c) => c[0].length)).toEqual([10, 10, 6]);
    expect(await links.countOfOwner('ada')).toBe(25);
  });

  it('skips the lines past the remaining quota as quota, and makes no tag for them', async () => {
    const { importLinks, tags } = setUp({ links: 2 });
    const report = await importLinks.execute('ada', [line(2), line(3), line(4, { tags: ['late'] })]);
    expect(report).toEqual({
      created: 2,
      skipped: [{ line: 4, reason: 'quota', errors: [expect.objectContaining({ name: 'links' })] }],
      skippedTotal: 1,
      skippedByReason: { invalid: 0, duplicate_slug: 0, quota: 1 },
    });
    expect(await tags.countOfOwner('ada')).toBe(0);
  });

  // Issue 27: every line of a file was checked, however little room the quota left.
  it('stops checking lines once those that passed fill the room the quota leaves: the rest are quota, bad or not', async () => {
    const { importLinks } = setUp({ links: 2 });
    const report = await importLinks.execute('ada', [
      line(2, { url: 'ftp://bad' }),
      line(3),
      line(4),
      line(5, { url: 'ftp://bad' }),
      line(6),
    ]);
    expect(report.created).toBe(2);
    expect(report.skipped.map((s) => [s.line, s.reason])).toEqual([
      [2, 'invalid'],
      [5, 'quota'],
      [6, 'quota'],
    ]);
  });

  // Issue 27: a report listing each of 5 million skipped lines was a 523 MB answer.
  it(
    'lists the first 100 skipped lines by line number, whatever the ' + 'order they were skipped in, and counts them all by reason',
    async () => {
      const { importLinks, links } = setUp();
      await links.insertWithinQuota(othersLink('taken-early'), 10);
      // Line 2's slug is found taken only when it is written, after lines 3 to 252 were skipped as invalid.
      const lines = [line(2, { slug: 'taken-early' }), ...Array.from({ length: 250 }, (_v, i) => line(i + 3, { url: 'not a url' }))];
      const report = await importLinks.execute('ada', lines);
      expect(report.skippedTotal).toBe(251);
      expect(report.skippedByReason).toEqual({ invalid: 250, duplicate_slug: 1, quota: 0 });
      expect(report.skipped).toHaveLength(100);
      expect(report.skipped[0]).toEqual({
        line: 2,
        reason: 'duplicate_slug',
        errors: [{ name: 'slug', error: 'slug is already taken on this domain' }],
      });
      expect(report.skipped.map((s) => s.line)).toEqual(Array.from({ length: 100 }, (_v, i) => i + 2));
    },
  );

  it('reads lines as they come, and writes nothing when the reading fails part-way (a malformed file is refused whole)', async () => {
    const { importLinks, links } = setUp();
    async function* read() {
      yield line(2);
      yield line(3);
      throw ValidationError.field('body', 'the file is not valid CSV');
    }
    await expect(importLinks.execute('ada', read())).rejects.toBeInstanceOf(ValidationError);
    expect(await links.countOfOwner('ada')).toBe(0);
    async function* good() {
      for (let n = 2; n < 702; n++) yield line(n);
    }
    expect(await importLinks.execute('ada', good())).toMatchObject({ created: 700, skippedTotal: 0 });
  });
});

describe('ExportLinksUseCase', () => {
  it('reads every one of the owner’s links in keyset batches, oldest first, with tag names and domains', async () => {
    const { bulkCreate, bulkTag, exportLinks, links } = setUp();
    const made = await bulkCreate.execute(
      'ada',
      Array.from({ length: 7 }, (_v, i) => ({ url: `https://example.com/${i}`, ...(i === 0 ? { domainId: 'dom-verified' } : {}) })),
    );
    const madeIds = made.map((o) => ('view' in o ? o.view.link.id : ''));
    await bulkTag.execute('ada', { ids: [madeIds[1]], add: ['news'] });
    await links.insertWithinQuota(othersLink('not-ada'), 10);
    const spy = jest.spyOn(links, 'batchOfOwner');
    const batches = [];
    for await (const batch of exportLinks.execute('ada', 3)) batches.push(batch);
    expect(batches.map((b) => b.length)).toEqual([3, 3, 1]);
    const views = batches.flat();
    expect(views.map((v) => v.link.id)).toEqual([...madeIds].sort());
    expect(views.find((v) => v.link.id === madeIds[1])?.tags.map((t) => t.name)).toEqual(['news']);
    expect(views.find((v) => v.link.id === madeIds[0])?.domain).toEqual({ id: 'dom-verified', name: 'go.example.com' });
    // Each read starts after the last id of the one before.
    expect(spy.mock.calls.map((c) => c[1])).toEqual([null, views[2].link.id, views[5].link.id]);
  });
});
