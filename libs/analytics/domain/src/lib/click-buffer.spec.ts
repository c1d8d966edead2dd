import { PageRequest, pageOf, UnitOfWork } from '@lnk/shared/kernel';
import { ClickToCount } from './model/click-to-count';
import { FakeClickDimensions, MemoryStatsRepository } from '@lnk/analytics/testing';
import { MAX_UTM_LENGTH, normaliseUtm, OTHER_UTM } from './model/click';
import { ClickEvent, ClickEvents, ClickSeries } from './ports/click-events.port';
import { ClickMetrics } from './ports/click-metrics.port';
import { LinkClickTotals } from './ports/link-click-totals.port';
import { StatsQuery, StatsRecord, StatsRepository } from './ports/stats.repository';
import { ClickBuffer } from './services/click-buffer';
import { ClickWriteSchedule } from './services/click-write-schedule';
import { QueryStatsUseCase } from './use-cases/query-stats.use-case';

class Stats extends StatsRepository {
  written: StatsRecord[] = [];
  failNext = 0;
  async addCounts(counts: Omit<StatsRecord, 'id'>[]) {
    counts = counts.map((c) => ({ ...c }));
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('database unreachable');
    }
    for (const c of counts) {
      const row = this.written.find(
        (r) =>
          r.date === c.date &&
          r.linkId === c.linkId &&
          r.utmSource === c.utmSource &&
          r.utmMedium === c.utmMedium &&
          r.utmCampaign === c.utmCampaign,
      );
      if (row) {
        row.visits += c.visits;
        row.passwordPassed += c.passwordPassed;
        row.passwordFailed += c.passwordFailed;
      } else this.written.push({ ...c, id: String(this.written.length) });
    }
  }
  async page(_q: StatsQuery, page: PageRequest) {
    return pageOf(this.written.slice(page.start, page.start + page.limit), this.written.length, page);
  }
  async *batches(_q: StatsQuery, batchSize: number) {
    for (let i = 0; i < this.written.length; i += batchSize) yield this.written.slice(i, i + batchSize);
  }
  async deleteAllOfOwner() {
    this.written = [];
  }
}

const event = (over: Partial<ClickToCount> = {}): ClickToCount => ({
  linkId: 'l1',
  ownerId: 'u1',
  domainId: null,
  linkName: 'Link',
  domainName: '',
  at: new Date('2026-05-01T10:00:00Z'),
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
    const metrics: ClickMetrics = { dropped: (n) => void (dropped += n), written: () => undefined, eventsDropped: () => undefined };
    buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxRows: 3 },
    });
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

  it(
    'puts each click on its own UTC day and UTM row when the day it keeps changes back and ' +
      'forth, and normalises what the fast path sees (rows multiplied by case defended)',
    async () => {
      // The buffer keeps the current day's date string and adds to a pending row in place: a click of
      // another day, or a UTM value that only normalising makes equal, must still land on its own row.
      const at = (iso: string) => new Date(iso);
      for (const when of [
        '2026-05-01T23:59:59.999Z',
        '2026-05-02T00:00:00.000Z',
        '2026-05-01T00:00:00.000Z',
        '1969-12-31T23:59:59.999Z',
        '2026-05-02T12:00:00Z',
      ])
        buffer.record(event({ at: at(when) }));
      await buffer.flush();
      expect(stats.written.map((r) => [r.date, r.visits])).toEqual([
        ['2026-05-01', 2],
        ['2026-05-02', 2],
        ['1969-12-31', 1],
      ]);
      stats.written = [];
      for (const utmSource of ['mail', 'MAIL', ' Mail ', 'mail']) buffer.record(event({ utmSource }));
      buffer.record(event({ utmSource: 'mail', kind: 'passwordPassed' }));
      await buffer.flush();
      expect(stats.written.map((r) => [r.utmSource, r.visits, r.passwordPassed])).toEqual([['mail', 4, 1]]);
    },
  );

  it('keeps what a failed write held, merged with what came meanwhile, and writes it all later', async () => {
    buffer.record(event());
    stats.failNext = 1;
    await expect(buffer.flush()).rejects.toThrow('unreachable');
    buffer.record(event());
    await buffer.flush();
    expect(stats.written[0].visits).toBe(2);
    expect(totals.get('l1')).toBe(2);
  });

  it('has every click recorded before a flush() call written when it resolves, even if a write was already under way', async () => {
    // The timer's flush may be writing when a caller (shutdown, a test) asks for one: the caller must not
    // get that earlier write's promise, which misses what arrived after it began.
    let release!: () => void;
    const slow = new Promise<void>((resolve) => (release = resolve));
    const addCounts = stats.addCounts.bind(stats);
    stats.addCounts = async (counts) => {
      await slow;
      return addCounts(counts);
    };
    buffer.record(event());
    const timerFlush = buffer.flush();
    buffer.record(event({ utmSource: 'late' }));
    const callerFlush = buffer.flush();
    const another = buffer.flush();
    release();
    await Promise.all([timerFlush, callerFlush, another]);
    expect(stats.written.map((r) => [r.utmSource, r.visits])).toEqual([
      ['', 1],
      ['late', 1],
    ]);
    expect(buffer.size).toBe(0);
  });

  it('drops, and says so, what does not fit its bound', async () => {
    for (const source of ['a', 'b', 'c', 'd']) buffer.record(event({ utmSource: source }));
    expect(buffer.size).toBe(3);
    expect(dropped).toBe(1);
  });
});

