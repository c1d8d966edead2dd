import type { DataSource } from 'typeorm';
import { ClickBuffer, ClickMetrics, ClickToCount, LinkClickTotals } from '@lnk/analytics/domain';
import { ObjectIdGenerator, PageRequest } from '@lnk/shared/kernel';
import { sql, TypeormUnitOfWork } from '@lnk/shared/database';
import { useTestDataSource } from '@lnk/shared/testing';
import { FakeClickDimensions } from '@lnk/analytics/testing';
import { analyticsPersistence, TypeormStatsRepository } from './typeorm-stats.repository';

const ids = new ObjectIdGenerator();

/**
 * Link totals written in the same database and transaction as the rollups, as the apps' bridge to the
 * links repository does (that adapter belongs to another context, so this test keeps its own table);
 * `failNext` makes its statement fail inside the transaction, as a lost connection or a deadlock would.
 */
class SqlLinkTotals extends LinkClickTotals {
  failNext = 0;
  constructor(private readonly dataSource: DataSource) {
    super();
  }
  async addVisits(visitsByLink: Map<string, number>): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      await sql(this.dataSource, 'SELECT 1 / 0');
    }
    await sql(
      this.dataSource,
      `INSERT INTO test_link_totals (link_id, clicks) SELECT * FROM unnest($1::text[], $2::bigint[])
       ON CONFLICT (link_id) DO UPDATE SET clicks = test_link_totals.clicks + EXCLUDED.clicks`,
      [[...visitsByLink.keys()], [...visitsByLink.values()]],
    );
  }
}

const at = new Date('2026-07-01T10:00:00.000Z');
const event = (linkId: string, ownerId: string, over: Partial<ClickToCount> = {}): ClickToCount => ({
  linkId,
  ownerId,
  domainId: null,
  linkName: 'Link',
  domainName: 's.example',
  at,
  utmSource: '',
  utmMedium: '',
  utmCampaign: '',
  kind: 'visit',
  referer: undefined,
  userAgent: undefined,
  ip: '203.0.113.7',
  trigger: 'link',
  ...over,
});

describe('the click write: ClickBuffer through TypeormStatsRepository and link totals', () => {
  const dataSource = useTestDataSource([analyticsPersistence]);
  let totals: SqlLinkTotals;
  let buffer: ClickBuffer;
  let written: number;

  beforeAll(async () => {
    await dataSource().query('CREATE TABLE test_link_totals (link_id text PRIMARY KEY, clicks bigint NOT NULL)');
  });

  beforeEach(() => {
    written = 0;
    totals = new SqlLinkTotals(dataSource());
    const metrics: ClickMetrics = { dropped: () => undefined, written: (n) => void (written += n), eventsDropped: () => undefined };
    buffer = new ClickBuffer({
      stats: new TypeormStatsRepository(dataSource(), ids),
      totals,
      unitOfWork: new TypeormUnitOfWork(dataSource()),
      metrics,
      dimensions: new FakeClickDimensions(),
    });
  });

  const rowsOf = async (ownerId: string) =>
    (
      await new TypeormStatsRepository(dataSource(), ids).page(
        { ownerId, startDate: '2026-07-01', endDate: '2026-07-02' },
        PageRequest.of(0, 100),
      )
    ).items.map((r) => [r.date, r.linkId, r.utmSource, r.visits, r.passwordPassed, r.passwordFailed]);
  const totalsOf = async (linkIds: string[]) =>
    Object.fromEntries(
      (
        (await dataSource().query('SELECT link_id, clicks::int AS clicks FROM test_link_totals WHERE link_id = ANY($1)', [linkIds])) as {
          link_id: string;
          clicks: number;
        }[]
      ).map((r) => [r.link_id, r.clicks]),
    );

  it('writes a buffered batch as one rollup row per (day, link, UTM values) and adds each link’s visits to its total', async () => {
    const owner = ids.next();
    const [a, b] = [ids.next(), ids.next()];
    for (let i = 0; i < 3; i++) buffer.record(event(a, owner));
    buffer.record(event(a, owner, { utmSource: 'mail', utmMedium: 'email', utmCampaign: 'june' }));
    buffer.record(event(a, owner, { kind: 'passwordFailed' }));
    buffer.record(event(a, owner, { kind: 'passwordPassed' }));
    buffer.record(event(b, owner, { at: new Date('2026-07-02T00:00:00.000Z') }));
    await buffer.flush();

    expect(await rowsOf(owner)).toEqual(
      expect.arrayContaining([
        ['2026-07-01', a, '', 3, 1, 1],
        ['2026-07-01', a, 'mail', 1, 0, 0],
        ['2026-07-02', b, '', 1, 0, 0],
      ]),
    );
    expect(await rowsOf(owner)).toHaveLength(3);
    // Password attempts are not visits: the link total counts the 4 + 1 visits only.
    expect(await totalsOf([a, b])).toEqual({ [a]: 4, [b]: 1 });
    expect(written).toBe(7);
    expect(buffer.size).toBe(0);

    // A second batch adds to the same rows and totals.
    buffer.record(event(a, owner));
    await buffer.flush();
    expect(await rowsOf(owner)).toEqual(expect.arrayContaining([['2026-07-01', a, '', 4, 1, 1]]));
    expect(await totalsOf([a])).toEqual({ [a]: 5 });
  });

  // The rollups and the totals are one transaction: a failure in the second must undo the first, and the
  // batch must be written once by the next flush, not lost and not counted twice.
  it(
    'keeps a batch whose write failed, writes neither part of it, and ' + 'writes it once with what arrived meanwhile at the next flush',
    async () => {
      const owner = ids.next();
      const link = ids.next();
      buffer.record(event(link, owner));
      buffer.record(event(link, owner, { utmSource: 'mail' }));
      totals.failNext = 1;
      await expect(buffer.flush()).rejects.toThrow();
      expect(await rowsOf(owner)).toEqual([]);
      expect(await totalsOf([link])).toEqual({});
      expect(buffer.size).toBe(2);
      expect(written).toBe(0);

      buffer.record(event(link, owner));
      await buffer.flush();
      expect((await rowsOf(owner)).sort()).toEqual([
        ['2026-07-01', link, '', 2, 0, 0],
        ['2026-07-01', link, 'mail', 1, 0, 0],
      ]);
      expect(await totalsOf([link])).toEqual({ [link]: 3 });
      expect(buffer.size).toBe(0);
      expect(written).toBe(3);
    },
  );
});
