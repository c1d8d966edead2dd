import { readFileSync } from 'node:fs';
import {
  benchPlans,
  BenchApp,
  envNumber,
  httpCall,
  Latency,
  latencyOf,
  ratio,
  runMain,
  timeCalls,
  withBenchApp,
  writeResult,
} from './bench-support';

const DAY_MS = 86_400_000;

export interface StatsResult {
  benchmark: 'stats';
  links: number;
  days: number;
  /** Rows of link_daily_stats for the account (links x days). */
  rows: number;
  startDate: string;
  endDate: string;
  health: Latency;
  /** GET /user/stats?startDate&endDate over the whole year, sequential calls. */
  stats: Latency & { p50RatioToHealth: number; records: number; responseBytes: number };
  /** The first whole-year call, read as it streams, with the app process's resident memory sampled meanwhile. */
  streamed: StreamedFigures;
  /** Pages of 100 (the most a page holds): the first of the range and the last. */
  pages: { first: Latency; last: Latency };
  /** The plan of a keyset batch of the streamed answer, past the first (a batch in the middle of the range). */
  plan: string;
  /** Rows of link_daily_dimensions seeded for the account (every dimension, every link and day). */
  dimensionRows: number;
  /** The statistics views over the whole period, sequential calls: for one link (linkId) and for the whole account. */
  views: ViewLatency[];
  /** Issue 17: breakdown and time series for one link over the period answer with p95 < 50 ms. */
  oneLinkBar: { p95LimitMs: number; worstP95Ms: number; met: boolean };
  /** EXPLAIN (ANALYZE, BUFFERS) of the whole account's queries (breakdown by referrer, daily series, top links). */
  accountPlans: Record<string, string>;
}

export interface ViewLatency extends Latency {
  name: string;
  scope: 'link' | 'account';
  path: string;
  p50RatioToHealth: number;
  /** Entries answered (meta.total of the first call). */
  entries: number;
}

export interface StreamedFigures {
  ms: number;
  /** Time to the first byte of the body. */
  firstByteMs: number;
  bytes: number;
  records: number;
  /** Resident memory of the app just before the call, and the most it reached during it (MB). */
  rssBeforeMb: number;
  rssPeakMb: number;
  rssGrowthMb: number;
}

const MB = 1024 * 1024;

/** Resident set of a process (Linux), in bytes. */
function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB/m);
  return line ? Number(line[1]) * 1024 : 0;
}

/**
 * One GET read chunk by chunk (the client holds none of the body: only its length and last bytes), the
 * app's RSS sampled every 5 ms meanwhile.
 */
async function streamedCall(url: string, headers: Record<string, string>, pid: number): Promise<StreamedFigures> {
  const before = rssOf(pid);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 5);
  try {
    const started = performance.now();
    const res = await fetch(url, { headers });
    if (!res.ok || !res.body) throw new Error(`GET ${url}: ${res.status}`);
    let bytes = 0;
    let firstByteMs = 0;
    let tail = '';
    const decoder = new TextDecoder();
    for await (const chunk of res.body) {
      if (!bytes) firstByteMs = performance.now() - started;
      bytes += chunk.byteLength;
      tail = (tail + decoder.decode(chunk, { stream: true })).slice(-200);
      peak = Math.max(peak, rssOf(pid));
    }
    const ms = performance.now() - started;
    const records = Number(/"meta":\{"total":(\d+)\}\}$/.exec(tail)?.[1] ?? NaN);
    const mb = (n: number) => +(n / MB).toFixed(1);
    return {
      ms: Math.round(ms),
      firstByteMs: Math.round(firstByteMs),
      bytes,
      records,
      rssBeforeMb: mb(before),
      rssPeakMb: mb(peak),
      rssGrowthMb: mb(peak - before),
    };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * Realistic value spreads of the dimension rollups. Countries: a few dozen, a skewed start (most link-days
 * begin at the first ones). Referrers: `(direct)` and a few big hosts, then a long tail of hundreds of
 * hosts. Each link-day has `perDay` distinct values of a dimension: consecutive entries of the list from a
 * start drawn as floor(n * random()^skew), so a high skew keeps most rows at the head of the list and a
 * few in its tail; the visits of the day split over them by halves (1/2, 1/4, ...).
 */
