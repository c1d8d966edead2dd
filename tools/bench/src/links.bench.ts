import { benchPlans, percentile, runMain, timeCalls, withBenchApp, writeResult } from './bench-support';

interface CaseResult {
  medianMs: number;
  p95Ms: number;
  ratioToHealth: number;
}

export interface LinksResult {
  benchmark: 'links';
  links: number;
  runs: number;
  results: Record<'health' | 'firstPage' | 'deepPage' | 'search', CaseResult>;
  plans: Record<'firstPage' | 'deepPage' | 'search', string>;
}

/**
 * One account with 100,000 links: latency of the first page, a deep page and a `q` search through the
 * real HTTP API, each as a ratio to GET /health measured in the same run, with the query plans used.
 */
export async function runLinksBench(options: { links?: number; runs?: number } = {}): Promise<LinksResult> {
  const count = options.links ?? Number(process.env['BENCH_LINKS'] ?? 100_000);
  const runs = options.runs ?? Number(process.env['BENCH_RUNS'] ?? 50);
  return withBenchApp({ PLANS: benchPlans(count + 10) }, async (app) => {
    process.stderr.write(`bench: filling one account with ${count} links\n`);
    await app.db.query(
      `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
       SELECT lpad(to_hex(1700000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), $1, 'b' || g,
              'https://example.com/articles/' || g || CASE WHEN g % 1000 = 0 THEN '/summer-sale' ELSE '' END,
              'Article number ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
      [app.userId, count],
    );
    // The steady state autovacuum keeps a table in: statistics and visibility map up to date.
    await app.db.query('VACUUM ANALYZE links');
    const get = (path: string) => async () => {
      const res = await fetch(app.baseUrl + path, { headers: { authorization: `Bearer ${app.token}` } });
      if (!res.ok) throw new Error(`${path}: ${res.status}`);
      await res.arrayBuffer();
    };
    const cases = {
      health: '/health',
      firstPage: '/user/link?limit=20',
      deepPage: `/user/link?limit=20&start=${count - 100}`,
      search: '/user/link?q=summer-sale&limit=20',
    };
    const measured: Partial<Record<keyof typeof cases, { medianMs: number; p95Ms: number }>> = {};
    for (const [name, path] of Object.entries(cases) as [keyof typeof cases, string][]) {
      const times = await timeCalls(get(path), runs);
      measured[name] = { medianMs: +percentile(times, 50).toFixed(2), p95Ms: +percentile(times, 95).toFixed(2) };
    }
    const figures = (name: keyof typeof cases): CaseResult => {
      const own = measured[name];
      const health = measured.health;
      if (!own || !health) throw new Error(`no figures for ${name}`);
      return { ...own, ratioToHealth: +(own.medianMs / health.medianMs).toFixed(2) };
    };
    const results = {
      health: figures('health'),
      firstPage: figures('firstPage'),
      deepPage: figures('deepPage'),
      search: figures('search'),
    };

    const explain = async (sql: string, params: unknown[]) =>
      (await app.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const plans = {
      firstPage: await explain(`SELECT id FROM links l WHERE l.owner_id = $1 ORDER BY l.owner_id, l.id DESC LIMIT 20 OFFSET 0`, [
        app.userId,
      ]),
      deepPage: await explain(
        `SELECT id FROM links l WHERE l.owner_id = $1 ORDER BY l.owner_id, l.id DESC LIMIT 20 OFFSET ${count - 100}`,
        [app.userId],
      ),
      search: await explain(
        'SELECT id FROM links l WHERE l.owner_id = $1 ' +
          `AND lower(l.title || ' ' || l.slug || ' ' || l.url) LIKE $2 ` +
          'ORDER BY l.id DESC LIMIT 20',
        [app.userId, '%summer-sale%'],
      ),
    };
    return { benchmark: 'links' as const, links: count, runs, results, plans };
  });
}

export function printLinks(result: LinksResult, options: { plans?: boolean } = {}): void {
  for (const [name, r] of Object.entries(result.results)) {
    process.stdout.write(
      `${name.padEnd(10)} median ${String(r.medianMs).padStart(7)} ms   p95 ` +
        `${String(r.p95Ms).padStart(7)} ms   ${r.ratioToHealth}x health\n`,
    );
  }
  if (options.plans ?? true) for (const [name, plan] of Object.entries(result.plans)) process.stdout.write(`\nplan of ${name}:\n${plan}\n`);
}

runMain(module, async () => {
  const result = await runLinksBench();
  printLinks(result);
  const file = writeResult('links', result);
  process.stdout.write(`\nsummary written to ${file}\n`);
});
