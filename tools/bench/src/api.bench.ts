import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  benchPlans,
  BROWSER,
  cpuMsOf,
  envList,
  envNumber,
  loadSettings,
  LoadSettings,
  ratio,
  runMain,
  sleep,
  startServer,
  withBenchApp,
  writeResult,
} from './bench-support';
import { LoadResultHeading, loadResultHeading, LoadRun, PathPlan, RequestShape, loadGenerator, median } from './load-generator';

/**
 * `npm run bench:api`: the cost of a request through the API stack. The built app (`node
 * dist/apps/api/src/main.js`, production mode, PostgreSQL, LOG_LEVEL=warn, rate limits out of the way) and a
 * bare Fastify route answering a small JSON object (the ceiling of this machine, started in the same run),
 * loaded in alternating rounds with wrk (autocannon only as a fallback, with a warning). One account holds
 * BENCH_API_LINKS links (100,000), made in SQL. For each route: requests/s, p50, p99 and the ratio to the
 * bare route (medians over the rounds), then the database work of one request (a census: a short load at
 * a few connections between two readings of pg_stat_database).
 *
 * Settings (environment): BENCH_DURATION seconds per measured run (5), BENCH_ROUNDS (3), BENCH_WARMUP
 * seconds (2), BENCH_CONNECTIONS (64), BENCH_CREATE_CONNECTIONS (16, for POST /user/link), BENCH_THREADS (2),
 * BENCH_API_LINKS (100000), BENCH_ROUTES (all; e.g. live,me; list-miss, deep-miss and search-miss are the list
 * routes with every request a page the list cache does not hold), BENCH_CENSUS=0 to skip the database census,
 * BENCH_PROFILE=<dir> to run the app under `node --cpu-prof` (a .cpuprofile written there when it stops),
 * BENCH_LOAD_GENERATOR=autocannon to force the fallback, BENCH_DATABASE_URL (the PostgreSQL server).
 */

const root = join(__dirname, '..', '..', '..', '..');

const LIMIT = 20;

export type RouteName =
  | 'live'
  | 'health'
  | 'me'
  | 'list'
  | 'deep'
  | 'search'
  | 'list-miss'
  | 'deep-miss'
  | 'search-miss'
  | 'detail'
  | 'update'
  | 'tags'
  | 'create';
const ROUTES: readonly RouteName[] = [
  'live',
  'health',
  'me',
  'list',
  'deep',
  'search',
  'list-miss',
  'deep-miss',
  'search-miss',
  'detail',
  'update',
  'tags',
  'create',
];

/** The bars of issue 15 (figures, not assertions): the least ratio of the bare route's requests/s, or links/s. */
export function barOf(route: RouteName): { minRatio?: number; minPerSecond?: number } | null {
  if (route === 'live') return { minRatio: 0.5 };
  if (route === 'me') return { minRatio: 0.35 };
  if (route === 'list' || route === 'deep' || route === 'search') return { minRatio: 0.2 };
  if (route === 'create') return { minPerSecond: 1500 };
  return null;
}

interface RouteLoad {
  name: RouteName;
  /** What it requests, as printed: `GET /user/link?limit=20`. */
  request: string;
  plan: PathPlan;
  shape?: RequestShape;
  /** Loaded by the create generator (fewer connections: one account's creations). */
  creates?: boolean;
}

export interface RouteResult {
  name: RouteName;
  request: string;
  connections: number;
  /** Medians over the rounds. */
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** requests/s over the bare route's in the same rounds (median of the per-round ratios). */
  ratio: number;
  roundRatios: number[];
  /** The app's CPU time per request, µs (median over the rounds), and over the bare server's. */
  cpuUsPerRequest: number | null;
  cpuRatio: number | null;
  rounds: MeasuredRun[];
  /** 4xx/5xx answers and socket errors over every run of the route (0 when the bench is sound). */
  otherAnswers: number;
  socketErrors: number;
  bar: { minRatio?: number; minPerSecond?: number; met: boolean } | null;
  /** The database work of one request (pg_stat_database over a census run); null when skipped. */
  database: DatabasePerRequest | null;
}