// Statistics flooding: the UTM values of a redirect come from anonymous visitors.
describe('ClickBuffer under a flood of UTM values', () => {
  let stats: Stats;
  let dropped: number;
  const unitOfWork: UnitOfWork = { run: (work) => work() };
  const metrics: ClickMetrics = { dropped: (n) => void (dropped += n), written: () => undefined, eventsDropped: () => undefined };
  const linkTotals: LinkClickTotals = { addVisits: async () => undefined };
  const total = (rows: StatsRecord[]) => rows.reduce((n, r) => n + r.visits, 0);

  beforeEach(() => {
    stats = new Stats();
    dropped = 0;
  });

  it('stores UTM values trimmed, without control or invisible characters, lower-cased and cut to length', async () => {
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: new FakeClickDimensions() });
    buffer.record(event({ utmSource: '  News\u0000let\u200Bter \r\n', utmMedium: 'E-Mail', utmCampaign: 'x'.repeat(500) }));
    buffer.record(event({ utmSource: 'newsletter', utmMedium: 'e-mail', utmCampaign: 'X'.repeat(MAX_UTM_LENGTH) }));
    await buffer.flush();
    expect(stats.written).toHaveLength(1);
    expect(stats.written[0]).toMatchObject({
      utmSource: 'newsletter',
      utmMedium: 'e-mail',
      utmCampaign: 'x'.repeat(MAX_UTM_LENGTH),
      visits: 2,
    });
    expect(normaliseUtm('a \t\u00A0 b')).toBe('a b');
    expect(Array.from(normaliseUtm('\u{1F600}'.repeat(150)))).toHaveLength(MAX_UTM_LENGTH);
  });

  it('counts 1,000 distinct UTM combinations on one link in at most its bound plus one (other) row, losing no visit', async () => {
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: new FakeClickDimensions() });
    for (let i = 0; i < 1000; i++) buffer.record(event({ utmSource: `s${i}`, utmMedium: `m${i}`, utmCampaign: `c${i}` }));
    expect(buffer.size).toBe(101);
    await buffer.flush();
    expect(stats.written).toHaveLength(101);
    expect(stats.written.find((r) => r.utmSource === OTHER_UTM)).toMatchObject({
      utmMedium: OTHER_UTM,
      utmCampaign: OTHER_UTM,
      visits: 900,
    });
    expect(total(stats.written)).toBe(1000);
    expect(dropped).toBe(0);
  });

  it('keeps a row for clicks without UTM values whatever the bounds: the link at its bound, the account past its share', async () => {
    // The bounds stop what visitors choose (UTM values); a link's plain clicks are its own traffic and are
    // never folded into (other), however many of the account's links are clicked.
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxUtmCombinations: 2, maxRowsPerOwner: 3 },
    });
    for (const source of ['a', 'b', 'c']) buffer.record(event({ utmSource: source }));
    buffer.record(event());
    for (let i = 0; i < 5; i++) buffer.record(event({ linkId: `other-link-${i}` }));
    await buffer.flush();
    const rows = stats.written.map((r) => [r.linkId, r.utmSource, r.visits]);
    expect(rows).toEqual(
      expect.arrayContaining([
        ['l1', 'a', 1],
        ['l1', 'b', 1],
        ['l1', OTHER_UTM, 1],
        ['l1', '', 1],
        ...Array.from({ length: 5 }, (_, i) => [`other-link-${i}`, '', 1]),
      ]),
    );
    expect(rows).toHaveLength(9);
  });

  it('hands the repository its bound so combinations already written count against it', async () => {
    const seen: number[] = [];
    const counting = new (class extends Stats {
      override async addCounts(counts: Omit<StatsRecord, 'id'>[], maxUtmCombinations?: number) {
        seen.push(maxUtmCombinations ?? -1);
        return super.addCounts(counts);
      }
    })();
    const buffer = new ClickBuffer({
      stats: counting,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxUtmCombinations: 7 },
    });
    buffer.record(event());
    await buffer.flush();
    expect(seen).toEqual([7]);
  });

  // One account's flood must not fill the buffer and drop another account's clicks.
  it('folds one account’s rows beyond its share into (other), so another account’s click still gets a row', async () => {
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxRows: 10, maxRowsPerOwner: 4 },
    });
    for (let i = 0; i < 50; i++) buffer.record(event({ linkId: `a${i % 2}`, ownerId: 'flooder', utmSource: `s${i}` }));
    buffer.record(event({ linkId: 'b1', ownerId: 'other', utmSource: 'newsletter' }));
    await buffer.flush();
    expect(dropped).toBe(0);
    expect(stats.written.filter((r) => r.ownerId === 'flooder')).toHaveLength(6);
    expect(total(stats.written.filter((r) => r.ownerId === 'flooder'))).toBe(50);
    expect(stats.written.filter((r) => r.ownerId === 'other').map((r) => [r.utmSource, r.visits])).toEqual([['newsletter', 1]]);
  });

  it('keeps its bounds when a failed write is put back in front of what arrived meanwhile', async () => {
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxUtmCombinations: 2 },
    });
    buffer.record(event({ utmSource: 'a' }));
    buffer.record(event({ utmSource: 'b' }));
    stats.failNext = 1;
    await expect(buffer.flush()).rejects.toThrow('unreachable');
    buffer.record(event({ utmSource: 'c' }));
    buffer.record(event({ utmSource: 'a' }));
    expect(buffer.size).toBe(3);
    await buffer.flush();
    expect(stats.written.map((r) => [r.utmSource, r.visits])).toEqual([
      ['a', 2],
      ['b', 1],
      [OTHER_UTM, 1],
    ]);
  });
});

