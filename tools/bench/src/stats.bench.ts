import { benchPlans, httpCall, Latency, latencyOf, ratio, runMain, timeCalls, withBenchApp, writeResult } from './bench-support';

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
  plan: string;
}

/**
 * One account with 1,000 links and a year of daily rollups each (one row per link and day, no UTM
 * values): latency of GET /user/stats over that whole year, against GET /health in the same run.
 */
export async function runStatsBench(options: { links?: number; days?: number; runs?: number } = {}): Promise<StatsResult> {
  const links = options.links ?? Number(process.env['BENCH_STATS_LINKS'] ?? 1_000);
  const days = options.days ?? 365;
  const runs = options.runs ?? Number(process.env['BENCH_STATS_RUNS'] ?? 30);
  const endDate = new Date(Date.now() - DAY_MS).toISOString().slice(0, 10);
  const startDate = new Date(Date.parse(`${endDate}T00:00:00Z`) - (days - 1) * DAY_MS).toISOString().slice(0, 10);
  return withBenchApp({ PLANS: benchPlans(links + 10) }, async (app) => {
    process.stderr.write(`bench: ${links} links with ${days} days of daily rollups each\n`);
    const linkId = (g: string) => `lpad(to_hex(1700000000 + ${g}), 8, '0') || lpad(to_hex(${g}), 16, '0')`;
    await app.db.query(
      `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
       SELECT ${linkId('g')}, $1, 's' || g, 'https://example.com/articles/' || g, 'Article number ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
      [app.userId, links],
    );
    const inserted = await app.db.query(
      `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign, visits, password_passed, password_failed)
       SELECT lpad(to_hex(1800000000 + d), 8, '0') || lpad(to_hex(g), 16, '0'), $3::date + d, ${linkId('g')}, $1, NULL,
              's' || g, 'lnk.bench', '', '', '', 1 + (g * 7 + d * 13) % 97, 0, 0
         FROM generate_series(1, $2::int) AS g CROSS JOIN generate_series(0, $4::int - 1) AS d`,
      [app.userId, links, startDate, days],
    );
    await app.db.query('VACUUM ANALYZE link_daily_stats');

    const health = latencyOf(await timeCalls(httpCall(`${app.baseUrl}/health`), runs));
    const path = `/user/stats?startDate=${startDate}&endDate=${endDate}`;
    const headers = { authorization: `Bearer ${app.token}` };
    const first = await fetch(app.baseUrl + path, { headers });
    if (!first.ok) throw new Error(`GET ${path}: ${first.status} ${await first.text()}`);
    const firstBody = await first.text();
    const records = (JSON.parse(firstBody) as { meta: { total: number } }).meta.total;
    const stats = latencyOf(await timeCalls(httpCall(app.baseUrl + path, { headers }), runs, 2));

    const plan = (
      await app.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id, to_char(date, 'YYYY-MM-DD') AS date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
                visits, password_passed, password_failed
           FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date
          ORDER BY date, link_name, utm_source, utm_medium, utm_campaign`,
        [app.userId, startDate, endDate],
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
      plan,
    };
  });
}

export function printStats(result: StatsResult, options: { plan?: boolean } = {}): void {
  process.stdout.write(`GET /health (sequential)  p50 ${result.health.p50Ms} ms   p99 ${result.health.p99Ms} ms\n`);
  process.stdout.write(
    `GET /user/stats (${result.days} days, ${result.stats.records} records, ${(result.stats.responseBytes / 1e6).toFixed(1)} MB)  p50 ${result.stats.p50Ms} ms   p99 ${result.stats.p99Ms} ms   ${result.stats.p50RatioToHealth}x health\n`,
  );
  if (options.plan ?? true) process.stdout.write(`\nplan of the stats query:\n${result.plan}\n`);
}

runMain(module, async () => {
  const result = await runStatsBench();
  printStats(result);
  process.stdout.write(`summary written to ${writeResult('stats', result)}\n`);
});
