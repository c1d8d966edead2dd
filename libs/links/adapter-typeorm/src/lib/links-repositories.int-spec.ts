import { Link, NO_LINK_OPTIONS, Tag } from '@lnk/links/domain';
import { sql } from '@lnk/shared/database';
import { ObjectIdGenerator, PageRequest, QuotaExceededError, UNLIMITED, ValidationError } from '@lnk/shared/kernel';
import { createdInRace, TEST_DB_ENV, testMigration, useTestRepositories } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { LinksAndTags1763800300000 } from './migrations/1763800300000-links-and-tags';
import { LinkClickTotals1764000200000 } from './migrations/1764000200000-link-click-totals';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormTagRepository } from './typeorm-tag.repository';

const ids = new ObjectIdGenerator();
const now = new Date('2026-06-01T12:00:00.000Z');

function link(ownerId: string, over: Partial<ReturnType<Link['toProps']>> = {}): Link {
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
    ...over,
  });
}

function tag(ownerId: string, name: string): Tag {
  return new Tag({ id: ids.next(), ownerId, name, isFavorite: false, createdAt: now, updatedAt: now });
}

describe('TypeormLinkRepository on PostgreSQL: races, usage counters, paging, click rows and the redirect lookup', () => {
  const { dataSource, repos } = useTestRepositories([linksPersistence], (ds) => ({
    links: new TypeormLinkRepository(ds),
    // Every page through the statement that reads the older half from the oldest link (the first pages skip it).
    linksFromEitherEnd: new TypeormLinkRepository(ds, 0),
    tags: new TypeormTagRepository(ds),
  }));

  it('keeps one slug namespace per domain, case-sensitively, under concurrent claims', async () => {
    const owner = ids.next();
    const domain = ids.next();
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, () => repos.links.insertWithinQuota(link(owner, { slug: 'promo' }), 100)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x): x is PromiseRejectedResult => x.status === 'rejected')) {
      expect(r.reason).toBeInstanceOf(ValidationError);
      expect((r.reason as ValidationError).errors[0].name).toBe('slug');
    }
    await expect(repos.links.insertWithinQuota(link(owner, { slug: 'promo', domainId: domain }), 100)).resolves.toBeUndefined();
    await expect(repos.links.insertWithinQuota(link(owner, { slug: 'Promo' }), 100)).resolves.toBeUndefined();
  });

  // The total of an unfiltered list and the quota read a per-owner counter that triggers keep; it must
  // agree with the rows whatever wrote them: the repository, one-by-one deletes, rows inserted by plain
  // SQL (seeds, benchmarks) and an account's erasure.
  it('keeps each owner’s link and tag counts exact through creations, deletions, SQL inserts and erasure', async () => {
    const owner = ids.next();
    const bystander = ids.next();
    const mine = [link(owner), link(owner), link(owner)];
    for (const l of mine) await repos.links.insertWithinQuota(l, 100);
    await repos.links.insertWithinQuota(link(bystander), 100);
    await repos.tags.insertWithinQuota(tag(owner, 'a'), 10);
    await repos.tags.insertWithinQuota(tag(owner, 'b'), 10);
    await repos.links.deleteOfOwner(owner, mine[0].id);
    await repos.tags.deleteOfOwner(owner, (await repos.tags.listOfOwner(owner, 'a', PageRequest.of())).items[0].tag.id);
    await dataSource().query(
      `INSERT INTO links (id, owner_id, slug, url, created_at, updated_at)
       SELECT lpad(to_hex(g), 24, 'f'), $1, 'seeded-' || g, 'https://example.com/' || g, now(), now() FROM generate_series(1, 5) AS g`,
      [owner],
    );
    const counted = async (table: string, ownerId: string) =>
      Number((await dataSource().query(`SELECT count(*) AS n FROM ${table} WHERE owner_id = $1`, [ownerId]))[0].n);
    expect(await repos.links.countOfOwner(owner)).toBe(7);
    expect(await repos.links.countOfOwner(owner)).toBe(await counted('links', owner));
    expect((await repos.links.listOfOwner(owner, undefined, PageRequest.of(0, 2))).total).toBe(7);
    expect(await repos.tags.countOfOwner(owner)).toBe(1);
    expect((await repos.tags.listOfOwner(owner, undefined, PageRequest.of())).total).toBe(1);
    await expect(repos.links.insertWithinQuota(link(owner), 7)).rejects.toBeInstanceOf(QuotaExceededError);
    await repos.links.deleteAllOfOwner(owner);
    await repos.tags.deleteAllOfOwner(owner);
    expect([await repos.links.countOfOwner(owner), await counted('links', owner), await repos.tags.countOfOwner(owner)]).toEqual([0, 0, 0]);
    expect(await repos.links.countOfOwner(bystander)).toBe(1);
    await expect(repos.links.insertWithinQuota(link(owner), 1)).resolves.toBeUndefined();
  });

  // The link count is spread over up to 16 rows an owner (one per connection's stripe, see the
  // LinksUsageStripes migration) so that creations do not queue on one row, and the quota must stay exact:
  // these defend against an account holding more links than its plan allows by creating them in parallel.
  describe('the link quota, counted over several rows', () => {
    const stripesOf = async (owner: string) =>
      Number((await dataSource().query(`SELECT count(*) AS n FROM links_usage WHERE owner_id = $1 AND resource = 'links'`, [owner]))[0].n);
    const linksOf = async (owner: string) =>
      Number((await dataSource().query('SELECT count(*) AS n FROM links WHERE owner_id = $1', [owner]))[0].n);
    // Every refusal is the quota's, never a deadlock between a creation and a rebalance (createdInRace throws any other).
    const race = (owner: string, n: number, limit: number) => createdInRace(n, () => repos.links.insertWithinQuota(link(owner), limit));

    it('lets exactly the quota through when many creations race on every connection of the pool', async () => {
      const owner = ids.next();
      expect(await race(owner, 120, 40)).toBe(40);
      expect(await linksOf(owner)).toBe(40);
      expect(await repos.links.countOfOwner(owner)).toBe(40);
      expect((await repos.links.listOfOwner(owner, undefined, PageRequest.of(0, 5))).total).toBe(40);
      // The creations did spread: more than one row holds the count (a pool of 5 connections).
      expect(await stripesOf(owner)).toBeGreaterThan(1);
    });

    it('applies a lowered quota at once, although rows hold room handed out under the higher one', async () => {
      const owner = ids.next();
      expect(await race(owner, 20, 1000)).toBe(20);
      expect(await race(owner, 10, 22)).toBe(2);
      expect(await linksOf(owner)).toBe(22);
      await expect(repos.links.insertWithinQuota(link(owner), 22)).rejects.toBeInstanceOf(QuotaExceededError);
      expect(await race(owner, 10, 1000)).toBe(10);
    });

    // A self-hosted account has no limit (UNLIMITED, PostgreSQL's largest integer): the escrow must neither
    // overflow nor rebalance again and again, which would queue every creation of the account on one row.
    it('takes an unlimited quota as a number: every creation passes, and once each row holds its share none rebalances', async () => {
      const owner = ids.next();
      expect(await race(owner, 60, UNLIMITED)).toBe(60);
      expect([await linksOf(owner), await repos.links.countOfOwner(owner)]).toEqual([60, 60]);
      const shares = async () =>
        (await dataSource().query(
          `SELECT stripe, allowance::text, quota::text FROM links_usage WHERE owner_id = $1 AND resource = 'links' ORDER BY stripe`,
          [owner],
        )) as { stripe: number; allowance: string; quota: string }[];
      const before = await shares();
      expect(before.every((row) => row.quota === String(UNLIMITED))).toBe(true);
      // The allowances handed out never add up to more than the quota.
      expect(before.reduce((sum, row) => sum + BigInt(row.allowance), 0n)).toBeLessThanOrEqual(BigInt(UNLIMITED));
      for (let i = 0; i < 20; i++) await repos.links.insertWithinQuota(link(owner), UNLIMITED);
      // A rebalance rewrites every row's allowance: none happened.
      expect(await shares()).toEqual(before);
      expect(await repos.links.countOfOwner(owner)).toBe(80);
      await expect(repos.tags.insertWithinQuota(tag(owner, 'unlimited'), UNLIMITED)).resolves.toBeUndefined();
    });

    it('gives back what deletions on any connection free, and no more', async () => {
      const owner = ids.next();
      const mine = Array.from({ length: 10 }, () => link(owner));
      expect((await Promise.allSettled(mine.map((l) => repos.links.insertWithinQuota(l, 10)))).every((r) => r.status === 'fulfilled')).toBe(
        true,
      );
      await Promise.all(mine.slice(0, 4).map((l) => repos.links.deleteOfOwner(owner, l.id)));
      expect(await repos.links.countOfOwner(owner)).toBe(6);
      expect(await race(owner, 12, 10)).toBe(4);
      expect([await linksOf(owner), await repos.links.countOfOwner(owner)]).toEqual([10, 10]);
      const error = await repos.links.insertWithinQuota(link(owner), 10).catch((e: unknown) => e);
      expect((error as QuotaExceededError).meta).toEqual({ limit: { resource: 'links', used: 10, limit: 10 } });
    });
  });

  // A creation is one statement that writes the link, its tags and clicks before it takes the owner's usage
  // row and checks the quota: a refusal must roll all of it back (no link, no tag rows, no count) and still
  // say what the owner held, and a creation that fits must leave its tags and clicks written.
  it('writes a link with its tags and clicks in one statement, and rolls all of it back when the quota is full', async () => {
    const owner = ids.next();
    const t = tag(owner, 'kept');
    await repos.tags.insertWithinQuota(t, 10);
    const first = link(owner, { tagIds: [t.id], clicks: 4 });
    await repos.links.insertWithinQuota(first, 1);
    const refused = link(owner, { tagIds: [t.id], clicks: 2 });
    const error = await repos.links.insertWithinQuota(refused, 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(QuotaExceededError);
    expect((error as QuotaExceededError).meta).toEqual({ limit: { resource: 'links', used: 1, limit: 1 } });
    const rows = async (statement: string, id: string) => Number((await dataSource().query(statement, [id]))[0].n);
    expect(await rows('SELECT count(*) AS n FROM links WHERE id = $1', refused.id)).toBe(0);
    expect(await rows('SELECT count(*) AS n FROM link_tags WHERE link_id = $1', refused.id)).toBe(0);
    expect(await rows('SELECT count(*) AS n FROM link_clicks WHERE link_id = $1', refused.id)).toBe(0);
    expect(await repos.links.countOfOwner(owner)).toBe(1);
    expect(await repos.links.findOfOwner(owner, first.id)).toMatchObject({ tagIds: [t.id], clicks: 4 });
  });

  // A page in the older half is read from the oldest link backwards, and the first pages from the newest
  // only; every offset, through either statement, must still answer what OFFSET over the newest-first order
  // does, with the exact total, also past the end.
  it('answers every offset of the unfiltered list as newest-first OFFSET paging does, from either end', async () => {
    const owner = ids.next();
    const created = Array.from({ length: 7 }, () => link(owner));
    for (const l of created) await repos.links.insertWithinQuota(l, 100);
    const newestFirst = created.map((l) => l.id).reverse();
    for (const repo of [repos.links, repos.linksFromEitherEnd]) {
      for (const limit of [1, 3, 10]) {
        for (let start = 0; start <= 9; start++) {
          const page = await repo.listOfOwner(owner, undefined, PageRequest.of(start, limit));
          expect({ start, limit, total: page.total, ids: page.items.map((l) => l.id) }).toEqual({
            start,
            limit,
            total: 7,
            ids: newestFirst.slice(start, start + limit),
          });
        }
      }
      expect(await repo.listOfOwner(ids.next(), undefined, PageRequest.of(0, 10))).toMatchObject({ items: [], total: 0 });
    }
  });

  it('counts every match of a search, also on a page past its last match', async () => {
    const owner = ids.next();
    for (let i = 0; i < 4; i++) await repos.links.insertWithinQuota(link(owner, { title: `Launch ${i}` }), 100);
    await repos.links.insertWithinQuota(link(owner, { title: 'Other' }), 100);
    await repos.links.insertWithinQuota(link(ids.next(), { title: 'Launch elsewhere' }), 100);
    expect((await repos.links.listOfOwner(owner, 'launch', PageRequest.of(3, 2))).items.map((l) => l.title)).toEqual(['Launch 0']);
    expect(await repos.links.listOfOwner(owner, 'launch', PageRequest.of(10, 2))).toMatchObject({ items: [], total: 4 });
    expect(await repos.links.listOfOwner(owner, 'nothing', PageRequest.of(0, 2))).toMatchObject({ items: [], total: 0 });
  });

  // Deleting takes the owner's counter before the rows, as creating does. Otherwise a creation of a slug
  // the erasure has just deleted waits for the erasure to end, while the erasure, at its end, waits for the
  // counter the creation holds: a deadlock, one of the two failing. The erasure is made long enough (tens
  // of thousands of rows) for the creation to start while it runs.
  it('erases an account while one of its slugs is being created again, without a deadlock', async () => {
    const owner = ids.next();
    await dataSource().query(
      `INSERT INTO links (id, owner_id, slug, url, created_at, updated_at)
       SELECT 'b' || lpad(to_hex(g), 23, '0'), $1, 'bulk-' || g, 'https://example.com/' || g, now(), now() FROM generate_series(1, 40000)
         AS g`,
      [owner],
    );
    const erasure = repos.links.deleteAllOfOwner(owner);
    await new Promise((resolve) => setTimeout(resolve, 15));
    const creation = repos.links.insertWithinQuota(link(owner, { slug: 'bulk-1' }), 100_000);
    const [erased, created] = await Promise.allSettled([erasure, creation]);
    expect(erased.status).toBe('fulfilled');
    if (created.status === 'rejected') expect(created.reason).toBeInstanceOf(ValidationError);
    expect(await repos.links.countOfOwner(owner)).toBe(
      Number((await dataSource().query('SELECT count(*) AS n FROM links WHERE owner_id = $1', [owner]))[0].n),
    );
  });

  // Click totals live in their own narrow table (the per-second click write used to rewrite the wide link
  // row and every one of its indexes); the contract checks the totals a reader sees, this the rows behind them.
  it('keeps no click rows for a link deleted before or after its clicks were counted', async () => {
    const owner = ids.next();
    const [clicked, gone] = [link(owner), link(owner)];
    for (const l of [clicked, gone]) await repos.links.insertWithinQuota(l, 10);
    await repos.links.deleteOfOwner(owner, gone.id);
    await repos.links.addClicks(
      new Map([
        [clicked.id, 3],
        [gone.id, 5],
      ]),
    );
    const clickRows = async (linkId: string) =>
      (await dataSource().query('SELECT count(*)::int AS n FROM link_clicks WHERE link_id = $1', [linkId]))[0].n;
    expect(await clickRows(clicked.id)).toBe(1);
    expect(await clickRows(gone.id)).toBe(0);
    await repos.links.deleteOfOwner(owner, clicked.id);
    expect(await clickRows(clicked.id)).toBe(0);
  });

  // Two instances flush at once, their batches sharing links: rows are taken in link order, so neither
  // waits on the other in a cycle (PostgreSQL would abort one with a deadlock, and its clicks would wait).
  it('adds two concurrent batches over the same links, in opposite orders, without a deadlock', async () => {
    const owner = ids.next();
    const many = Array.from({ length: 200 }, () => link(owner));
    for (const l of many) await repos.links.insertWithinQuota(l, 1000);
    const forward = new Map(many.map((l) => [l.id, 1]));
    const backward = new Map([...many].reverse().map((l) => [l.id, 1]));
    for (let i = 0; i < 10; i++) await Promise.all([repos.links.addClicks(forward), repos.links.addClicks(backward)]);
    const [{ total }] = await dataSource().query('SELECT sum(clicks)::int AS total FROM link_clicks WHERE link_id = ANY($1)', [
      many.map((l) => l.id),
    ]);
    expect(total).toBe(200 * 20);
  });

  // A redirect miss (a scanner's unknown slug, a link not yet cached) must cost one cheap query: one
  // statement, answered by the (domain, slug) index, read as a plain row rather than an entity.
  it('looks a short URL up, found or not, with one prepared statement the (domain, slug) index answers, as a plain row', async () => {
    const owner = ids.next();
    const domain = ids.next();
    await repos.links.insertWithinQuota(link(owner, { slug: 'redirect-me', title: '' }), 10);
    await repos.links.insertWithinQuota(link(owner, { slug: 'redirect-me', title: 'On a domain', domainId: domain }), 10);

    const statements: { text: string; params: unknown[]; prepared?: boolean }[] = [];
    // What reaches the database's connections: sql() outside a transaction runs on the connection a query runner's connect() answers.
    type Query = string | { text: string; name?: string; values?: unknown[] };
    type Connection = { query(query: Query, params?: unknown[]): Promise<unknown> };
    const source = dataSource();
    const create = source.createQueryRunner.bind(source);
    const spy = jest.spyOn(source, 'createQueryRunner').mockImplementation((mode) => {
      const runner = create(mode);
      const connect = runner.connect.bind(runner);
      runner.connect = async () => {
        const connection = (await connect()) as Connection;
        const seen = Object.create(connection) as Connection;
        seen.query = (query: Query, params?: unknown[]) => {
          // A prepared statement comes as a query object (its text and name inherited, see sql()).
          if (typeof query === 'string') statements.push({ text: query, params: params ?? [] });
          else statements.push({ text: query.text, params: query.values ?? [], prepared: query.name !== undefined });
          return connection.query(query, params);
        };
        return seen;
      };
      return runner;
    });
    let found: Awaited<ReturnType<TypeormLinkRepository['findForRedirect']>>;
    let onDomain: typeof found;
    try {
      found = await repos.links.findForRedirect(null, 'redirect-me');
      onDomain = await repos.links.findForRedirect(domain, 'redirect-me');
      expect(await repos.links.findForRedirect(null, 'no-such-slug')).toBeNull();
    } finally {
      spy.mockRestore();
    }
    expect(statements).toHaveLength(3);
    expect(statements.every((s) => s.prepared)).toBe(true);
    expect(found).toMatchObject({ slug: 'redirect-me', domainId: null, name: 'redirect-me', status: true, passwordHash: null });
    expect(onDomain).toMatchObject({ domainId: domain, name: 'On a domain' });
    expect(Object.getPrototypeOf(found)).toBe(Object.prototype);

    // With sequential scans priced out, the plan shows whether the statement can use the index at all.
    const runner = dataSource().createQueryRunner();
    try {
      await runner.query('SET enable_seqscan = off');
      const plan = (await runner.query(`EXPLAIN ${statements[2].text}`, statements[2].params)) as Record<string, string>[];
      expect(plan.map((row) => Object.values(row).join(' ')).join('\n')).toContain('links_domain_slug_key');
    } finally {
      await runner.query('RESET enable_seqscan');
      await runner.release();
    }
  });

  // The creation's INSERT is prepared once per connection (unprepared, PostgreSQL parsed and planned it at
  // every call: 1.2 ms of its CPU) and writes only the tables a batch's rows need. Defends: a shape that
  // drops what its links hold (a tag, a click total, a visit limit), and a statement re-prepared per call.
  it('writes links of every shape (tags, click totals, visit limits), each shape through one prepared statement', async () => {
    const owner = ids.next();
    const label = tag(owner, 'shape');
    await repos.tags.insertWithinQuota(label, 10);
    const shaped = (bits: number) =>
      link(owner, {
        tagIds: bits & 1 ? [label.id] : [],
        clicks: bits & 2 ? 7 : 0,
        ...(bits & 4 ? { options: { ...NO_LINK_OPTIONS, maxVisits: 3 } } : {}),
      });
    const single = Array.from({ length: 8 }, (_, bits) => shaped(bits));
    for (const l of single) await repos.links.insertWithinQuota(l, 100);
    const again = Array.from({ length: 8 }, (_, bits) => shaped(bits));
    for (const l of again) await repos.links.insertWithinQuota(l, 100);
    // A batch takes the statement of what any of its links holds.
    const mixed = [shaped(1), shaped(2), shaped(4), shaped(0)];
    expect(await repos.links.insertManyWithinQuota(mixed, 100)).toEqual({ taken: [] });

    const written = [...single, ...again, ...mixed];
    const read = new Map(
      (
        await repos.links.findManyOfOwner(
          owner,
          written.map((l) => l.id),
        )
      ).map((l) => [l.id, l]),
    );
    for (const l of written) {
      expect({ tags: read.get(l.id)?.tagIds, clicks: read.get(l.id)?.clicks, maxVisits: read.get(l.id)?.options.maxVisits }).toEqual({
        tags: l.tagIds,
        clicks: l.clicks,
        maxVisits: l.options.maxVisits,
      });
    }
    expect((await repos.links.listOfOwner(owner, undefined, PageRequest.of())).total).toBe(20);

    // Sequential calls reuse the pool's last connection: it holds each shape's text once, run more than once.
    // (On the embedded PGlite, which the suite may run on, statements run as text: there is nothing to count.)
    if (process.env[TEST_DB_ENV.kind] === 'pglite') return;
    const { rows } = await sql(
      dataSource(),
      'SELECT generic_plans + custom_plans AS runs FROM pg_prepared_statements ' +
        "WHERE name LIKE 'lnk\\_%' AND statement LIKE '%links_usage_take%'",
    );
    expect(rows).toHaveLength(8);
    expect(rows.every((r) => Number(r['runs']) >= 2)).toBe(true);
  });
});

// The counters start from the rows that exist when the migration runs.
describe('links usage counters migration', () => {
  it('fills each owner’s link and tag counts from the existing rows', async () => {
    const owner = ids.next();
    await testMigration({
      before: [{ migrations: [LinksAndTags1763800300000, LinkClickTotals1764000200000] }],
      seed: async (before) => {
        await before.query(
          `INSERT INTO links (id, owner_id, slug, url, created_at, updated_at)
           SELECT lpad(to_hex(g), 24, 'e'), $1, 'old-' || g, 'https://example.com/' || g, now(), now() FROM generate_series(1, 4) AS g`,
          [owner],
        );
        await before.query(
          `INSERT INTO tags (id, owner_id, name, created_at, updated_at) VALUES (lpad('1', 24, 'd'), $1, 'kept', now(), now())`,
          [owner],
        );
      },
      after: [linksPersistence],
      check: async (after) => {
        expect(await new TypeormLinkRepository(after).countOfOwner(owner)).toBe(4);
        expect(await new TypeormTagRepository(after).countOfOwner(owner)).toBe(1);
      },
    });
  });
});