describe('QueryStatsUseCase', () => {
  const query = new QueryStatsUseCase(new Stats());
  it('refuses {} naming both dates at once, each as required', async () => {
    await expect(query.execute('u1', {})).rejects.toMatchObject({
      errors: [
        { name: 'startDate', error: 'startDate is required' },
        { name: 'endDate', error: 'endDate is required' },
      ],
    });
  });

  it.each([
    [{ startDate: '2026-01-01' }, 'endDate'],
    [{ startDate: '2026-1-01', endDate: '2026-01-02' }, 'startDate'],
    [{ startDate: '2026-02-29', endDate: '2026-03-01' }, 'startDate'],
    [{ startDate: '2026-03-02', endDate: '2026-03-01' }, 'endDate'],
    [{ startDate: '2026-01-01', endDate: '2027-01-02' }, 'endDate'],
  ])('refuses %j naming %s', async (params, field) => {
    await expect(query.execute('u1', params)).rejects.toMatchObject({ errors: [{ name: field }] });
  });

  it('accepts a range of exactly 366 days', async () => {
    await expect(query.execute('u1', { startDate: '2028-01-01', endDate: '2028-12-31' })).resolves.toEqual({ all: expect.anything() });
  });

  it('answers one page when start or limit is given (limit 10 by default), every row otherwise', async () => {
    const stats = new Stats();
    stats.written = Array.from({ length: 25 }, (_, i) => ({
      id: String(i),
      date: '2026-05-01',
      linkId: 'l1',
      ownerId: 'u1',
      domainId: null,
      linkName: 'Link',
      domainName: '',
      utmSource: `s${i}`,
      utmMedium: '',
      utmCampaign: '',
      visits: 1,
      passwordPassed: 0,
      passwordFailed: 0,
    }));
    const use = new QueryStatsUseCase(stats);
    const range = { startDate: '2026-05-01', endDate: '2026-05-01' };
    expect(await use.execute('u1', { ...range, start: 20 })).toEqual({
      page: expect.objectContaining({ total: 25, start: 20, limit: 10, items: stats.written.slice(20) }),
    });
    expect(await use.execute('u1', { ...range, limit: 3 })).toEqual({ page: expect.objectContaining({ total: 25, start: 0, limit: 3 }) });
    const all = await use.execute('u1', range);
    const read: StatsRecord[][] = [];
    if ('all' in all) for await (const batch of all.all) read.push(batch);
    expect(read.flat()).toEqual(stats.written);
  });

  it('refuses bad paging values with the dates, naming each field', async () => {
    await expect(query.execute('u1', { startDate: '2026-01-01', start: -1, limit: 101 })).rejects.toMatchObject({
      errors: [{ name: 'endDate' }, { name: 'start' }, { name: 'limit' }],
    });
  });
});

