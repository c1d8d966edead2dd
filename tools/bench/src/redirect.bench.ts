import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { benchDatabase, startBenchApp } from './bench-support';

const CONNECTIONS = 64;
const DURATION_S = Number(process.env['BENCH_SECONDS'] ?? 10);

interface Load {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** 302 answers of the warm-up and the measured run together. */
  answered302: number;
}

const redirectsOf = (result: autocannon.Result) => (result.statusCodeStats as unknown as Record<string, { count: number }>)['302']?.count ?? 0;

async function load(url: string): Promise<Load> {
  // Warm-up, then the measured run, both with the same load generator and settings.
  const warmUp = await autocannon({ url, connections: CONNECTIONS, duration: 2 });
  const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S });
  return { requestsPerSecond: Math.round(result.requests.average), p50Ms: result.latency.p50, p99Ms: result.latency.p99, answered302: redirectsOf(warmUp) + redirectsOf(result) };
}

/**
 * `GET /{slug}` of the built app on PostgreSQL, clicks counted, against a bare node:http server that
 * answers every request with the same 302: the ceiling of this machine, measured in the same run.
 */
async function main(): Promise<void> {
  const ceilingServer = createServer((_req, res) => {
    res.writeHead(302, { location: 'https://example.com/landing', 'cache-control': 'private, max-age=0' });
    res.end();
  });
  await new Promise<void>((resolve) => ceilingServer.listen(0, '127.0.0.1', resolve));
  const ceiling = await load(`http://127.0.0.1:${(ceilingServer.address() as AddressInfo).port}/bench`);
  ceilingServer.close();

  const database = await benchDatabase();
  try {
    const app = await startBenchApp(database.url, { LOG_LEVEL: 'warn' });
    const created = await fetch(`${app.baseUrl}/user/link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/landing', slug: 'bench' }),
    });
    if (!created.ok) throw new Error(`link creation failed: ${created.status}`);
    const service = await load(`${app.baseUrl}/bench`);
    await app.close(); // SIGTERM: the app writes the clicks it still holds before it exits
    const { rows } = await (async () => {
      const { Client } = await import('pg');
      const client = new Client({ connectionString: database.url });
      await client.connect();
      try {
        return await client.query<{ visits: string }>(`SELECT COALESCE(sum(visits), 0) AS visits FROM link_daily_stats`);
      } finally {
        await client.end();
      }
    })();
    const counted = Number(rows[0].visits);
    const summary = {
      benchmark: 'redirect',
      connections: CONNECTIONS,
      seconds: DURATION_S,
      ceiling,
      service,
      ratio: +(service.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2),
      visitsCounted: counted,
    };
    process.stdout.write(
      [
        `ceiling (bare node:http 302): ${ceiling.requestsPerSecond} req/s, p50 ${ceiling.p50Ms} ms, p99 ${ceiling.p99Ms} ms`,
        `service (GET /{slug}, counted): ${service.requestsPerSecond} req/s, p50 ${service.p50Ms} ms, p99 ${service.p99Ms} ms`,
        `ratio service/ceiling: ${summary.ratio}`,
        // autocannon stops tallying at the end of a run while up to one request per connection is still
        // in flight; the server answers and counts those too.
        `visits counted: ${counted}; redirects tallied by the load generator: ${service.answered302} (+ up to ${2 * CONNECTIONS} in flight when its two runs ended)`,
      ].join('\n') + '\n',
    );
    mkdirSync('tmp/bench', { recursive: true });
    writeFileSync('tmp/bench/redirect.json', JSON.stringify(summary, null, 2));
    if (counted < service.answered302 || counted > service.answered302 + 2 * CONNECTIONS) {
      process.stderr.write('visits lost (or counted twice): the count does not match the redirects answered\n');
      process.exitCode = 1;
    }
  } finally {
    await database.drop();
  }
}

main().catch((error) => {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.exit(1);
});
