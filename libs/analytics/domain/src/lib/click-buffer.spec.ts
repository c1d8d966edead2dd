import { UnitOfWork } from '@lnk/shared/kernel';
import { ClickEvent } from './model/click';
import { ClickMetrics, LinkClickTotals, StatsQuery, StatsRecord, StatsRepository } from './ports/stats.ports';
import { ClickBuffer } from './use-cases/click-buffer';
import { QueryStatsUseCase } from './use-cases/query-stats.use-case';

class Stats extends StatsRepository {
  written: StatsRecord[] = [];
  failNext = 0;
  async addCounts(counts: Omit<StatsRecord, 'id'>[]) {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('database unreachable');
    }
    for (const c of counts) {
      const row = this.written.find((r) => r.date === c.date && r.linkId === c.linkId && r.utmSource === c.utmSource && r.utmMedium === c.utmMedium && r.utmCampaign === c.utmCampaign);
      if (row) {
        row.visits += c.visits;
        row.passwordPassed += c.passwordPassed;
        row.passwordFailed += c.passwordFailed;
      } else this.written.push({ ...c, id: String(this.written.length) });
    }
  }
  async query(_q: StatsQuery) {
    return this.written;
  }
  async deleteAllOfOwner() {
    this.written = [];
  }
}

const event = (over: Partial<ClickEvent> = {}): ClickEvent => ({
  linkId: 'l1', ownerId: 'u1', domainId: null, linkName: 'Link', domainName: '', at: new Date('2026-05-01T10:00:00Z'), utmSource: '', utmMedium: '', utmCampaign: '', kind: 'visit', ...over,
});

describe('ClickBuffer', () => {
  let stats: Stats;
  let totals: Map<string, number>;
  let dropped: number;
  let buffer: ClickBuffer;
  const unitOfWork: UnitOfWork = { run: (work) => work() };

  beforeEach(() => {
    stats = new Stats();
    totals = new Map();
    dropped = 0;
    const linkTotals: LinkClickTotals = { addVisits: async (m) => m.forEach((n, id) => totals.set(id, (totals.get(id) ?? 0) + n)) };
    const metrics: ClickMetrics = { dropped: (n) => void (dropped += n), written: () => undefined };
    buffer = new ClickBuffer(stats, linkTotals, unitOfWork, metrics, { maxRows: 3 });
  });

  it('folds events into one row per UTC day, link and UTM values, and writes them with link totals', async () => {
    for (let i = 0; i < 5; i++) buffer.record(event());
    buffer.record(event({ utmSource: 'mail' }));
    buffer.record(event({ kind: 'passwordFailed' }));
    buffer.record(event({ at: new Date('2026-05-02T00:00:00Z') }));
    await buffer.flush();
    expect(stats.written.map((r) => [r.date, r.utmSource, r.visits, r.passwordFailed])).toEqual([
      ['2026-05-01', '', 5, 1],
      ['2026-05-01', 'mail', 1, 0],
      ['2026-05-02', '', 1, 0],
    ]);
    expect(totals.get('l1')).toBe(7);
    expect(buffer.size).toBe(0);
  });

  it('keeps what a failed write held, merged with what came meanwhile, and writes it all later', async () => {
    buffer.record(event());
    stats.failNext = 1;
    await expect(buffer.flush()).rejects.toThrow('unreachable');
    buffer.record(event());
    await buffer.flush();
    expect(stats.written[0].visits).toBe(2);
    expect(totals.get('l1')).toBe(2);
  });

  it('drops, and says so, what does not fit its bound', async () => {
    for (const source of ['a', 'b', 'c', 'd']) buffer.record(event({ utmSource: source }));
    expect(buffer.size).toBe(3);
    expect(dropped).toBe(1);
  });
});

describe('QueryStatsUseCase', () => {
  const query = new QueryStatsUseCase(new Stats());
  it.each([
    [{}, 'startDate'],
    [{ startDate: '2026-01-01' }, 'endDate'],
    [{ startDate: '2026-1-01', endDate: '2026-01-02' }, 'startDate'],
    [{ startDate: '2026-02-29', endDate: '2026-03-01' }, 'startDate'],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate'],
    [{ startDate: '2026-01-01', endDate: '2027-01-02' }, 'endDate'],
  ])('refuses %j naming %s', async (params, field) => {
    await expect(query.execute('u1', params)).rejects.toMatchObject({ errors: [{ name: field }] });
  });

  it('accepts a range of exactly 366 days', async () => {
    await expect(query.execute('u1', { startDate: '2028-01-01', endDate: '2028-12-31' })).resolves.toEqual([]);
  });
});