export interface DatabasePerRequest {
  /** Requests of the census run. */
  requests: number;
  /**
   * Transactions committed or rolled back per request: one per statement outside a transaction, one per
   * BEGIN..COMMIT (pg_stat_statements is not loaded on this server, so statements are not counted). A
   * transaction that reads no table (/health's SELECT 1) is reported by PostgreSQL 15 only with a later
   * one of the same session that does: the census runs the routes that read no table last, and they read 0.
   */
  transactionsPerRequest: number;
  /** Sequential and index scans of the service's tables per request (pg_stat_user_tables): about one per query. */
  scansPerRequest: number;
  /** Rows read per request: tup_returned (rows scanned and index entries) + tup_fetched (rows fetched by index). */
  rowsReadPerRequest: number;
  /** Rows inserted, updated or deleted per request. */
  rowsWrittenPerRequest: number;
}

export interface ApiResult extends LoadResultHeading<'api'> {
  settings: LoadSettings & { createConnections: number; censusSeconds: number };
  /** Links the account holds (made in SQL) before the first run. */
  seededLinks: number;
  /** The bare Fastify route (`GET /bare`, a small JSON object), medians over the rounds. */
  bare: { requestsPerSecond: number; p50Ms: number; p99Ms: number; cpuUsPerRequest: number | null; rounds: MeasuredRun[] };
  routes: RouteResult[];
  /** Where the CPU profile went (BENCH_PROFILE). */
  profileDir?: string;
}

const BARE_SERVER = `
const fastify = require(require.resolve('fastify', { paths: [process.env.BENCH_ROOT] }))({ logger: false });
fastify.get('/bare', async () => ({ status: 200, code: 'OK', message: 'Service is alive', data: { status: 'ok' } }));
fastify.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
`;

/** A link id of the seed, as the SQL below makes it (24 hex characters, growing with `g`). */
const seededId = (g: number) => (1_600_000_000 + g).toString(16).padStart(8, '0') + g.toString(16).padStart(16, '0');

/**
 * `count` links for the account, straight into the table (an API call each would take minutes): every
 * hundredth titled "Product launch n" (what the search finds), ten tags, two on each of the newest 1,000 links.
 */
async function seed(db: Client, owner: string, count: number): Promise<void> {
  await db.query(
    `INSERT INTO links (id, owner_id, slug, url, title, created_at, updated_at)
     SELECT lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), $1, 'seed' || g,
            'https://example.com/articles/' || g, CASE WHEN g % 100 = 0 THEN 'Product launch ' ELSE 'Article number ' END || g, now(), now()
       FROM generate_series(1, $2::int) AS g`,
    [owner, count],
  );
  await db.query(
    `INSERT INTO tags (id, owner_id, name, is_favorite, created_at, updated_at)
     SELECT lpad('7a6' || t, 24, '0'), $1, 'tag-' || t, t <= 2, now(), now() FROM generate_series(1, 10) AS t`,
    [owner],
  );
  await db.query(
    `INSERT INTO link_tags (link_id, tag_id)
     SELECT lpad(to_hex(1600000000 + g), 8, '0') || lpad(to_hex(g), 16, '0'), lpad('7a6' || (1 + (g + k) % 10), 24, '0')
       FROM generate_series(GREATEST(1, $1::int - 999), $1::int) AS g, generate_series(0, 1) AS k`,
    [count],
  );
  await db.query('VACUUM ANALYZE links');
  await db.query('VACUUM ANALYZE tags');
  await db.query('VACUUM ANALYZE link_tags');
}

/**
 * Pages no request of a run asks twice within the list cache's max age, so that every one is read from the
 * database: each (start, limit) with limit from 10 to 30 (20 on average, as the cached rows) and the page
 * within `span` links of `from` (its end counted from the newest link: 0 the first pages, which take the
 * near-the-newest statement; the account's size minus span, the last pages), in an order that jumps about.
 * About 20,000 paths: wrk's two threads each walk them from a random place, at a few thousand requests/s.
 */