const COUNTRIES = [
  'US',
  'IN',
  'DE',
  'GB',
  'FR',
  'BR',
  'CA',
  'JP',
  'ES',
  'IT',
  'NL',
  'PL',
  'MX',
  'AU',
  'SE',
  'TR',
  'ID',
  'KR',
  'CH',
  'BE',
  'AR',
  'AT',
  'PT',
  'NG',
  'PH',
  'ZA',
  'DK',
  'NO',
  'FI',
  'IE',
  'CZ',
  'RO',
  'VN',
  'CO',
  'UA',
  'IL',
  'GR',
  'HU',
  'NZ',
  '(unknown)',
];
const REFERRERS = [
  '(direct)',
  'google.com',
  't.co',
  'www.facebook.com',
  'www.linkedin.com',
  'news.ycombinator.com',
  'www.reddit.com',
  'duckduckgo.com',
  'l.instagram.com',
  'bing.com',
  ...Array.from({ length: 390 }, (_, i) => `blog-${i + 1}.example.org`),
];
const DIMENSION_SPREADS: { dimension: string; values: string[]; perDay: number; skew: number }[] = [
  { dimension: 'country', values: COUNTRIES, perDay: 4, skew: 2.5 },
  { dimension: 'referrer', values: REFERRERS, perDay: 3, skew: 4 },
  { dimension: 'device', values: ['desktop', 'mobile', 'tablet'], perDay: 2, skew: 1.5 },
  {
    dimension: 'browser',
    values: ['Chrome', 'Safari', 'Firefox', 'Microsoft Edge', 'Samsung Internet for Android', 'Opera'],
    perDay: 3,
    skew: 2,
  },
  { dimension: 'os', values: ['Windows', 'iOS', 'Android', 'macOS', 'Linux', 'Chrome OS'], perDay: 3, skew: 2 },
  { dimension: 'trigger', values: ['link', 'qr'], perDay: 1, skew: 3 },
];

/** The bench's link ids (24 hex characters) of link number `g` (SQL). */
const linkIdOf = (g: string) => `lpad(to_hex(1700000000 + ${g}), 8, '0') || lpad(to_hex(${g}), 16, '0')`;
/** The visits of link `g` on day `d` of the period (SQL), as link_daily_stats holds them. */
const visitsOf = (g: string, d: string) => `(1 + (${g} * 7 + ${d} * 13) % 97)`;

/** One INSERT ... SELECT per dimension (generate_series, no row-by-row round trip); answers the rows written. */
async function seedDimensions(app: BenchApp, links: number, days: number, startDate: string): Promise<number> {
  await app.db.query('SELECT setseed(0.17)');
  let rows = 0;
  for (const { dimension, values, perDay, skew } of DIMENSION_SPREADS) {
    // `pick` is drawn once per (link, day): the LATERAL subquery refers to g and d, so it is not hoisted.
    const inserted = await app.db.query(
      `INSERT INTO link_daily_dimensions (date, link_id, dimension, value, owner_id, domain_id, visits)
       SELECT $3::date + d, ${linkIdOf('g')}, $5, ($6::text[])[1 + (pick.start + k) % cardinality($6::text[])], $1, NULL,
              greatest(1, floor(${visitsOf('g', 'd')} * power(0.5, k + 1)))::bigint
         FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, $4::int - 1) AS d
         CROSS JOIN LATERAL (SELECT floor(cardinality($6::text[]) * power(random(), $8::float8))::int + 0 * g + 0 * d AS start) AS pick
         CROSS JOIN generate_series(0, $7::int - 1) AS k`,
      [app.userId, links, startDate, days, dimension, values, perDay, skew],
    );
    rows += inserted.rowCount ?? 0;
  }
  // Some of the visits came from the links' QR codes: a `qr` row besides `link` on one link-day in five.
  const qr = await app.db.query(
    `INSERT INTO link_daily_dimensions (date, link_id, dimension, value, owner_id, domain_id, visits)
     SELECT $3::date + d, ${linkIdOf('g')}, 'trigger', 'qr', $1, NULL, greatest(1, ${visitsOf('g', 'd')} / 5)
       FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, $4::int - 1) AS d
      WHERE (g + d) % 5 = 0
     ON CONFLICT (date, link_id, dimension, value) DO NOTHING`,
    [app.userId, links, startDate, days],
  );
  return rows + (qr.rowCount ?? 0);
}

