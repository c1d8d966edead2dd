import { readFileSync } from 'node:fs';
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
  /** The first whole-year call, read as it streams, with the app process's resident memory sampled meanwhile. */
  streamed: StreamedFigures;
  /** Pages of 100 (the most a page holds): the first of the range and the last. */
  pages: { first: Latency; last: Latency };
  /** The plan of a keyset batch of the streamed answer, past the first (a batch in the middle of the range). */
  plan: string;
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
    return { ms: Math.round(ms), firstByteMs: Math.round(firstByteMs), bytes, records, rssBeforeMb: mb(before), rssPeakMb: mb(peak), rssGrowthMb: mb(peak - before) };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * One account with 1,000 links and a year of daily rollups each (one row per link and day, no UTM
 * values): latency of GET /user/stats over that whole year, against GET /health in the same run; the first
 * whole-year call (before the timed ones) read as it streams, with the app's peak RSS growth (issue 17: under 50 MB),
 * and the first and last pages of 100. BENCH_STATS_LINKS and BENCH_STATS_RUNS shrink the run;
 * BENCH_APP_NODE_ARGS gives the app's node flags (e.g. `--max-old-space-size=96`, to see how much of the
 * RSS growth is garbage V8 has not collected yet).
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
      last: latencyOf(await timeCalls(httpCall(`${app.baseUrl}${path}&start=${Math.max(records - 100, 0)}&limit=100`, { headers }), pageRuns, 2)),
    };

    const middle = (await app.db.query<Record<string, string>>(
      `SELECT to_char(date, 'YYYY-MM-DD') AS date, link_name, utm_source, utm_medium, utm_campaign, id FROM link_daily_stats
        WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date ORDER BY date, link_name, utm_source, utm_medium, utm_campaign, id OFFSET $4 LIMIT 1`,
      [app.userId, startDate, endDate, Math.floor(records / 2)],
    )).rows[0];
    const plan = (
      await app.db.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT id, to_char(date, 'YYYY-MM-DD') AS date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
                visits, password_passed, password_failed
           FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date
            AND date >= $4::date AND (date, link_name, utm_source, utm_medium, utm_campaign, id) > ($4::date, $5, $6, $7, $8, $9)
          ORDER BY link_daily_stats.date, link_name, utm_source, utm_medium, utm_campaign, id LIMIT 1000`,
        [app.userId, startDate, endDate, middle?.['date'] ?? startDate, middle?.['link_name'] ?? '', middle?.['utm_source'] ?? '', middle?.['utm_medium'] ?? '', middle?.['utm_campaign'] ?? '', middle?.['id'] ?? ''],
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
    };
  }, (process.env['BENCH_APP_NODE_ARGS'] ?? '').split(' ').filter(Boolean));
}

export function printStats(result: StatsResult, options: { plan?: boolean } = {}): void {
  process.stdout.write(`GET /health (sequential)  p50 ${result.health.p50Ms} ms   p99 ${result.health.p99Ms} ms\n`);
  process.stdout.write(
    `GET /user/stats (${result.days} days, ${result.stats.records} records, ${(result.stats.responseBytes / 1e6).toFixed(1)} MB)  p50 ${result.stats.p50Ms} ms   p99 ${result.stats.p99Ms} ms   ${result.stats.p50RatioToHealth}x health\n`,
  );
  const s = result.streamed;
  process.stdout.write(
    `GET /user/stats streamed once (${s.records} records, ${(s.bytes / 1e6).toFixed(1)} MB)  ${s.ms} ms, first byte ${s.firstByteMs} ms   app RSS ${s.rssBeforeMb} MB -> peak ${s.rssPeakMb} MB (growth ${s.rssGrowthMb} MB)\n`,
  );
  process.stdout.write(`GET /user/stats pages of 100   first p50 ${result.pages.first.p50Ms} ms   last p50 ${result.pages.last.p50Ms} ms\n`);
  if (options.plan ?? true) process.stdout.write(`\nplan of a keyset batch in the middle of the range:\n${result.plan}\n`);
}

runMain(module, async () => {
  const result = await runStatsBench();
  printStats(result);
  process.stdout.write(`summary written to ${writeResult('stats', result)}\n`);
});