function missingPages(path: string, from: number, span: number): string[] {
  const paths: string[] = [];
  for (let limit = 10; limit <= 30; limit++)
    for (let start = from; start + limit <= from + span; start++) paths.push(`${path}limit=${limit}&start=${start}`);
  // A fixed shuffle (the same table in every run): neighbours in the table are far apart in the list.
  let seed = 15;
  for (let i = paths.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = seed % (i + 1);
    [paths[i], paths[j]] = [paths[j], paths[i]];
  }
  return paths;
}

function routeLoads(seeded: number, authorization: string): RouteLoad[] {
  const bearer = { authorization };
  const get = (name: RouteName, path: string, headers?: Record<string, string>): RouteLoad => ({
    name,
    request: `GET ${path}`,
    plan: { kind: 'single', path },
    ...(headers ? { shape: { method: 'GET', headers } } : {}),
  });
  // Spread over the account (not the launch links, which the search finds): a row each, no lock shared.
  const spread = Array.from({ length: 1000 }, (_, i) => 1 + ((i * 97 + 13) % seeded)).filter((g) => g % 100 !== 0);
  const deepStart = Math.max(0, seeded - LIMIT);
  return [
    get('live', '/health/live'),
    get('health', '/health'),
    get('me', '/user/me', bearer),
    get('list', `/user/link?limit=${LIMIT}`, bearer),
    {
      ...get('deep', `/user/link?limit=${LIMIT}&start=${deepStart}`, bearer),
      request: `GET /user/link?limit=${LIMIT}&start=${deepStart} (last page)`,
    },
    get('search', `/user/link?limit=${LIMIT}&q=launch`, bearer),
    // The same three without the list cache's help: every request asks a page not asked within its max age.
    {
      name: 'list-miss',
      request: 'GET /user/link (first 1,000, distinct pages)',
      plan: { kind: 'table', paths: missingPages('/user/link?', 0, 1000) },
      shape: { method: 'GET', headers: bearer },
    },
    {
      name: 'deep-miss',
      request: 'GET /user/link (last 1,000, distinct pages)',
      plan: { kind: 'table', paths: missingPages('/user/link?', Math.max(0, seeded - 1000), Math.min(1000, seeded)) },
      shape: { method: 'GET', headers: bearer },
    },
    {
      name: 'search-miss',
      request: 'GET /user/link?q=launch (distinct pages)',
      plan: { kind: 'table', paths: missingPages('/user/link?q=launch&', 0, Math.min(1000, Math.floor(seeded / 100))) },
      shape: { method: 'GET', headers: bearer },
    },
    {
      name: 'detail',
      request: 'GET /user/link/{id}',
      plan: { kind: 'table', paths: spread.map((g) => `/user/link/${seededId(g)}`) },
      shape: { method: 'GET', headers: bearer },
    },
    {
      name: 'update',
      request: 'PUT /user/link/{id} (title)',
      plan: { kind: 'table', paths: spread.map((g) => `/user/link/${seededId(g)}`) },
      shape: { method: 'PUT', headers: { ...bearer, 'content-type': 'application/json' }, body: '{"title":"Updated {n}"}' },
    },
    get('tags', '/user/tag', bearer),
    {
      name: 'create',
      request: 'POST /user/link',
      plan: { kind: 'single', path: '/user/link' },
      shape: {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: '{"url":"https://example.com/landing/{n}","slug":"b{n}","title":"Bench link {n}"}',
      },
      creates: true,
    },
  ];
}

interface Counters {
  transactions: number;
  rowsRead: number;
  rowsWritten: number;
  scans: number;
}

/**
 * The bench database's counters: pg_stat_database read from another database's session (not counted);
 * the table scans from the bench's own session, whose reading adds one transaction to the next (subtracted).
 */
async function countersOf(stats: Client, db: Client, database: string): Promise<Counters> {
  const { rows } = await stats.query<Record<'transactions' | 'read' | 'written', string>>(
    `SELECT xact_commit + xact_rollback AS transactions, tup_returned + tup_fetched AS read, tup_inserted + tup_updated + tup_deleted
      AS written
       FROM pg_stat_database WHERE datname = $1`,
    [database],
  );
  const scans = await db.query<{ scans: string }>(
    `SELECT COALESCE(sum(seq_scan + COALESCE(idx_scan, 0)), 0) AS scans FROM pg_stat_user_tables`,
  );
  return {
    transactions: Number(rows[0].transactions),
    rowsRead: Number(rows[0].read),
    rowsWritten: Number(rows[0].written),
    scans: Number(scans.rows[0].scans),
  };
}

