import { benchPlans, loadTest, ratio, runMain, Throughput, withBenchApp, writeResult } from './bench-support';

const CONNECTIONS = 32;

export interface ApiLoad extends Throughput {
  /** requests/s of this route over requests/s of GET /health in the same run (below 1: slower). */
  throughputRatioToHealth: number;
  /** p50 latency of this route over that of GET /health under the same load (above 1: slower). */
  p50RatioToHealth: number;
}

export interface ApiResult {
  benchmark: 'api';
  connections: number;
  seconds: number;
  /** Links the account holds (made in SQL) when the list is measured. */
  seededLinks: number;
  health: Throughput;
  /** GET /user/link?limit=20 with the bench token. */
  list: ApiLoad;
  /** POST /user/link with the bench token, a unique slug each. */
  create: ApiLoad & { linksCreated: number };
}

const non2xx = (load: Throughput) => Object.entries(load.statusCodes).filter(([code]) => !code.startsWith('2'));

/**
 * Throughput of the authenticated API under closed-loop load (autocannon, CONNECTIONS connections):
 * creating links and listing them, each against GET /health loaded the same way in the same run.
 */
export async function runApiBench(options: { seconds?: number; links?: number } = {}): Promise<ApiResult> {
  const seconds = options.seconds ?? Number(process.env['BENCH_SECONDS'] ?? 10);
  const seeded = options.links ?? Number(process.env['BENCH_API_LINKS'] ?? 1_000);
  return withBenchApp({ PLANS: benchPlans(10_000_000) }, async (app) => {
    await app.db.query(
      `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
       SELECT lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), $1, 'seed' || g,
              'https://example.com/articles/' || g, 'Article number ' || g, now(), now()
         FROM generate_series(1, $2::int) AS g`,
      [app.userId, seeded],
    );
    await app.db.query('VACUUM ANALYZE links');
    const authorization = `Bearer ${app.token}`;

    const health = (await loadTest({ url: `${app.baseUrl}/health`, connections: CONNECTIONS }, seconds)).measured;
    const list = (await loadTest({ url: `${app.baseUrl}/user/link?limit=20`, connections: CONNECTIONS, headers: { authorization } }, seconds)).measured;
    let slug = 0;
    const create = (
      await loadTest(
        {
          url: app.baseUrl,
          connections: CONNECTIONS,
          requests: [
            {
              method: 'POST',
              path: '/user/link',
              headers: { authorization, 'content-type': 'application/json' },
              setupRequest: (request) => ({ ...request, body: JSON.stringify({ url: `https://example.com/landing/${++slug}`, slug: `api-${slug}`, title: `Bench link ${slug}` }) }),
            },
          ],
        },
        seconds,
      )
    ).measured;
    const { rows } = await app.db.query<{ count: string }>(`SELECT count(*) AS count FROM links WHERE slug LIKE 'api-%'`);

    const against = (load: Throughput): ApiLoad => ({ ...load, throughputRatioToHealth: ratio(load.requestsPerSecond, health.requestsPerSecond), p50RatioToHealth: ratio(load.p50Ms, health.p50Ms) });
    const result: ApiResult = {
      benchmark: 'api',
      connections: CONNECTIONS,
      seconds,
      seededLinks: seeded,
      health,
      list: against(list),
      create: { ...against(create), linksCreated: Number(rows[0].count) },
    };
    for (const [name, load] of [['health', health], ['list', list], ['create', create]] as const) {
      const other = non2xx(load);
      if (other.length || load.errors) process.stderr.write(`bench: ${name} had answers other than 2xx: ${JSON.stringify(Object.fromEntries(other))}, ${load.errors} connection errors\n`);
    }
    return result;
  });
}

export function printApi(result: ApiResult): void {
  const line = (name: string, load: Throughput, extra = '') =>
    `${name.padEnd(28)} ${String(load.requestsPerSecond).padStart(6)} req/s   p50 ${String(load.p50Ms).padStart(6)} ms   p99 ${String(load.p99Ms).padStart(6)} ms${extra}\n`;
  process.stdout.write(line('GET /health', result.health));
  process.stdout.write(line('GET /user/link?limit=20', result.list, `   ${result.list.throughputRatioToHealth}x health req/s`));
  process.stdout.write(line('POST /user/link', result.create, `   ${result.create.throughputRatioToHealth}x health req/s (${result.create.linksCreated} links made)`));
}

runMain(module, async () => {
  const result = await runApiBench();
  printApi(result);
  process.stdout.write(`summary written to ${writeResult('api', result)}\n`);
});