/** `EXPLAIN (ANALYZE, BUFFERS)` of a statement, as text. */
async function explain(app: BenchApp, statement: string, params: unknown[]): Promise<string> {
  const { rows } = await app.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${statement}`, params);
  return rows.map((r) => r['QUERY PLAN']).join('\n');
}

/**
 * One account with 1,000 links and a year of daily rollups each (one row per link and day, no UTM
 * values): latency of GET /user/stats over that whole year, against GET /health in the same run; the first
 * whole-year call (before the timed ones) read as it streams, with the app's peak RSS growth (issue 17: under 50 MB),
 * and the first and last pages of 100. The same account's dimension rollups (DIMENSION_SPREADS) and the
 * statistics views over the year, for one link and for the whole account: breakdowns by country and by
 * referrer, time series by day, week and month, top links (issue 17: one link's breakdown and series,
 * p95 < 50 ms). BENCH_STATS_LINKS, BENCH_STATS_DAYS and BENCH_STATS_RUNS shrink the run;
 * BENCH_APP_NODE_ARGS gives the app's node flags (e.g. `--max-old-space-size=96`, to see how much of the
 * RSS growth is garbage V8 has not collected yet).
 */
export async function runStatsBench(options: { links?: number; days?: number; runs?: number } = {}): Promise<StatsResult> {
  const links = options.links ?? envNumber('BENCH_STATS_LINKS', 1_000);
  const days = options.days ?? Math.min(envNumber('BENCH_STATS_DAYS', 365), 366);
  const runs = options.runs ?? envNumber('BENCH_STATS_RUNS', 30);
  const endDate = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  const startDate = new Date(Date.parse(`${endDate}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return withBenchApp(
    { PLANS: benchPlans(links + 10) },
    async (app) => {
      process.stderr.write(`bench: ${links} links with ${days} days of daily rollups each\n`);
      const linkId = linkIdOf;
      await app.db.query(
        `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
       SELECT ${linkId('g')}, $1, 's' || g, 'https://example.com/articles/' || g, 'Article number ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
        [app.userId, links],
      );
      const inserted = await app.db.query(
        `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
          visits, password_passed, password_failed)
       SELECT lpad(to_hex(1800000000 + d), 8, '0') || lpad(to_hex(g), 16, '0'), $3::date + d, ${linkId('g')}, $1, NULL,
              's' || g, 'lnk.bench', '', '', '', ${visitsOf('g', 'd')}, 0, 0
         FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, $4::int - 1) AS d`,
        [app.userId, links, startDate, days],
      );
      const seeding = performance.now();
      const dimensionRows = await seedDimensions(app, links, days, startDate);
      process.stderr.write(`bench: ${dimensionRows} dimension rows seeded in ${Math.round((performance.now() - seeding) / 1000)} s\n`);
      await app.db.query('VACUUM ANALYZE link_daily_stats');
      await app.db.query('VACUUM ANALYZE link_daily_dimensions');

      const health = latencyOf(await timeCalls(httpCall(`${app.baseUrl}/health`), runs));
      const path = `/user/stats?startDate=${startDate}&endDate=${endDate}`;
      const headers = { authorization: `Bearer ${app.token}` };
      // On the app as it started (only GET /health called): the RSS growth then includes the heap's first growth.
      const streamed = await streamedCall(app.baseUrl + path, headers, app.process.pid as number);
      const first = await fetch(app.baseUrl + path, { headers });
      if (!first.ok) throw new Error(`GET ${path}: ${first.status} ${await first.text()}`);
      const firstBody = await first.text();
      const records = (JSON.parse(firstBody) as { meta: { total: number } }).meta.total;
      const stats = latencyOf(await timeCalls(httpCall(app.baseUrl + path, { headers }), runs, 2));
      const pageRuns = Math.max(5, Math.min(runs, 20));
      const pages = {
        first: latencyOf(await timeCalls(httpCall(`${app.baseUrl}${path}&start=0&limit=100`, { headers }), pageRuns, 2)),
        last: latencyOf(
          await timeCalls(httpCall(`${app.baseUrl}${path}&start=${Math.max(records - 100, 0)}&limit=100`, { headers }), pageRuns, 2),
        ),
      };

      // The statistics views, one after the other: a link in the middle of the account, then the whole account.
      const oneLink = (await app.db.query<{ id: string }>(`SELECT ${linkIdOf('$1::int')} AS id`, [Math.ceil(links / 2)])).rows[0].id;
      const period = `startDate=${startDate}&endDate=${endDate}`;
      const viewPaths: [string, string][] = [
        ['countries', `/user/stats/countries?${period}`],
        ['referrers', `/user/stats/referrers?${period}`],
        ['series by day', `/user/stats/timeseries?${period}&interval=day`],
        ['series by week', `/user/stats/timeseries?${period}&interval=week`],
        ['series by month', `/user/stats/timeseries?${period}&interval=month`],
      ];
      const views: ViewLatency[] = [];
      const measureView = async (name: string, scope: 'link' | 'account', viewPath: string) => {
        const res = await fetch(app.baseUrl + viewPath, { headers });
        if (!res.ok) throw new Error(`GET ${viewPath}: ${res.status} ${await res.text()}`);
        const entries = ((await res.json()) as { meta: { total: number } }).meta.total;
        const latency = latencyOf(await timeCalls(httpCall(app.baseUrl + viewPath, { headers }), runs, 3));
        views.push({ name, scope, path: viewPath, ...latency, p50RatioToHealth: ratio(latency.p50Ms, health.p50Ms), entries });
      };
      for (const [name, viewPath] of viewPaths) await measureView(name, 'link', `${viewPath}&linkId=${oneLink}`);
      for (const [name, viewPath] of viewPaths) await measureView(name, 'account', viewPath);
      await measureView('top links', 'account', `/user/stats/links?${period}&limit=10`);
      const p95LimitMs = 50;
      const worstP95Ms = Math.max(...views.filter((v) => v.scope === 'link').map((v) => v.p95Ms));

      // The plans of the whole account's statements, as the adapter (TypeormStatsInsightRepository) sends them.
      const accountPlans = {
        referrers: await explain(
          app,
          `SELECT value, sum(visits)::bigint AS visits FROM link_daily_dimensions
          WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date AND dimension = $4
          GROUP BY value ORDER BY visits DESC, value LIMIT $5`,
          [app.userId, startDate, endDate, 'referrer', 10],
        ),
        seriesByDay: await explain(
          app,
          `WITH counted AS (
           SELECT date_trunc($4, date)::date AS bucket, sum(visits)::bigint AS visits
             FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date GROUP BY 1
         )
         SELECT to_char(b.bucket, 'YYYY-MM-DD') AS date, COALESCE(c.visits, 0)::bigint AS visits
           FROM (SELECT generate_series(date_trunc($4, $2::date), $3::date, ('1 ' || $4)::interval)::date AS bucket) AS b
           LEFT JOIN counted c ON c.bucket = b.bucket
          ORDER BY b.bucket`,
          [app.userId, startDate, endDate, 'day'],
        ),
        topLinks: await explain(
          app,
          `SELECT link_id, (array_agg(link_name ORDER BY date DESC))[1] AS link_name, (array_agg(domain_id ORDER BY date DESC))[1]
            AS domain_id,
                (array_agg(domain_name ORDER BY date DESC))[1] AS domain_name, sum(visits)::bigint AS visits
           FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date
          GROUP BY link_id HAVING sum(visits) > 0
          ORDER BY visits DESC, link_id LIMIT $4`,
          [app.userId, startDate, endDate, 10],
        ),
      };

      const middle = (
        await app.db.query<Record<string, string>>(
          `SELECT to_char(date, 'YYYY-MM-DD') AS date, link_name, utm_source, utm_medium, utm_campaign, id FROM link_daily_stats
        WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date ORDER BY date, link_name, utm_source, utm_medium, utm_campaign, id
          OFFSET $4 LIMIT 1`,
          [app.userId, startDate, endDate, Math.floor(records / 2)],
        )
      ).rows[0];
      const plan = (
        await app.db.query<{ 'QUERY PLAN': string }>(
          `EXPLAIN SELECT id, to_char(date, 'YYYY-MM-DD') AS date, link_id, owner_id, domain_id, link_name, domain_name, utm_source,
            utm_medium, utm_campaign,
                visits, password_passed, password_failed
           FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date
            AND date >= $4::date AND (date, link_name, utm_source, utm_medium, utm_campaign, id) > ($4::date, $5, $6, $7, $8, $9)
          ORDER BY link_daily_stats.date, link_name, utm_source, utm_medium, utm_campaign, id LIMIT 1000`,
          [
            app.userId,
            startDate,
            endDate,
            middle?.['date'] ?? startDate,
            middle?.['link_name'] ?? '',
            middle?.['utm_source'] ?? '',
            middle?.['utm_medium'] ?? '',
            middle?.['utm_campaign'] ?? '',
            middle?.['id'] ?? '',
          ],
        )
      ).rows
        .map((r) => r['QUERY PLAN'])
        .join('\n');
      return {
        benchmark: 'stats' as const,
        links,
        days,
        rows: inserted.rowCount ?? 0,
        startDate,
        endDate,
        health,
        stats: { ...stats, p50RatioToHealth: ratio(stats.p50Ms, health.p50Ms), records, responseBytes: Buffer.byteLength(firstBody) },
        streamed,
        pages,
        plan,
        dimensionRows,
        views,
        oneLinkBar: { p95LimitMs, worstP95Ms, met: worstP95Ms < p95LimitMs },
        accountPlans,
      };
    },
    (process.env['BENCH_APP_NODE_ARGS'] ?? '').split(' ').filter(Boolean),
  );
}

export function printStats(result: StatsResult, options: { plan?: boolean } = {}): void {
  process.stdout.write(
    `GET /health (sequential)  p50 ${result.health.p50Ms} ms   p95 ${result.health.p95Ms} ms   p99 ${result.health.p99Ms} ms\n`,
  );
  process.stdout.write(
    `GET /user/stats (${result.days} days, ${result.stats.records} records, ${(result.stats.responseBytes / 1e6).toFixed(1)} ` +
      `MB)  p50 ${result.stats.p50Ms} ms   p99 ${result.stats.p99Ms} ms   ${result.stats.p50RatioToHealth}x health\n`,
  );
  const s = result.streamed;
  process.stdout.write(
    `GET /user/stats streamed once (${s.records} records, ${(s.bytes / 1e6).toFixed(1)} MB)  ${s.ms} ms, first byte ` +
      `${s.firstByteMs} ms   app RSS ${s.rssBeforeMb} MB -> peak ${s.rssPeakMb} MB (growth ${s.rssGrowthMb} MB)\n`,
  );
  process.stdout.write(
    `GET /user/stats pages of 100   first p50 ${result.pages.first.p50Ms} ms   last p50 ${result.pages.last.p50Ms} ms\n`,
  );
  process.stdout.write(`\nstatistics views over ${result.days} days (${result.dimensionRows} dimension rows; sequential calls; ms)\n`);
  const header = ['view', 'of', 'entries', 'p50', 'p95', 'p99', 'x health'];
  const table = result.views.map((v) => [
    v.name,
    v.scope === 'link' ? 'one link' : 'account',
    String(v.entries),
    v.p50Ms.toFixed(2),
    v.p95Ms.toFixed(2),
    v.p99Ms.toFixed(2),
    String(v.p50RatioToHealth),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  for (const row of [header, ...table])
    process.stdout.write(`${row.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join('  ')}\n`);
  const bar = result.oneLinkBar;
  process.stdout.write(
    `one link, breakdown and series: worst p95 ${bar.worstP95Ms} ms (issue 17: < ${bar.p95LimitMs} ms) ${bar.met ? 'met' : 'NOT met'}\n`,
  );
  if (options.plan ?? true) {
    process.stdout.write(`\nplan of a keyset batch in the middle of the range:\n${result.plan}\n`);
    for (const [name, plan] of Object.entries(result.accountPlans))
      process.stdout.write(`\nplan of the whole account's ${name}:\n${plan}\n`);
  }
}

runMain(module, async () => {
  const result = await runStatsBench();
  printStats(result);
  process.stdout.write(`summary written to ${writeResult('stats', result)}\n`);
});