describe('ClickBuffer: dimensions of counted visits', () => {
  const unitOfWork: UnitOfWork = { run: (work) => work() };
  const linkTotals: LinkClickTotals = { addVisits: async () => undefined };
  const metrics: ClickMetrics = { dropped: () => undefined, written: () => undefined, eventsDropped: () => undefined };
  const PHONE = 'phone-ua';
  const LAPTOP = 'laptop-ua';
  const dimensions = () =>
    new FakeClickDimensions(
      { [PHONE]: { device: 'mobile', browser: 'Safari', os: 'iOS' }, [LAPTOP]: { device: 'desktop', browser: 'Firefox', os: 'Linux' } },
      { '81.2.69.160': 'GB' },
    );
  const byDimension = (stats: MemoryStatsRepository) =>
    stats
      .dimensionCounts()
      .reduce<Record<string, Record<string, number>>>(
        (all, d) => ({ ...all, [d.dimension]: { ...all[d.dimension], [d.value]: d.visits } }),
        {},
      );

  it('counts each visit once per dimension, per (day, link), whatever its UTM values', async () => {
    const stats = new MemoryStatsRepository();
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: dimensions() });
    buffer.record(event({ userAgent: PHONE, ip: '81.2.69.160', referer: 'https://news.example/a?b=c' }));
    buffer.record(event({ userAgent: PHONE, ip: '81.2.69.160', referer: 'https://news.example/other', utmSource: 'mail' }));
    buffer.record(event({ userAgent: LAPTOP, trigger: 'qr' }));
    await buffer.flush();
    expect(byDimension(stats)).toEqual({
      referrer: { 'news.example': 2, '(direct)': 1 },
      country: { GB: 2, '(unknown)': 1 },
      device: { mobile: 2, desktop: 1 },
      browser: { Safari: 2, Firefox: 1 },
      os: { iOS: 2, Linux: 1 },
      trigger: { link: 2, qr: 1 },
    });
    expect(stats.dimensionCounts().every((d) => d.date === '2026-05-01' && d.linkId === 'l1' && d.ownerId === 'u1')).toBe(true);
  });

  // The adapter hands a repeated visitor the same traits object: the buffer counts it by identity, then per value.
  it('counts the same many visitor profiles right, whether repeated objects or new ones', async () => {
    const stats = new MemoryStatsRepository();
    const same = { referrer: 'a.example', country: 'GB', device: 'mobile', browser: 'Safari', os: 'iOS' };
    let calls = 0;
    const repeating = { traitsOf: () => (++calls % 3 ? same : { ...same, referrer: `r${calls}.example` }) };
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: repeating,
      options: { maxDimensionValues: 3 },
    });
    for (let i = 0; i < 30; i++) buffer.record(event({ trigger: i % 2 ? 'qr' : 'link' }));
    await buffer.flush();
    expect(byDimension(stats)['referrer']).toEqual({ 'a.example': 20, 'r3.example': 1, 'r6.example': 1, '(other)': 8 });
    expect(byDimension(stats)['trigger']).toEqual({ link: 15, qr: 15 });
    expect(byDimension(stats)['country']).toEqual({ GB: 30 });
  });

  // CLICK_DIMENSIONS=false (an operator who wants no more than counts): nothing is derived from the visitor,
  // nothing but the daily rows written; the visits themselves are all counted.
  it('derives and writes no dimensions when they are off, and still counts every visit', async () => {
    const stats = new MemoryStatsRepository();
    let derived = 0;
    const watched = {
      traitsOf: () => (derived++, { referrer: 'a.example', country: 'GB', device: 'mobile', browser: 'Safari', os: 'iOS' }),
    };
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: watched, options: { dimensions: false } });
    buffer.record(event({ userAgent: PHONE, ip: '81.2.69.160', referer: 'https://news.example/a' }));
    buffer.record(event({ userAgent: PHONE }));
    await buffer.flush();
    expect(derived).toBe(0);
    expect(stats.dimensionCounts()).toEqual([]);
    expect(
      (await stats.page({ ownerId: 'u1', startDate: '2026-05-01', endDate: '2026-05-01' }, PageRequest.of(0, 10))).items.map(
        (r) => r.visits,
      ),
    ).toEqual([2]);
  });

  it('gives password attempts no dimensions (they are not visits), and an unlocked visit its own', async () => {
    const stats = new MemoryStatsRepository();
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: dimensions() });
    buffer.record(event({ kind: 'passwordFailed', userAgent: PHONE }));
    buffer.record(event({ kind: 'passwordPassed', userAgent: PHONE }));
    buffer.record(event({ userAgent: PHONE }));
    await buffer.flush();
    expect(byDimension(stats)['device']).toEqual({ mobile: 1 });
  });

  it('bounds the values of a (day, link, dimension), the rest going to (other), and the bound holds across batches', async () => {
    const stats = new MemoryStatsRepository();
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: dimensions(),
      options: { maxDimensionValues: 2 },
    });
    for (const host of ['a', 'b', 'c', 'd', 'a']) buffer.record(event({ referer: `https://${host}.example/` }));
    await buffer.flush();
    buffer.record(event({ referer: 'https://e.example/' }));
    buffer.record(event({ referer: 'https://b.example/' }));
    await buffer.flush();
    expect(byDimension(stats)['referrer']).toEqual({ 'a.example': 2, 'b.example': 2, '(other)': 3 });
    expect(byDimension(stats)['trigger']).toEqual({ link: 7 });
  });

  it('keeps the dimension counts of a failed write for the next one, with what arrived meanwhile', async () => {
    const stats = new MemoryStatsRepository();
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: dimensions() });
    buffer.record(event({ userAgent: PHONE }));
    stats.failNext = 1;
    await expect(buffer.flush()).rejects.toThrow('database unreachable');
    buffer.record(event({ userAgent: LAPTOP }));
    buffer.record(event({ userAgent: PHONE, utmSource: 'mail' }));
    await buffer.flush();
    expect(byDimension(stats)['device']).toEqual({ mobile: 2, desktop: 1 });
    expect(
      stats
        .dimensionCounts()
        .filter((d) => d.dimension === 'device')
        .reduce((n, d) => n + d.visits, 0),
    ).toBe(3);
  });

  it('keeps no raw Referer, User-Agent or address: only the derived values reach the repository', async () => {
    const stats = new MemoryStatsRepository();
    const buffer = new ClickBuffer({ stats, totals: linkTotals, unitOfWork, metrics, dimensions: dimensions() });
    buffer.record(event({ userAgent: PHONE, ip: '81.2.69.160', referer: 'https://news.example/secret?token=1' }));
    await buffer.flush();
    const stored = JSON.stringify([
      (await stats.page({ ownerId: 'u1', startDate: '2026-05-01', endDate: '2026-05-01' }, PageRequest.of(0, 100))).items,
      stats.dimensionCounts(),
    ]);
    for (const raw of [PHONE, '81.2.69.160', 'secret', 'token']) expect(stored).not.toContain(raw);
  });
});

