import { ClickCounts, DimensionCounts, OTHER_VALUE } from '@lnk/analytics/domain';
import { ObjectIdGenerator, PageRequest } from '@lnk/shared/kernel';
import { useTestRepositories } from '@lnk/shared/testing';
import { analyticsPersistence, TypeormStatsRepository } from './typeorm-stats.repository';
import { TypeormStatsInsightRepository } from './typeorm-stats-insight.repository';

const ids = new ObjectIdGenerator();
const visit = (linkId: string, ownerId: string, over: Partial<ClickCounts> = {}): ClickCounts => ({
  date: '2026-06-01',
  linkId,
  ownerId,
  domainId: null,
  linkName: 'Link',
  domainName: 's.example',
  utmSource: '',
  utmMedium: '',
  utmCampaign: '',
  visits: 1,
  passwordPassed: 0,
  passwordFailed: 0,
  ...over,
});
const dimension = (linkId: string, ownerId: string, value: string, over: Partial<DimensionCounts> = {}): DimensionCounts => ({
  date: '2026-06-01',
  linkId,
  ownerId,
  domainId: null,
  dimension: 'referrer',
  value,
  visits: 1,
  ...over,
});

describe('TypeormStatsRepository: dimension rollups', () => {
  const { dataSource, repos } = useTestRepositories([analyticsPersistence], (ds) => ({
    stats: new TypeormStatsRepository(ds, ids),
    insights: new TypeormStatsInsightRepository(ds),
  }));
  const stored = async (linkId: string) =>
    Object.fromEntries(
      (
        (await dataSource().query(
          'SELECT dimension, value, visits::int AS visits FROM link_daily_dimensions WHERE link_id = $1 ORDER BY dimension, value',
          [linkId],
        )) as { dimension: string; value: string; visits: number }[]
      ).map((r) => [`${r.dimension}:${r.value}`, r.visits]),
    );

  it('adds visits per (day, link, dimension, value) in the same write as the daily rows', async () => {
    const owner = ids.next();
    const link = ids.next();
    await repos.stats.addCounts([visit(link, owner, { visits: 3 })], 100, [
      dimension(link, owner, 'news.example', { visits: 2 }),
      dimension(link, owner, '(direct)'),
      dimension(link, owner, 'GB', { dimension: 'country', visits: 3 }),
      dimension(link, owner, 'qr', { dimension: 'trigger', visits: 3 }),
    ]);
    await repos.stats.addCounts([visit(link, owner)], 100, [
      dimension(link, owner, 'news.example'),
      dimension(link, owner, 'GB', { dimension: 'country' }),
      dimension(link, owner, 'link', { dimension: 'trigger' }),
    ]);
    expect(await stored(link)).toEqual({
      'country:GB': 4,
      'referrer:(direct)': 1,
      'referrer:news.example': 3,
      'trigger:link': 1,
      'trigger:qr': 3,
    });
    const [row] = (await repos.stats.page({ ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' }, PageRequest.of(0, 10))).items;
    expect(row.visits).toBe(4);
  });

  // Visitors choose their Referer and User-Agent: each new value used to be able to add a row.
  it('keeps a (day, link, dimension) to its bound of values across batches, the rest under (other), the busiest first', async () => {
    const owner = ids.next();
    const link = ids.next();
    for (let batch = 0; batch < 5; batch++) {
      await repos.stats.addCounts(
        [],
        100,
        Array.from({ length: 4 }, (_, i) => dimension(link, owner, `r${batch}-${i}.example`, { visits: i + 1 })),
        3,
      );
    }
    await repos.stats.addCounts(
      [],
      100,
      [dimension(link, owner, 'r0-3.example', { visits: 10 }), dimension(link, owner, '(direct)'), dimension(link, owner, OTHER_VALUE)],
      3,
    );
    const rows = await stored(link);
    expect(Object.keys(rows)).toEqual([
      'referrer:(direct)',
      'referrer:(other)',
      'referrer:r0-1.example',
      'referrer:r0-2.example',
      'referrer:r0-3.example',
    ]);
    expect(rows['referrer:r0-3.example']).toBe(14);
    expect(rows[`referrer:${OTHER_VALUE}`]).toBe(1 + 4 * 10 + 1);
  });

  // Countries, devices, browsers, OS families and triggers come from closed lists: no count, no probe.
  it('bounds only the open dimension (referrer host names): closed ones and (direct) keep every value', async () => {
    const owner = ids.next();
    const link = ids.next();
    const countries = ['GB', 'US', 'FR', 'DE', 'JP'];
    await repos.stats.addCounts(
      [],
      100,
      countries.map((c) => dimension(link, owner, c, { dimension: 'country' })),
      3,
    );
    await repos.stats.addCounts([], 100, [dimension(link, owner, 'BR', { dimension: 'country' }), dimension(link, owner, '(direct)')], 3);
    expect(Object.keys(await stored(link))).toHaveLength(7);
  });

  it('keeps the rows of a deleted link as the daily rows are kept, and erases them with the account', async () => {
    const owner = ids.next();
    const link = ids.next();
    await repos.stats.addCounts([visit(link, owner)], 100, [dimension(link, owner, 'news.example')]);
    await repos.stats.deleteAllOfOwner(ids.next());
    expect(await stored(link)).toEqual({ 'referrer:news.example': 1 });
    await repos.stats.deleteAllOfOwner(owner);
    expect(await stored(link)).toEqual({});
  });

  it('writes dimensions and UTM rows of many links in one batch, taking each lock once', async () => {
    const owner = ids.next();
    const links = Array.from({ length: 2000 }, () => ids.next());
    await repos.stats.addCounts(
      links.map((l) => visit(l, owner, { utmSource: 'mail' })),
      100,
      links.flatMap((l) => [dimension(l, owner, 'a.example'), dimension(l, owner, 'mobile', { dimension: 'device' })]),
    );
    const [{ n }] = await dataSource().query('SELECT count(*)::int AS n FROM link_daily_dimensions WHERE owner_id = $1', [owner]);
    expect(n).toBe(4000);
  });

  describe('reads', () => {
    const owner = ids.next();
    const [a, b, c] = [ids.next(), ids.next(), ids.next()];
    const domain = ids.next();
    const filter = (over: object = {}) => ({ ownerId: owner, startDate: '2026-01-01', endDate: '2026-03-31', ...over });

    beforeAll(async () => {
      const day = (date: string, linkId: string, visits: number, over: Partial<ClickCounts> = {}) =>
        visit(linkId, owner, { date, visits, linkName: `name-${linkId.slice(-4)}`, ...over });
      await repos.stats.addCounts(
        [
          day('2026-01-05', a, 5),
          day('2026-01-06', a, 1, { linkName: 'renamed' }),
          day('2026-02-10', b, 2, { domainId: domain, domainName: 'go.example' }),
          day('2026-01-05', c, 7, { date: '2026-04-01' }),
        ],
        100,
        [
          dimension(a, owner, 'x.example', { date: '2026-01-05', visits: 3 }),
          dimension(a, owner, 'y.example', { date: '2026-01-05', visits: 2 }),
          dimension(a, owner, 'y.example', { date: '2026-01-06', visits: 1 }),
          dimension(b, owner, 'y.example', { date: '2026-02-10', visits: 2, domainId: domain }),
          dimension(c, owner, 'z.example', { date: '2026-04-01', visits: 7 }),
          dimension(a, ids.next(), 'other-owner.example', { date: '2026-01-05', visits: 50 }),
        ],
      );
    });

    it('breaks visits down by value, most first, within the period, filters and limit', async () => {
      expect(await repos.insights.breakdown(filter(), 'referrer', 10)).toEqual([
        { value: 'y.example', visits: 5 },
        { value: 'x.example', visits: 3 },
      ]);
      expect(await repos.insights.breakdown(filter(), 'referrer', 1)).toEqual([{ value: 'y.example', visits: 5 }]);
      expect(await repos.insights.breakdown(filter({ linkIds: [b] }), 'referrer', 10)).toEqual([{ value: 'y.example', visits: 2 }]);
      expect(await repos.insights.breakdown(filter({ domainId: domain }), 'referrer', 10)).toEqual([{ value: 'y.example', visits: 2 }]);
      expect(await repos.insights.breakdown(filter({ linkIds: [] }), 'referrer', 10)).toEqual([]);
      expect(await repos.insights.breakdown(filter(), 'country', 10)).toEqual([]);
    });

    it('answers every interval of the period, empty ones with 0', async () => {
      const months = await repos.insights.timeSeries(filter(), 'month');
      expect(months).toEqual([
        { date: '2026-01-01', visits: 6 },
        { date: '2026-02-01', visits: 2 },
        { date: '2026-03-01', visits: 0 },
      ]);
      const weeks = await repos.insights.timeSeries(filter({ endDate: '2026-01-20' }), 'week');
      expect(weeks).toEqual([
        { date: '2025-12-29', visits: 0 },
        { date: '2026-01-05', visits: 6 },
        { date: '2026-01-12', visits: 0 },
        { date: '2026-01-19', visits: 0 },
      ]);
      const days = await repos.insights.timeSeries(filter({ startDate: '2026-01-05', endDate: '2026-01-07', linkIds: [a] }), 'day');
      expect(days.map((d) => d.visits)).toEqual([5, 1, 0]);
    });

    it('lists the top links with their latest names', async () => {
      expect(await repos.insights.topLinks(filter(), 10)).toEqual([
        { linkId: a, linkName: 'renamed', domainId: null, domainName: 's.example', visits: 6 },
        { linkId: b, linkName: `name-${b.slice(-4)}`, domainId: domain, domainName: 'go.example', visits: 2 },
      ]);
      expect((await repos.insights.topLinks(filter(), 1)).map((l) => l.linkId)).toEqual([a]);
    });
  });
});