/** Routes whose transactions read no table: measured last in the census (see transactionsPerRequest). */
const READS_NO_TABLE: readonly RouteName[] = ['live', 'health'];

/**
 * A session reports its counters at most once a second, and an idle one up to 10 s later
 * (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): the readings are taken once the app's sessions have been idle that long.
 */
const STATS_SETTLE_MS = 11_000;

/** A load run with the CPU time the server spent on it, in µs per request. */
export type MeasuredRun = LoadRun & { cpuUsPerRequest: number | null };

async function measured(pid: number | undefined, run: () => Promise<LoadRun>): Promise<MeasuredRun> {
  const before = cpuMsOf(pid);
  const result = await run();
  const after = cpuMsOf(pid);
  return {
    ...result,
    cpuUsPerRequest: before === null || after === null || !result.requests ? null : Math.round(((after - before) * 1000) / result.requests),
  };
}

const sumOf = (runs: LoadRun[], pick: (run: LoadRun) => number) => runs.reduce((sum, run) => sum + pick(run), 0);

export async function runApiBench(): Promise<ApiResult> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const settings: ApiResult['settings'] = {
    ...loadSettings(5),
    createConnections: envNumber('BENCH_CREATE_CONNECTIONS', 16),
    censusSeconds: process.env['BENCH_CENSUS'] === '0' ? 0 : 1,
  };
  const seeded = envNumber('BENCH_API_LINKS', 100_000);
  const picked = envList<RouteName>('BENCH_ROUTES', ROUTES);
  const profileDir = process.env['BENCH_PROFILE'];
  const scratch = join(root, 'tmp', 'bench');
  mkdirSync(scratch, { recursive: true });
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const generator = loadGenerator({ threads: settings.threads, connections: settings.connections, userAgent: BROWSER }, scratch, log);
  const creator = loadGenerator(
    { threads: Math.min(settings.threads, settings.createConnections), connections: settings.createConnections, userAgent: BROWSER },
    scratch,
    () => undefined,
  );
  // Few connections: the requests still in flight when it stops (answered, not tallied) are few against the count.
  const census = loadGenerator({ threads: 1, connections: 4, userAgent: BROWSER }, scratch, () => undefined);

  const barePort = 20_000 + Math.floor(Math.random() * 20_000);
  const bare = await startServer(['-e', BARE_SERVER], { ...process.env, PORT: String(barePort), BENCH_ROOT: root }, barePort);
  const production = {
    NODE_ENV: 'production',
    SECRET_KEY: 'ab'.repeat(32),
    BILLING: 'sandbox',
    METRICS_PUBLIC: 'true',
    PLANS: benchPlans(10_000_000),
  };
  try {
    return await withBenchApp(
      production,
      async (app, databaseUrl) => {
        log(`bench: seeding ${seeded} links`);
        await seed(app.db, app.userId, seeded);
        const database = new URL(databaseUrl).pathname.slice(1);
        const adminUrl = new URL(databaseUrl);
        adminUrl.pathname = '/postgres';
        const loads = routeLoads(seeded, `Bearer ${app.token}`).filter((load) => picked.includes(load.name));
        const generatorOf = (load: RouteLoad) => (load.creates ? creator : generator);
        const bareLoad: PathPlan = { kind: 'single', path: '/bare' };

        log(`bench: warm-up ${settings.warmUpSeconds} s each`);
        await generator.run(bare.baseUrl, bareLoad, settings.warmUpSeconds);
        const runsOf = new Map<RouteName, LoadRun[]>(loads.map((load) => [load.name, []]));
        for (const load of loads)
          runsOf.get(load.name)?.push(await generatorOf(load).run(app.baseUrl, load.plan, settings.warmUpSeconds, load.shape));

        const bareRounds: MeasuredRun[] = [];
        const roundsOf = new Map<RouteName, MeasuredRun[]>(loads.map((load) => [load.name, []]));
        for (let round = 1; round <= settings.rounds; round++) {
          const b = await measured(bare.process.pid, () => generator.run(bare.baseUrl, bareLoad, settings.seconds));
          bareRounds.push(b);
          const line = [`  round ${round}: bare ${b.requestsPerSecond} (${b.cpuUsPerRequest} µs)`];
          for (const load of loads) {
            const run = await measured(app.process.pid, () => generatorOf(load).run(app.baseUrl, load.plan, settings.seconds, load.shape));
            roundsOf.get(load.name)?.push(run);
            runsOf.get(load.name)?.push(run);
            line.push(`${load.name} ${run.requestsPerSecond} (${run.cpuUsPerRequest} µs)`);
          }
          log(line.join(' | '));
        }

        const perRequest = new Map<RouteName, DatabasePerRequest>();
        if (settings.censusSeconds) {
          log(
            `bench: database census (${loads.length} routes, ` +
              '~' +
              `${Math.round((loads.length + 1) * (STATS_SETTLE_MS / 1000 + settings.censusSeconds))}` +
              ' s)',
          );
          const stats = new Client({ connectionString: adminUrl.toString() });
          stats.on('error', () => undefined);
          await stats.connect();
          try {
            await sleep(STATS_SETTLE_MS);
            let before = await countersOf(stats, app.db, database);
            const censusOrder = [
              ...loads.filter((load) => !READS_NO_TABLE.includes(load.name)),
              ...loads.filter((load) => READS_NO_TABLE.includes(load.name)),
            ];
            for (const load of censusOrder) {
              const run = await census.run(app.baseUrl, load.plan, settings.censusSeconds, load.shape);
              await sleep(STATS_SETTLE_MS);
              const after = await countersOf(stats, app.db, database);
              const per = (value: number) => +(value / Math.max(1, run.requests)).toFixed(2);
              perRequest.set(load.name, {
                requests: run.requests,
                transactionsPerRequest: per(Math.max(0, after.transactions - before.transactions - 1)),
                scansPerRequest: per(after.scans - before.scans),
                rowsReadPerRequest: per(after.rowsRead - before.rowsRead),
                rowsWrittenPerRequest: per(after.rowsWritten - before.rowsWritten),
              });
              runsOf.get(load.name)?.push(run);
              before = after;
            }
          } finally {
            await stats.end().catch(() => undefined);
          }
        }

        const bareSide = {
          requestsPerSecond: Math.round(median(bareRounds.map((r) => r.requestsPerSecond))),
          p50Ms: +median(bareRounds.map((r) => r.p50Ms)).toFixed(2),
          p99Ms: +median(bareRounds.map((r) => r.p99Ms)).toFixed(2),
          cpuUsPerRequest: cpuMedian(bareRounds),
          rounds: bareRounds,
        };
        const routes = loads.map((load): RouteResult => {
          const rounds = roundsOf.get(load.name) ?? [];
          const all = runsOf.get(load.name) ?? [];
          const roundRatios = rounds.map((run, i) => ratio(run.requestsPerSecond, bareRounds[i].requestsPerSecond));
          const requestsPerSecond = Math.round(median(rounds.map((r) => r.requestsPerSecond)));
          const routeRatio = +median(roundRatios).toFixed(2);
          const cpu = cpuMedian(rounds);
          const bar = barOf(load.name);
          return {
            name: load.name,
            request: load.request,
            connections: load.creates ? settings.createConnections : settings.connections,
            requestsPerSecond,
            p50Ms: +median(rounds.map((r) => r.p50Ms)).toFixed(2),
            p99Ms: +median(rounds.map((r) => r.p99Ms)).toFixed(2),
            ratio: routeRatio,
            roundRatios,
            cpuUsPerRequest: cpu,
            cpuRatio: cpu === null || !bareSide.cpuUsPerRequest ? null : ratio(cpu, bareSide.cpuUsPerRequest),
            rounds,
            otherAnswers: sumOf(all, (run) => run.otherStatuses),
            socketErrors: sumOf(all, (run) => run.errors),
            bar: bar && {
              ...bar,
              met:
                (bar.minRatio === undefined || routeRatio >= bar.minRatio) &&
                (bar.minPerSecond === undefined || requestsPerSecond >= bar.minPerSecond),
            },
            database: perRequest.get(load.name) ?? null,
          };
        });
        for (const route of routes) {
          if (route.otherAnswers || route.socketErrors)
            log(`bench: ${route.request}: ${route.otherAnswers} answers not 2xx/3xx, ${route.socketErrors} socket errors`);
        }
        return {
          ...loadResultHeading('api', generator),
          settings,
          seededLinks: seeded,
          bare: bareSide,
          routes,
          ...(profileDir ? { profileDir } : {}),
        };
      },
      profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
    );
  } finally {
    await bare.stop();
  }
}