// A webhook receiver must be told of every counted click: under load the write schedule may wait up to
// CLICK_FLUSH_MAX_INTERVAL, and a bound on held events must not drop them silently meanwhile.
describe('ClickBuffer: link.clicked events', () => {
  const unitOfWork: UnitOfWork = { run: (work) => work() };
  const linkTotals: LinkClickTotals = { addVisits: async () => undefined };

  class Subscriber extends ClickEvents {
    /** Every event written, one per click. */
    recorded: ClickEvent[] = [];
    /** The series each write was given. */
    writes: ClickSeries[][] = [];
    failNext = 0;
    wants(): boolean {
      return true;
    }
    async record(series: ClickSeries[]): Promise<void> {
      if (this.failNext > 0) {
        this.failNext--;
        throw new Error('database unreachable');
      }
      this.writes.push(series.map((s) => ({ kind: { ...s.kind }, ats: [...s.ats] })));
      this.recorded.push(...series.flatMap((s) => s.ats.map((at) => ({ ...s.kind, at: new Date(at) }))));
    }
  }
  const noMetrics: ClickMetrics = { dropped: () => undefined, written: () => undefined, eventsDropped: () => undefined };
  const at = (ms: number) => new Date(Date.UTC(2026, 4, 1, 10) + ms);

  // A hot link's clicks held as an object each were promoted by the garbage collector before their write,
  // and grouped into series again at the write: now each click adds its moment to its kind's series.
  it('holds clicks that differ only in their moment as one series (moments in order of arrival), other kinds apart', async () => {
    const subscriber = new Subscriber();
    const buffer = new ClickBuffer({
      stats: new Stats(),
      totals: linkTotals,
      unitOfWork,
      metrics: noMetrics,
      dimensions: new FakeClickDimensions(),
      options: {},
      clickEvents: subscriber,
    });
    buffer.record(event({ at: at(1) }));
    buffer.record(event({ at: at(2), utmSource: 'mail' }));
    buffer.record(event({ at: at(3) }));
    buffer.record(event({ at: at(4), trigger: 'qr' }));
    buffer.record(event({ at: at(5), utmSource: 'mail' }));
    buffer.record(event({ at: at(6) }));
    await buffer.flush();
    expect(subscriber.writes).toHaveLength(1);
    const [series] = subscriber.writes;
    expect(series.map((s) => [s.kind.utmSource, s.kind.trigger, s.ats.map((ms) => ms - at(0).getTime())])).toEqual([
      ['', 'link', [1, 3, 6]],
      ['mail', 'link', [2, 5]],
      ['', 'qr', [4]],
    ]);
    expect(series[0].kind).toEqual({
      linkId: 'l1',
      ownerId: 'u1',
      domainId: null,
      trigger: 'link',
      referrer: '(direct)',
      country: '(unknown)',
      device: '(unknown)',
      browser: '(unknown)',
      os: '(unknown)',
      utmSource: '',
      utmMedium: '',
      utmCampaign: '',
    });
  });

  it("derives a visit's dimensions once, for its counts and its event alike", async () => {
    const dimensions = new FakeClickDimensions();
    const buffer = new ClickBuffer({
      stats: new Stats(),
      totals: linkTotals,
      unitOfWork,
      metrics: noMetrics,
      dimensions,
      options: {},
      clickEvents: new Subscriber(),
    });
    for (let i = 0; i < 7; i++) buffer.record(event({ at: at(i) }));
    expect(dimensions.calls).toBe(7);
  });

  it('after a failed write, writes its series with those that arrived meanwhile: every moment once', async () => {
    const subscriber = new Subscriber();
    const stats = new Stats();
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics: noMetrics,
      dimensions: new FakeClickDimensions(),
      options: {},
      clickEvents: subscriber,
    });
    for (let i = 0; i < 3; i++) buffer.record(event({ at: at(i) }));
    stats.failNext = 1;
    await expect(buffer.flush()).rejects.toThrow('database unreachable');
    for (let i = 3; i < 5; i++) buffer.record(event({ at: at(i) }));
    await buffer.flush();
    expect(subscriber.recorded.map((e) => e.at.getTime() - at(0).getTime()).sort()).toEqual([0, 1, 2, 3, 4]);
    expect(stats.written.reduce((n, r) => n + r.visits, 0)).toBe(5);
  });

  it('starts a write as soon as it holds eventsPerWrite events, without waiting for the schedule', async () => {
    const subscriber = new Subscriber();
    const metrics: ClickMetrics = { dropped: () => undefined, written: () => undefined, eventsDropped: () => undefined };
    const buffer = new ClickBuffer({
      stats: new Stats(),
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { eventsPerWrite: 5 },
      clickEvents: subscriber,
    });
    for (let i = 0; i < 4; i++) buffer.record(event());
    await new Promise((resolve) => setImmediate(resolve));
    expect(subscriber.recorded).toHaveLength(0);
    buffer.record(event());
    await new Promise((resolve) => setImmediate(resolve));
    expect(subscriber.recorded).toHaveLength(5);
  });

  it('drops events past maxEvents while writes fail, counts them once, and writes the rest and every click later', async () => {
    const subscriber = new Subscriber();
    let eventsDropped = 0;
    const metrics: ClickMetrics = { dropped: () => undefined, written: () => undefined, eventsDropped: (n) => void (eventsDropped += n) };
    const stats = new Stats();
    const buffer = new ClickBuffer({
      stats,
      totals: linkTotals,
      unitOfWork,
      metrics,
      dimensions: new FakeClickDimensions(),
      options: { maxEvents: 10, eventsPerWrite: 1_000 },
      clickEvents: subscriber,
    });
    stats.failNext = 1;
    for (let i = 0; i < 15; i++) buffer.record(event());
    await expect(buffer.flush()).rejects.toThrow('database unreachable');
    expect(eventsDropped).toBe(5);
    await buffer.flush();
    expect(subscriber.recorded).toHaveLength(10);
    expect(stats.written.reduce((n, r) => n + r.visits, 0)).toBe(15);
  });
});

