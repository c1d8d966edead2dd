import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { Client } from 'pg';
import { loadTest, ratio, runMain, withBenchApp, writeResult } from './bench-support';

const CONNECTIONS = 64;

export interface RedirectLoad {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** 302 answers of the warm-up and the measured run together. */
  answered302: number;
}

export interface RedirectResult {
  benchmark: 'redirect';
  connections: number;
  seconds: number;
  /** The bare node:http server answering the same 302: the ceiling of this machine. */
  ceiling: RedirectLoad;
  /** GET /{slug} of the app, clicks counted. */
  service: RedirectLoad;
  /** service / ceiling requests per second. */
  ratio: number;
  visitsCounted: number;
  /** Whether the visits counted match the redirects the load generator tallied (up to those in flight). */
  visitsMatch: boolean;
}

const redirectsOf = (result: autocannon.Result) => (result.statusCodeStats as unknown as Record<string, { count: number }>)['302']?.count ?? 0;

async function load(url: string, seconds: number): Promise<RedirectLoad> {
  const { measured, warmUp, result } = await loadTest({ url, connections: CONNECTIONS }, seconds);
  return { requestsPerSecond: measured.requestsPerSecond, p50Ms: measured.p50Ms, p99Ms: measured.p99Ms, answered302: redirectsOf(warmUp) + redirectsOf(result) };
}

/**
 * `GET /{slug}` of the built app on PostgreSQL, clicks counted, against a bare node:http server that
 * answers every request with the same 302: the ceiling of this machine, measured in the same run.
 */
export async function runRedirectBench(options: { seconds?: number } = {}): Promise<RedirectResult> {
  const seconds = options.seconds ?? Number(process.env['BENCH_SECONDS'] ?? 10);
  const ceilingServer = createServer((_req, res) => {
    res.writeHead(302, { location: 'https://example.com/landing', 'cache-control': 'private, max-age=0' });
    res.end();
  });
  await new Promise<void>((resolve) => ceilingServer.listen(0, '127.0.0.1', resolve));
  let ceiling: RedirectLoad;
  try {
    ceiling = await load(`http://127.0.0.1:${(ceilingServer.address() as AddressInfo).port}/bench`, seconds);
  } finally {
    ceilingServer.close();
  }

  return withBenchApp({ LOG_LEVEL: 'warn' }, async (app, databaseUrl) => {
    const created = await fetch(`${app.baseUrl}/user/link`, {
      method: 'POST',
      headers: { authorization: `Bearer ${app.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://example.com/landing', slug: 'bench' }),
    });
    if (!created.ok) throw new Error(`link creation failed: ${created.status}`);
    const service = await load(`${app.baseUrl}/bench`, seconds);
    await app.close(); // SIGTERM: the app writes the clicks it still holds before it exits
    const client = new Client({ connectionString: databaseUrl });
    await client.connect();
    let counted: number;
    try {
      const { rows } = await client.query<{ visits: string }>(`SELECT COALESCE(sum(visits), 0) AS visits FROM link_daily_stats`);
      counted = Number(rows[0].visits);
    } finally {
      await client.end();
    }
    return {
      benchmark: 'redirect' as const,
      connections: CONNECTIONS,
      seconds,
      ceiling,
      service,
      ratio: ratio(service.requestsPerSecond, ceiling.requestsPerSecond),
      visitsCounted: counted,
      visitsMatch: counted >= service.answered302 && counted <= service.answered302 + 2 * CONNECTIONS,
    };
  });
}

export function printRedirect(result: RedirectResult): void {
  const { ceiling, service } = result;
  process.stdout.write(
    [
      `ceiling (bare node:http 302): ${ceiling.requestsPerSecond} req/s, p50 ${ceiling.p50Ms} ms, p99 ${ceiling.p99Ms} ms`,
      `service (GET /{slug}, counted): ${service.requestsPerSecond} req/s, p50 ${service.p50Ms} ms, p99 ${service.p99Ms} ms`,
      `ratio service/ceiling: ${result.ratio}`,
      // autocannon stops tallying at the end of a run while up to one request per connection is still
      // in flight; the server answers and counts those too.
      `visits counted: ${result.visitsCounted}; redirects tallied by the load generator: ${service.answered302} (+ up to ${2 * result.connections} in flight when its two runs ended)`,
    ].join('\n') + '\n',
  );
  if (!result.visitsMatch) process.stderr.write('visits lost (or counted twice): the count does not match the redirects answered\n');
}

runMain(module, async () => {
  const result = await runRedirectBench();
  printRedirect(result);
  writeResult('redirect', result);
  if (!result.visitsMatch) process.exitCode = 1;
});
