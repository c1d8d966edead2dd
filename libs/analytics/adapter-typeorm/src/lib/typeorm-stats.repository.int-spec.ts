import { ClickCounts, OTHER_UTM } from '@lnk/analytics/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { useTestRepositories } from '@lnk/shared/testing';
import { analyticsPersistence, TypeormStatsRepository } from './typeorm-stats.repository';

const ids = new ObjectIdGenerator();
const counts = (linkId: string, ownerId: string, source: string, over: Partial<ClickCounts> = {}): ClickCounts => ({
  date: '2026-06-01', linkId, ownerId, domainId: null, linkName: 'Link', domainName: 's.example', utmSource: source, utmMedium: 'm', utmCampaign: 'c', visits: 1, passwordPassed: 0, passwordFailed: 0, ...over,
});

describe('TypeormStatsRepository', () => {
  const { dataSource, repos } = useTestRepositories([analyticsPersistence], (ds) => ({ stats: new TypeormStatsRepository(ds, ids) }));

  // Statistics flooding: UTM values come from anonymous visitors, and each new combination used to be a new row.
  it('keeps a (link, day) to its bound of UTM combinations across batches, counting the rest under (other)', async () => {
    const owner = ids.next();
    const link = ids.next();
    const other = ids.next();
    for (let batch = 0; batch < 10; batch++) {
      await repos.stats.addCounts([...Array.from({ length: 100 }, (_, i) => counts(link, owner, `s${batch * 100 + i}`)), counts(other, owner, `s${batch}`)], 10);
    }
    // Combinations already stored keep counting on their own rows; another day starts afresh.
    await repos.stats.addCounts([counts(link, owner, 's0', { visits: 5 }), counts(link, owner, 'next-day', { date: '2026-06-02' })], 10);

    const rows = await repos.stats.query({ ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-02' });
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
    const [written] = await dataSource().query('SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_stats WHERE owner_id = $1', [owner]);
    expect(written).toEqual({ n: 80_000, v: 80_000 });
  }, 120_000);

  it('keeps the row of clicks without UTM values apart from the bound, with no probe needed', async () => {
    const owner = ids.next();
    const link = ids.next();
    await repos.stats.addCounts(Array.from({ length: 5 }, (_, i) => counts(link, owner, `s${i}`)), 3);
    await repos.stats.addCounts([counts(link, owner, '', { utmMedium: '', utmCampaign: '', visits: 4 }), counts(link, owner, 'late')], 3);
    await repos.stats.addCounts([counts(link, owner, '', { utmMedium: '', utmCampaign: '' })], 3);
    const rows = await repos.stats.query({ ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
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
    await repos.stats.addCounts([counts(link, owner, 'quiet'), counts(link, owner, 'busy', { visits: 7 }), counts(link, owner, 'busier', { visits: 9 })], 2);
    const rows = await repos.stats.query({ ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
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
    const rows = await repos.stats.query({ ownerId: owner, startDate: '2026-06-01', endDate: '2026-06-01' });
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
    const [written] = await dataSource().query('SELECT count(*)::int AS n, sum(visits)::int AS v FROM link_daily_stats WHERE owner_id = $1', [owner]);
    expect(written).toEqual({ n: 600, v: 600 * 16 });
  });
});