// Shutdown while a timed write is under way: the write has taken the buffer's rows (its size is 0), and
// the drain must wait for it before the database is closed, or that whole batch of clicks is lost.
describe('ClickWriteSchedule.drain over a ClickBuffer with a write under way', () => {
  it('waits for the write under way, and writes every click', async () => {
    let release: () => void = () => undefined;
    const stats = new Stats();
    const slow = stats.addCounts.bind(stats);
    stats.addCounts = async (...args: Parameters<Stats['addCounts']>) => {
      await new Promise<void>((resolve) => (release = resolve));
      return slow(...args);
    };
    const metrics: ClickMetrics = { dropped: () => undefined, written: () => undefined, eventsDropped: () => undefined };
    const buffer = new ClickBuffer({
      stats,
      totals: { addVisits: async () => undefined },
      unitOfWork: { run: (work) => work() },
      metrics,
      dimensions: new FakeClickDimensions(),
    });
    const schedule = new ClickWriteSchedule(buffer, { intervalMs: 1_000, maxIntervalMs: 10_000, onError: () => undefined });
    for (let i = 0; i < 7; i++) buffer.record(event());
    const underWay = buffer.flush();
    expect(buffer.size).toBe(0);
    let drained = false;
    const draining = schedule.drain().then((left) => ((drained = true), left));
    await new Promise((resolve) => setImmediate(resolve));
    expect(drained).toBe(false);
    release();
    await underWay;
    await expect(draining).resolves.toBe(0);
    expect(stats.written.reduce((n, r) => n + r.visits, 0)).toBe(7);
  });
});
