import { ClickCounts, DimensionCounts, OTHER_UTM, StatsQuery, StatsRecord } from '@lnk/analytics/domain';
import { ObjectIdGenerator, PageRequest } from '@lnk/shared/kernel';
import { useTestRepositories } from '@lnk/shared/testing';
import { analyticsPersistence, TypeormStatsRepository } from './typeorm-stats.repository';

const ids = new ObjectIdGenerator();
const counts = (linkId: string, ownerId: string, source: string, over: Partial<ClickCounts> = {}): ClickCounts => ({
  date: '2026-06-01',
  linkId,
  ownerId,
  domainId: null,
  linkName: 'Link',
  domainName: 's.example',
  utmSource: source,
  utmMedium: 'm',
  utmCampaign: 'c',
  visits: 1,
  passwordPassed: 0,
  passwordFailed: 0,
  ...over,
});

/** Every row of the range, read in batches as GET /user/stats streams them. */
async function allOf(stats: TypeormStatsRepository, query: StatsQuery, batchSize = 1000): Promise<StatsRecord[]> {
  const rows: StatsRecord[] = [];
  for await (const batch of stats.batches(query, batchSize)) rows.push(...batch);
  return rows;
}

describe('TypeormStatsRepository', () => {
  const { dataSource, repos } = useTestRepositories([analyticsPersistence], (ds) => ({ stats: new TypeormStatsRepository(ds, ids) }));

  // Statistics flooding: UTM values come from anonymous visitors, and each new combination used to be a new row.
  it('keeps a (link, day) to its bound of UTM combinations across batches, counting the rest under (other)', async () => {
    const owner = ids.next();
    const link = ids.next();
    const other = ids.next();
    for (let batch = 0; batch < 10; batch++) {
      await repos.stats.addCounts(
        [...Array.from({ length: 100 }, (_, i) => counts(link, owner, `s${batch * 100 + i}`)), counts(other, owner, `s${batch}`)],
        10,
      );
    }
    // Combinations already stored keep counting on their own rows; another day starts afresh.
    await repos.stats.addCounts([counts(link, owner, 's0', { visits: 5 }), counts(link, owner, 'next-day', { date: '2026-06-02' })], 10);

    const rows = await allOf(repos.stats, { ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-02' });
    const day1 = rows.filter((r) => r.linkId === link && r.date === '2026-06-01');
    expect(day1).toHaveLength(11);
    expect(day1.reduce((n, r) => n + r.visits, 0)).toBe(1005);
    expect(day1.find((r) => r.utmSource === OTHER_UTM)).toMatchObject({ utmMedium: OTHER_UTM, utmCampaign: OTHER_UTM, visits: 990 });
    expect(day1.find((r) => r.utmSource === 's0')?.visits).toBe(6);
    expect(rows.filter((r) => r.linkId === other)).toHaveLength(10);
    expect(rows.filter((r) => r.date === '2026-06-02').map((r) => r.utmSource)).toEqual(['next-day']);
  });

  // A batch as large as a busy minute of many links: one lock per (link, day) used to exhaust PostgreSQL's
  // lock table ("out of shared memory" past some tens of thousands), the write failed on every retry, and
  // the buffered clicks were lost at shutdown (the redirect benchmark lost half of them).
  it('writes a batch of 80,000 links in one transaction', async () => {
    const owner = ids.next();
    const batch = Array.from({ length: 80_000 }, () => counts(ids.next(), owner, '', { utmMedium: '', utmCampaign: '' }));
    await repos.stats.addCounts(batch, 100);
    const [written] = await dataSource().query(
      'SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_stats WHERE owner_id = $1',
      [owner],
    );
    expect(written).toEqual({ n: 80_000, v: 80_000 });
  }, 120_000);

  it('keeps the row of clicks without UTM values apart from the bound, with no probe needed', async () => {
    const owner = ids.next();
    const link = ids.next();
    await repos.stats.addCounts(
      Array.from({ length: 5 }, (_, i) => counts(link, owner, `s${i}`)),
      3,
    );
    await repos.stats.addCounts([counts(link, owner, '', { utmMedium: '', utmCampaign: '', visits: 4 }), counts(link, owner, 'late')], 3);
    await repos.stats.addCounts([counts(link, owner, '', { utmMedium: '', utmCampaign: '' })], 3);
    const rows = await allOf(repos.stats, { ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
    expect(rows.map((r) => [r.utmSource, r.visits]).sort()).toEqual([
      [OTHER_UTM, 3],
      ['', 5],
      ['s0', 1],
      ['s1', 1],
      ['s2', 1],
    ]);
  });

  it('gives the free slots of one batch to its busiest new combinations', async () => {
    const owner = ids.next();
    const link = ids.next();
    await repos.stats.addCounts(
      [counts(link, owner, 'quiet'), counts(link, owner, 'busy', { visits: 7 }), counts(link, owner, 'busier', { visits: 9 })],
      2,
    );
    const rows = await allOf(repos.stats, { ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
    expect(rows.map((r) => [r.utmSource, r.visits])).toEqual([
      [OTHER_UTM, 1],
      ['busier', 9],
      ['busy', 7],
    ]);
  });

  // Most clicks carry no UTM values and take the plain upsert; the rest go through the bound. One batch of
  // both is one transaction: a failure in either part writes neither (the buffer retries the whole batch).
  it('writes a batch of clicks with and without UTM values together, or not at all', async () => {
    const owner = ids.next();
    const link = ids.next();
    const plain = counts(link, owner, '', { utmMedium: '', utmCampaign: '', visits: 2 });
    await repos.stats.addCounts([plain, counts(link, owner, 'news', { visits: 3 })], 10);
    const clip = 'x'.repeat(300); // longer than the column: clipped, not an error
    await repos.stats.addCounts([plain, counts(link, owner, clip)], 10);
    await expect(repos.stats.addCounts([plain, counts(link, owner, 'bad', { date: 'not-a-date' })], 10)).rejects.toThrow();
    const rows = await allOf(repos.stats, { ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
    expect(rows.map((r) => [r.utmSource.length > 50 ? 'clipped' : r.utmSource, r.visits]).sort()).toEqual([
      ['', 4],
      ['clipped', 1],
      ['news', 3],
    ]);
  });

  // Two instances flush at once with batches over the same links: the plain rows are locked in key order
  // and the bounded ones under ordered advisory locks, so the writers take turns instead of deadlocking.
  it('writes concurrent batches over the same links, in opposite orders, without a deadlock', async () => {
    const owner = ids.next();
    const links = Array.from({ length: 300 }, () => ids.next());
    const batch = links.flatMap((l) => [counts(l, owner, '', { utmMedium: '', utmCampaign: '' }), counts(l, owner, 'mail')]);
    for (let i = 0; i < 8; i++) await Promise.all([repos.stats.addCounts(batch, 10), repos.stats.addCounts([...batch].reverse(), 10)]);
    const [written] = await dataSource().query(
      'SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_stats WHERE owner_id = $1',
      [owner],
    );
    expect(written).toEqual({ n: 600, v: 600 * 16 });
  });

  // The write goes in chunks of whole (date, link)s (the event loop answers redirects between two): two
  // instances whose batches differ (so their chunk boundaries differ) must still take every row lock in one
  // order, table after table, or they deadlock; and every count must land once.
  it('writes concurrent multi-chunk batches with dimensions, chunked differently, without a deadlock', async () => {
    const owner = ids.next();
    const links = Array.from({ length: 2_600 }, () => ids.next());
    const dims = (l: string): DimensionCounts[] => [
      { date: '2026-06-01', linkId: l, ownerId: owner, domainId: null, dimension: 'country', value: 'GB', visits: 1 },
      { date: '2026-06-01', linkId: l, ownerId: owner, domainId: null, dimension: 'referrer', value: 'news.example', visits: 1 },
    ];
    const all = links.flatMap((l) => [counts(l, owner, '', { utmMedium: '', utmCampaign: '' }), counts(l, owner, 'mail')]);
    const some = links.filter((_, i) => i % 3 !== 0);
    const fewer = some.flatMap((l) => [counts(l, owner, '', { utmMedium: '', utmCampaign: '' }), counts(l, owner, 'mail')]).reverse();
    for (let i = 0; i < 3; i++)
      await Promise.all([
        repos.stats.addCounts(all, 10, links.flatMap(dims)),
        repos.stats.addCounts(fewer, 10, some.flatMap(dims).reverse()),
      ]);
    const [written] = await dataSource().query(
      'SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_stats WHERE owner_id = $1',
      [owner],
    );
    expect(written).toEqual({ n: 2 * links.length, v: 3 * 2 * (links.length + some.length) });
    const [dimensions] = await dataSource().query(
      'SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_dimensions WHERE owner_id = $1',
      [owner],
    );
    expect(dimensions).toEqual({ n: 2 * links.length, v: 3 * 2 * (links.length + some.length) });
  }, 120_000);

  // The rows travel as one JSON parameter: names and values from users and visitors must arrive as sent,
  // whatever they hold (quotes, backslashes, braces and commas of array literals, line breaks, non-ASCII).
  it('stores names and UTM values holding JSON and array-literal syntax as they were', async () => {
    const owner = ids.next();
    const link = ids.next();
    const name = 'a "quoted" \\ {b,c} \n é 😀 NULL';
    await repos.stats.addCounts(
      [
        counts(link, owner, '', { utmMedium: '', utmCampaign: '', linkName: name, domainName: 'é.example' }),
        counts(link, owner, '{x,"y"}\\', { linkName: name, domainName: 'é.example' }),
      ],
      10,
    );
    const rows = await allOf(repos.stats, { ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
    expect(rows.map((r) => [r.linkName, r.utmSource, r.domainName])).toEqual([
      [name, '', 'é.example'],
      [name, '{x,"y"}\\', 'é.example'],
    ]);
  });

  describe('reads of a range', () => {
    const owner = ids.next();
    const stranger = ids.next();
    // Ties everywhere but the id: two links named alike, names differing in case and accents, several
    // UTM values a day, days out of the range on both sides, and another owner's rows on the same days.
    const twinA = ids.next();
    const twinB = ids.next();
    const others = [ids.next(), ids.next(), ids.next()];
    const names = ['Été', 'ete', 'Zebra'];
    const range = { ownerId: owner, startDate: '2026-06-02', endDate: '2026-06-05' };
    beforeAll(async () => {
      for (const date of ['2026-06-01', '2026-06-02', '2026-06-03', '2026-06-05', '2026-06-06']) {
        const day = (linkId: string, name: string, ownerId = owner) =>
          ['', 'mail', 'news'].map((s) =>
            counts(linkId, ownerId, s, { date, linkName: name, ...(s ? {} : { utmMedium: '', utmCampaign: '' }) }),
          );
        await repos.stats.addCounts(
          [
            ...day(twinA, 'Twin'),
            ...day(twinB, 'Twin'),
            ...others.flatMap((l, i) => day(l, names[i])),
            ...day(ids.next(), 'Twin', stranger),
          ],
          10,
        );
      }
    });
    const keyOf = (r: StatsRecord) => r.id;

    it('reads every row of the range once, in the same order whatever the batch size, the owner’s only', async () => {
      const whole = await allOf(repos.stats, range, 10_000);
      expect(whole).toHaveLength(3 * 5 * 3);
      expect(new Set(whole.map(keyOf)).size).toBe(whole.length);
      expect(whole.every((r) => r.ownerId === owner && r.date >= '2026-06-02' && r.date <= '2026-06-05')).toBe(true);
      expect(whole.map((r) => r.date)).toEqual([...whole.map((r) => r.date)].sort());
      for (const size of [1, 2, 7, 15, 44, 45]) expect((await allOf(repos.stats, range, size)).map(keyOf)).toEqual(whole.map(keyOf));
      const twins = whole.filter((r) => r.date === '2026-06-02' && r.linkName === 'Twin' && r.utmSource === '');
      expect(twins.map((r) => r.id)).toEqual(twins.map((r) => r.id).sort());
    });

    it('filters by q across batches', async () => {
      const twins = await allOf(repos.stats, { ...range, q: 'twi' }, 4);
      expect(twins).toHaveLength(2 * 3 * 3);
      expect(twins.every((r) => r.linkName === 'Twin')).toBe(true);
    });

    it('pages the same order: pages cover every row once, each with the total of the range', async () => {
      const whole = await allOf(repos.stats, range);
      const seen: StatsRecord[] = [];
      for (let start = 0; start < whole.length; start += 8) {
        const page = await repos.stats.page(range, PageRequest.of(start, 8));
        expect(page).toMatchObject({ total: whole.length, start, limit: 8 });
        seen.push(...page.items);
      }
      expect(seen.map(keyOf)).toEqual(whole.map(keyOf));
      expect(await repos.stats.page(range, PageRequest.of(1000, 10))).toEqual({
        items: [],
        total: whole.length,
        start: 1000,
        limit: 10,
        next: null,
      });
      expect((await repos.stats.page({ ...range, q: 'zebra' }, PageRequest.of(0, 100))).total).toBe(3 * 3);
    });

    it("pages by position (a cursor's keyset pages) in the same order, every row once, the last page saying none follows", async () => {
      const whole = await allOf(repos.stats, range);
      let page = await repos.stats.page(range, PageRequest.of(0, 7));
      const seen = [...page.items];
      while (page.next) {
        page = await repos.stats.page(range, PageRequest.after(page.next, seen.length, 7));
        expect(page).toMatchObject({ total: whole.length, start: seen.length, limit: 7 });
        seen.push(...page.items);
      }
      expect(seen.map(keyOf)).toEqual(whole.map(keyOf));
    });

    it('reads a batch only when asked for it, and sees no row twice when rows are written in between', async () => {
      const batches = repos.stats.batches(range, 5)[Symbol.asyncIterator]();
      const first = await batches.next();
      expect(first.value).toHaveLength(5);
      // A new UTM row on a day already read from and one on a later day: neither breaks the order.
      await repos.stats.addCounts(
        [
          counts(twinA, owner, 'aaa', { date: '2026-06-02', linkName: 'Twin' }),
          counts(twinA, owner, 'late', { date: '2026-06-05', linkName: 'Twin' }),
        ],
        10,
      );
      const rest: StatsRecord[] = [];
      for (let step = await batches.next(); !step.done; step = await batches.next()) rest.push(...step.value);
      const ids = [...(first.value as StatsRecord[]), ...rest].map(keyOf);
      expect(new Set(ids).size).toBe(ids.length);
      expect(rest.some((r) => r.utmSource === 'late')).toBe(true);
    });
  });
});
