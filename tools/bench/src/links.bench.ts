import { writeFileSync, mkdirSync } from 'node:fs';
import { benchDatabase, percentile, startBenchApp, timeCalls } from './bench-support';

/**
 * One account with 100,000 links: latency of the first page, a deep page and a `q` search through the
 * real HTTP API, each as a ratio to GET /health measured in the same run, with the query plans used.
 */
async function main(): Promise<void> {
  const count = Number(process.env['BENCH_LINKS'] ?? 100_000);
  const runs = Number(process.env['BENCH_RUNS'] ?? 50);
  const database = await benchDatabase();
  const app = await startBenchApp(database.url, { PLANS: JSON.stringify([{ id: 'free', name: 'Free', price: 0, maxDomains: 1, maxLinks: count + 10, maxTags: 10 }]) }).catch(async (error) => {
    await database.drop();
    throw error;
  });
  try {
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
    const cases: Record<string, string> = {
      health: '/health',
      firstPage: '/user/link?limit=20',
      deepPage: `/user/link?limit=20&start=${count - 100}`,
      search: '/user/link?q=summer-sale&limit=20',
    };
    const results: Record<string, { medianMs: number; p95Ms: number; ratioToHealth?: number }> = {};
    for (const [name, path] of Object.entries(cases)) {
      const times = await timeCalls(get(path), runs);
      results[name] = { medianMs: +percentile(times, 50).toFixed(2), p95Ms: +percentile(times, 95).toFixed(2) };
    }
    for (const name of Object.keys(cases)) results[name].ratioToHealth = +(results[name].medianMs / results['health'].medianMs).toFixed(2);

    const explain = async (sql: string, params: unknown[]) =>
      (await app.db.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, params)).rows.map((r) => r['QUERY PLAN']).join('\n');
    const plans = {
      firstPage: await explain(`SELECT id FROM links l WHERE l.owner_id = $1 ORDER BY l.owner_id, l.id DESC LIMIT 20 OFFSET 0`, [app.userId]),
      deepPage: await explain(`SELECT id FROM links l WHERE l.owner_id = $1 ORDER BY l.owner_id, l.id DESC LIMIT 20 OFFSET ${count - 100}`, [app.userId]),
      search: await explain(`SELECT id FROM links l WHERE l.owner_id = $1 AND lower(l.title || ' ' || l.slug || ' ' || l.url) LIKE $2 ORDER BY l.id DESC LIMIT 20`, [app.userId, '%summer-sale%']),
    };
    const summary = { benchmark: 'links', links: count, runs, results, plans };
    for (const [name, r] of Object.entries(results)) {
      process.stdout.write(`${name.padEnd(10)} median ${String(r.medianMs).padStart(7)} ms   p95 ${String(r.p95Ms).padStart(7)} ms   ${r.ratioToHealth}x health\n`);
    }
    for (const [name, plan] of Object.entries(plans)) process.stdout.write(`\nplan of ${name}:\n${plan}\n`);
    mkdirSync('tmp/bench', { recursive: true });
    writeFileSync('tmp/bench/links.json', JSON.stringify(summary, null, 2));
    process.stdout.write('\nsummary written to tmp/bench/links.json\n');
  } finally {
    await app.close();
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