function cpuMedian(runs: MeasuredRun[]): number | null {
  const known = runs.map((run) => run.cpuUsPerRequest).filter((cpu): cpu is number => cpu !== null);
  return known.length ? Math.round(median(known)) : null;
}

const pad = (value: unknown, width: number) => String(value).padStart(width);

export function printApi(result: ApiResult): void {
  const { settings } = result;
  const lines = [
    `API, ${result.loadGenerator} ${settings.threads} threads ${settings.connections} connections (POST: ` +
      `${settings.createConnections}), ${settings.rounds} alternating rounds of ${settings.seconds} s ` +
      `(medians), ${result.machine.cpus} cores, ${result.seededLinks} links in the account`,
    ...(result.warning ? [`WARNING: ${result.warning}`] : []),
    `${'request'.padEnd(48)}${pad('req/s', 8)}${pad('ratio', 7)}${pad('p50', 8)}${pad('p99', 8)}` +
      `${pad('CPU µs', 8)}${pad('×bare', 7)}${pad('xact/req', 10)}${pad('scans/req', 10)}${pad('rows/req', 10)}`,
    `${'GET /bare (bare Fastify, small JSON)'.padEnd(48)}${pad(result.bare.requestsPerSecond, 8)}${pad('1', 7)}` +
      `${pad(result.bare.p50Ms, 8)}${pad(result.bare.p99Ms, 8)}${pad(result.bare.cpuUsPerRequest ?? '?', 8)}${pad('1', 7)}`,
  ];
  for (const route of result.routes) {
    const bar = route.bar
      ? '  (bar ' +
        `${route.bar.minRatio !== undefined ? `${route.bar.minRatio}×` : `${route.bar.minPerSecond}/s`}` +
        `: ${route.bar.met ? 'met' : 'NOT met'})`
      : '';
    const db = route.database;
    lines.push(
      `${route.request.padEnd(48)}${pad(route.requestsPerSecond, 8)}${pad(route.ratio, 7)}${pad(route.p50Ms, 8)}` +
        `${pad(route.p99Ms, 8)}${pad(route.cpuUsPerRequest ?? '?', 8)}${pad(route.cpuRatio ?? '?', 7)}` +
        `${pad(db ? db.transactionsPerRequest : '-', 10)}${pad(db ? db.scansPerRequest : '-', 10)}` +
        `${pad(db ? Math.round(db.rowsReadPerRequest) : '-', 10)}${bar}`,
    );
    if (route.otherAnswers || route.socketErrors)
      lines.push(`${' '.repeat(4)}${route.otherAnswers} answers not 2xx/3xx, ${route.socketErrors} socket errors`);
  }
  lines.push(
    "latencies in ms; ratio: requests/s over the bare route's in the same round; CPU µs: the server's CPU " +
      "time per request (user + system, /proc), ×bare: over the bare server's; xact/req: database " +
      'transactions per request, scans/req: table and index scans per request (about one a query), rows/req: ' +
      'rows read per request (pg_stat_database and pg_stat_user_tables over a census run)',
  );
  process.stdout.write(lines.join('\n') + '\n');
}

runMain(module, async () => {
  const result = await runApiBench();
  printApi(result);
  process.stdout.write(`summary written to ${writeResult('api', result)}\n`);
});
