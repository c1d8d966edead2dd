import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'pg';
import {
  BENCH_RATE_LIMITS,
  benchDatabase,
  cpuMsOf,
  databaseSessionsCpuMs,
  envList,
  envNumber,
  loadSettings,
  LoadSettings,
  ratio,
  runMain,
  sleep,
  startServer,
  writeResult,
} from './bench-support';
import {
  LoadGenerator,
  LoadResultHeading,
  loadResultHeading,
  LoadRun,
  PathPlan,
  loadGenerator,
  median,
  redirectsInMetrics,
  clicksDroppedInMetrics,
  zipfRanks,
} from './load-generator';

/**
 * `npm run bench:redirect`: short-URL redirects of the built servers on PostgreSQL, clicks counted, against
 * a bare node:http server answering every request with the same 302 (the ceiling of this machine), in
 * alternating rounds of the same run, for three request mixes:
 *   (a) hot      one link, requested over and over;
 *   (b) zipf     10,000 links, popularity ~ 1/rank (a table of 100,000 requests drawn from it);
 *   (c) uniform  200,000 links hit uniformly at random: more than the redirect cache holds, so most
 *                requests go to the database (queries/s reported);
 * each through the redirect app (`node dist/apps/redirect/src/main.js`, skipped when it is not built) and
 * through the combined API process (`node dist/apps/api/src/main.js`, what `npm start` runs).
 *
 * Every (mix, server) cell starts the server afresh, loads it, stops it with SIGTERM (it writes the clicks
 * it holds) and compares the visits in the database with the redirects the load generator counted.
 *
 * Settings (environment): BENCH_DURATION seconds per measured run (8), BENCH_ROUNDS (3), BENCH_WARMUP
 * seconds (2), BENCH_CONNECTIONS (64), BENCH_THREADS (2), BENCH_SCENARIOS (hot,zipf,uniform),
 * BENCH_TARGETS (redirect,combined), BENCH_CACHE_SIZE (50000: the servers' REDIRECT_CACHE_SIZE), BENCH_LOAD_GENERATOR=autocannon to force
 * the fallback,
 * BENCH_DATABASE_URL (the PostgreSQL server for the throw-away database), BENCH_PROFILE=<dir> to run each
 * server under `node --cpu-prof` (redirect-<mix>-<server>.cpuprofile written there when it stops).
 */

const root = join(__dirname, '..', '..', '..', '..');
const dist = (file: string) => join(root, 'dist', file);

const LANDING = 'https://example.com/landing';

export type ScenarioName = 'hot' | 'zipf' | 'uniform';
export type TargetName = 'redirect' | 'combined';

const SCENARIOS: Record<ScenarioName, { title: string; links: number }> = {
  hot: { title: '(a) one hot link', links: 1 },
  zipf: { title: '(b) 10,000 links, Zipf-like popularity (s = 1)', links: 10_000 },
  uniform: { title: '(c) 200,000 links hit uniformly, more than the cache holds', links: 200_000 },
};

const TARGETS: Record<TargetName, { title: string; entry: string }> = {
  redirect: { title: 'apps/redirect', entry: 'apps/redirect/src/main.js' },
  combined: { title: 'combined API process (npm start)', entry: 'apps/api/src/main.js' },
};

/** The bars of issue 13 (figures, not assertions): the least ratio of the bare server's requests/s, and of its p99. */
export function barOf(scenario: ScenarioName, target: TargetName): { minRatio: number; maxP99Ratio?: number } | null {
  if (scenario === 'hot') return target === 'redirect' ? { minRatio: 0.85, maxP99Ratio: 1.5 } : { minRatio: 0.8 };
  if (scenario === 'zipf') return { minRatio: 0.75 };
  return null;
}

export interface Side {
  /** Medians over the measured rounds. */
  requestsPerSecond: number;
  /** CPU time per request (µs, user + system from /proc) of the server, and of its PostgreSQL sessions (the bare server has none). */
  cpuUsPerRequest: number | null;
  databaseCpuUsPerRequest: number | null;
  p50Ms: number;
  p99Ms: number;
  /** Peak resident set of the process while it was under load, MiB. */
  peakRssMb: number | null;
  rounds: LoadRun[];
}

export interface Cell {
  scenario: ScenarioName;
  target: TargetName;
  /** Why the cell did not run (the server is not built). */
  skipped?: string;
  bare?: Side;
  server?: Side;
  /** server / bare requests per second (medians), and per round. */
  ratio?: number;
  roundRatios?: number[];
  /** server p99 / bare p99 (medians). */
  p99Ratio?: number;
  bar?: { minRatio: number; maxP99Ratio?: number; met: boolean } | null;
  /** 2xx/3xx answers the load generator counted from the server, warm-up included. */
  redirectsAnswered?: number;
  /** Other answers (4xx/5xx) and socket errors from the server: 0 when every slug was found. */
  otherAnswers?: number;
  socketErrors?: number;
  /** Visits the database holds after the server stopped. */
  clicksCounted?: number;
  /**
   * Redirects the server says it answered (its /metrics counter `lnk_redirects_total{outcome="redirect"}`,
   * read after the load, before the SIGTERM); null when it could not be read. Clicks counted must equal it.
   */
  serverRedirects?: number | null;
  /** Clicks the server's buffer dropped (full), from /metrics, read at the same time. */
  serverClicksDropped?: number | null;
  /** Requests in flight when a run stopped: answered and counted by the server, not tallied by the generator. */
  inFlightAllowance?: number;
  /** Clicks counted = the server's redirects (exact when it could be read), and within the generator's tally plus what was in flight. */
  clicksMatch?: boolean;
  /** Database work while the server was under load (warm-up included). */
  database?: { linkLookupsPerSecond: number; transactionsPerSecond: number };
  serverExitCode?: number | null;
}

export interface RedirectResult extends LoadResultHeading<'redirect'> {
  settings: LoadSettings;
  /** The redirect cache the servers ran with. */
  cache: string;
  cells: Cell[];
  /** Every cell that ran counted every click, none twice (up to the requests in flight at the end of a run). */
  visitsMatch: boolean;
}

/** VmRSS of a process in MiB, or null when /proc cannot tell (not Linux, or the process is gone). */
function rssMb(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round(Number(match[1]) / 1024) : null;
  } catch {
    return null;
  }
}

/** Samples the peak VmRSS of a process every 200 ms until stopped. */
function rssSampler(pid: number | undefined): { stop(): number | null } {
  let peak: number | null = null;
  const sample = () => {
    const now = rssMb(pid);
    if (now !== null && (peak === null || now > peak)) peak = now;
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return peak;
    },
  };
}

let nextPort = 20_000 + Math.floor(Math.random() * 20_000);
const BARE_SERVER = `
const { createServer } = require('node:http');
createServer((req, res) => {
  res.writeHead(302, { location: ${JSON.stringify(LANDING)}, 'cache-control': 'private, max-age=0', 'content-length': '0' });
  res.end();
}).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** Links for every mix, straight into the table (an API call each would take minutes): hot, z1..z10000, u1..u200000. */
async function seed(client: Client): Promise<void> {
  const insert = (prefix: string, count: number, idBase: number) =>
    client.query(
      `INSERT INTO links (id, owner_id, domain_id, slug, url, created_at, updated_at)
       SELECT lpad(to_hex($3::bigint + g), 24, '0'), '0000000000000000000bench', NULL, $1 || g, $2 || '/' || g, now(), now()
         FROM generate_series(1, $4::int) AS g`,
      [prefix, LANDING, idBase, count],
    );
  await client.query(
    'INSERT INTO links (id, owner_id, domain_id, slug, url, created_at, updated_at) ' +
      `VALUES (lpad('1', 24, '0'), '0000000000000000000bench', NULL, 'hot', $1, now(), now())`,
    [LANDING],
  );
  await insert('z', SCENARIOS.zipf.links, 0x100000);
  await insert('u', SCENARIOS.uniform.links, 0x1000000);
  await client.query('ANALYZE links');
}

async function serverCountersOf(baseUrl: string): Promise<{ redirects: number | null; clicksDropped: number | null }> {
  try {
    const res = await fetch(`${baseUrl}/metrics`);
    const text = res.ok ? await res.text() : '';
    return { redirects: redirectsInMetrics(text), clicksDropped: clicksDroppedInMetrics(text) };
  } catch {
    return { redirects: null, clicksDropped: null };
  }
}

async function databaseCounters(client: Client): Promise<{ visits: number; lookups: number; transactions: number }> {
  // Index scans on links other than by primary key: the short-URL lookups (the click writer updates by id).
  const { rows } = await client.query<{ visits: string; lookups: string; transactions: string }>(`
    SELECT (SELECT COALESCE(sum(visits), 0) FROM link_daily_stats) AS visits,
           (SELECT COALESCE(sum(s.idx_scan), 0) FROM pg_stat_user_indexes s JOIN pg_index i ON i.indexrelid = s.indexrelid
             WHERE s.relname = 'links' AND NOT i.indisprimary) AS lookups,
           (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS transactions`);
  return { visits: Number(rows[0].visits), lookups: Number(rows[0].lookups), transactions: Number(rows[0].transactions) };
}

const answered = (run: LoadRun) => run.requests - run.otherStatuses;

/**
 * A load run with the CPU it cost, per request: the figure that holds on a shared machine, where req/s falls when other work takes the
 * cores.
 */
type CpuRun = LoadRun & { cpuUsPerRequest: number | null; databaseCpuUsPerRequest: number | null };

async function withCpu(pid: number | undefined, db: Client | null, run: () => Promise<LoadRun>): Promise<CpuRun> {
  const perRequest = (before: number | null, after: number | null, requests: number) =>
    before === null || after === null || !requests ? null : Math.round(((after - before) * 1000) / requests);
  const [cpu, dbCpu] = [cpuMsOf(pid), db ? await databaseSessionsCpuMs(db) : null];
  const result = await run();
  const [cpuAfter, dbCpuAfter] = [cpuMsOf(pid), db ? await databaseSessionsCpuMs(db) : null];
  return {
    ...result,
    cpuUsPerRequest: perRequest(cpu, cpuAfter, result.requests),
    databaseCpuUsPerRequest: perRequest(dbCpu, dbCpuAfter, result.requests),
  };
}

const medianOrNull = (values: (number | null)[]) => (values.some((v) => v === null) ? null : Math.round(median(values as number[])));

function sideOf(rounds: CpuRun[], peakRssMb: number | null): Side {
  return {
    requestsPerSecond: Math.round(median(rounds.map((r) => r.requestsPerSecond))),
    cpuUsPerRequest: medianOrNull(rounds.map((r) => r.cpuUsPerRequest)),
    databaseCpuUsPerRequest: medianOrNull(rounds.map((r) => r.databaseCpuUsPerRequest)),
    p50Ms: +median(rounds.map((r) => r.p50Ms)).toFixed(2),
    p99Ms: +median(rounds.map((r) => r.p99Ms)).toFixed(2),
    peakRssMb,
    rounds,
  };
}

interface CellContext {
  generator: LoadGenerator;
  bare: { baseUrl: string; pid: number | undefined };
  db: Client;
  env: NodeJS.ProcessEnv;
  settings: RedirectResult['settings'];
  log: (message: string) => void;
}

async function runCell(scenario: ScenarioName, target: TargetName, plan: PathPlan, context: CellContext): Promise<Cell> {
  const { generator, bare, db, settings, log } = context;
  const entry = dist(TARGETS[target].entry);
  if (!existsSync(entry)) {
    log(`bench: ${TARGETS[target].title} is not built (${TARGETS[target].entry} missing): ${scenario} skipped`);
    return { scenario, target, skipped: `${TARGETS[target].entry} is not built` };
  }
  const before = await databaseCounters(db);
  const port = nextPort++;
  const logFile = join(root, 'tmp', 'bench', `redirect-${scenario}-${target}.log`);
  // BENCH_PROFILE=<dir>: the server under `node --cpu-prof` (its .cpuprofile written there when it stops).
  const profileDir = process.env['BENCH_PROFILE'];
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const profile = profileDir
    ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, `--cpu-prof-name=redirect-${scenario}-${target}.cpuprofile`]
    : [];
  const server = await startServer(
    [...profile, entry],
    { ...context.env, PORT: String(port), SHORT_BASE_URL: `http://127.0.0.1:${port}` },
    port,
    logFile,
  );
  const serverRss = rssSampler(server.process.pid);
  const bareRss = rssSampler(bare.pid);
  const serverRuns: LoadRun[] = [];
  const bareRounds: CpuRun[] = [];
  const serverRounds: CpuRun[] = [];
  let exitCode: number | null;
  let serverRedirects: number | null;
  let serverClicksDropped: number | null;
  try {
    const everyLink = cachePassOf(scenario);
    if (everyLink) {
      // A fresh process meets the long tail of the mix for the first time all through its first rounds (about
      // 600 lookups/s after 2 s); a server that has run for a minute holds every link of (b). Measured warm:
      // the pass comes before the warm-up, so that the write of its clicks (a row for every link) falls there too.
      log(`  cache pass: the ${everyLink.paths.length} links in turn`);
      serverRuns.push(await generator.run(server.baseUrl, everyLink, Math.max(2, settings.warmUpSeconds)));
    }
    log(`  warm-up ${settings.warmUpSeconds} s each`);
    await generator.run(bare.baseUrl, plan, settings.warmUpSeconds);
    serverRuns.push(await generator.run(server.baseUrl, plan, settings.warmUpSeconds));
    for (let round = 1; round <= settings.rounds; round++) {
      const b = await withCpu(bare.pid, null, () => generator.run(bare.baseUrl, plan, settings.seconds));
      const s = await withCpu(server.process.pid, db, () => generator.run(server.baseUrl, plan, settings.seconds));
      bareRounds.push(b);
      serverRounds.push(s);
      serverRuns.push(s);
      log(
        `  round ${round}: bare ${b.requestsPerSecond} req/s p99 ${b.p99Ms} ms ${b.cpuUsPerRequest} µs | server ` +
          `${s.requestsPerSecond} req/s p99 ${s.p99Ms} ms ${s.cpuUsPerRequest} µs + database ${s.databaseCpuUsPerRequest} µs`,
      );
    }
    await sleep(1000); // requests still in flight when the generator stopped (waiting on the database) finish first
    ({ redirects: serverRedirects, clicksDropped: serverClicksDropped } = await serverCountersOf(server.baseUrl));
  } finally {
    exitCode = await server.stop(); // SIGTERM: the server writes the clicks it still holds before it exits
  }
  const serverSide = sideOf(serverRounds, serverRss.stop());
  const bareSide = sideOf(bareRounds, bareRss.stop());
  await sleep(700); // the server's database sessions report their statistics as they end
  const after = await databaseCounters(db);
  const loadSeconds = serverRuns.reduce((sum, run) => sum + run.seconds, 0);
  const redirectsAnswered = serverRuns.reduce((sum, run) => sum + answered(run), 0);
  const inFlightAllowance = settings.connections * serverRuns.length;
  const clicksCounted = after.visits - before.visits;
  const cellRatio = ratio(serverSide.requestsPerSecond, bareSide.requestsPerSecond);
  const p99Ratio = ratio(serverSide.p99Ms, bareSide.p99Ms);
  const bar = barOf(scenario, target);
  return {
    scenario,
    target,
    bare: bareSide,
    server: serverSide,
    ratio: cellRatio,
    roundRatios: serverRounds.map((s, i) => ratio(s.requestsPerSecond, bareRounds[i].requestsPerSecond)),
    p99Ratio,
    bar: bar && { ...bar, met: cellRatio >= bar.minRatio && (bar.maxP99Ratio === undefined || p99Ratio <= bar.maxP99Ratio) },
    redirectsAnswered,
    otherAnswers: serverRuns.reduce((sum, run) => sum + run.otherStatuses, 0),
    socketErrors: serverRuns.reduce((sum, run) => sum + run.errors, 0),
    clicksCounted,
    serverRedirects,
    serverClicksDropped,
    inFlightAllowance,
    clicksMatch:
      clicksCounted >= redirectsAnswered &&
      clicksCounted <= redirectsAnswered + inFlightAllowance &&
      (serverRedirects === null || clicksCounted === serverRedirects),
    database: {
      linkLookupsPerSecond: Math.round((after.lookups - before.lookups) / loadSeconds),
      transactionsPerSecond: Math.round((after.transactions - before.transactions) / loadSeconds),
    },
    serverExitCode: exitCode,
  };
}

/** (b)'s links in order, once each: the cache pass before its rounds (wrk's threads walk the table from random starts). */
function cachePassOf(scenario: ScenarioName): Extract<PathPlan, { kind: 'table' }> | null {
  if (scenario !== 'zipf') return null;
  return { kind: 'table', paths: Array.from({ length: SCENARIOS.zipf.links }, (_, i) => `/z${i + 1}`) };
}

function planOf(scenario: ScenarioName): PathPlan {
  if (scenario === 'hot') return { kind: 'single', path: '/hot' };
  if (scenario === 'zipf') return { kind: 'table', paths: zipfRanks(SCENARIOS.zipf.links, 100_000).map((rank) => `/z${rank}`) };
  return { kind: 'uniform', prefix: '/u', count: SCENARIOS.uniform.links };
}

export async function runRedirectBench(): Promise<RedirectResult> {
  const log = (message: string) => process.stderr.write(`${message}\n`);
  const settings = loadSettings(8);
  // Smaller than the 200,000 links of (c): most of its requests go to the database.
  const cacheSize = envNumber('BENCH_CACHE_SIZE', 50_000);
  const scenarios = envList<ScenarioName>('BENCH_SCENARIOS', ['hot', 'zipf', 'uniform']);
  const targets = envList<TargetName>('BENCH_TARGETS', ['redirect', 'combined']);
  const scratch = join(root, 'tmp', 'bench');
  mkdirSync(scratch, { recursive: true });
  const generator = loadGenerator(settings, scratch, log);

  const barePort = nextPort++;
  const bareServer = await startServer(['-e', BARE_SERVER], { ...process.env, PORT: String(barePort) }, barePort);
  const database = await benchDatabase();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    DATA_DIR: join(root, 'tmp', 'bench-data'),
    ...BENCH_RATE_LIMITS,
    REDIRECT_CACHE_SIZE: String(cacheSize),
  };
  delete env['REDIS_URL']; // one instance: invalidations stay in process
  const db = new Client({ connectionString: database.url });
  db.on('error', () => undefined); // the database dropped WITH (FORCE) on Ctrl-C
  try {
    execFileSync(process.execPath, [dist('apps/cli/src/main.js'), 'migrate'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    await db.connect();
    log('bench: seeding 210,001 links');
    await seed(db);
    const cells: Cell[] = [];
    for (const scenario of scenarios) {
      const plan = planOf(scenario);
      for (const target of targets) {
        log(`bench: ${SCENARIOS[scenario].title} through ${TARGETS[target].title}`);
        cells.push(
          await runCell(scenario, target, plan, {
            generator,
            bare: { baseUrl: bareServer.baseUrl, pid: bareServer.process.pid },
            db,
            env,
            settings,
            log,
          }),
        );
      }
    }
    return {
      ...loadResultHeading('redirect', generator),
      settings,
      cache: `REDIRECT_CACHE_SIZE=${cacheSize} links (BENCH_CACHE_SIZE), both servers; (c) has 200,000 links`,
      cells,
      visitsMatch: cells.every((cell) => cell.skipped !== undefined || cell.clicksMatch === true),
    };
  } finally {
    await db.end().catch(() => undefined);
    await bareServer.stop();
    await database.drop();
  }
}

const pad = (value: unknown, width: number) => String(value).padStart(width);

export function printRedirect(result: RedirectResult): void {
  const lines = [
    `redirects, ${result.loadGenerator} ${result.settings.threads} threads ${result.settings.connections} connections, ` +
      `${result.settings.rounds} alternating rounds of ${result.settings.seconds} s (medians), ${result.machine.cpus} cores`,
    ...(result.warning ? [`WARNING: ${result.warning}`] : []),
    `${'mix'.padEnd(8)}${'server'.padEnd(10)}${pad('req/s', 8)}${pad('bare', 8)}${pad('ratio', 7)}` +
      `${pad('p50', 7)}${pad('bare', 7)}${pad('p99', 7)}${pad('bare', 7)}${pad('RSS', 6)}${pad('CPU µs', 8)}` +
      `${pad('bare', 6)}${pad('db µs', 7)}${pad('lookups/s', 10)}  clicks counted / redirects answered`,
  ];
  for (const cell of result.cells) {
    const head = `${cell.scenario.padEnd(8)}${cell.target.padEnd(10)}`;
    if (cell.skipped || !cell.server || !cell.bare) {
      lines.push(`${head}skipped: ${cell.skipped}`);
      continue;
    }
    const bar = cell.bar
      ? ` (bar ${cell.bar.minRatio}${cell.bar.maxP99Ratio ? `, p99 ≤ ${cell.bar.maxP99Ratio}×` : ''}: ${cell.bar.met ? 'met' : 'NOT met'})`
      : '';
    lines.push(
      `${head}${pad(cell.server.requestsPerSecond, 8)}${pad(cell.bare.requestsPerSecond, 8)}${pad(cell.ratio, 7)}` +
        `${pad(cell.server.p50Ms, 7)}${pad(cell.bare.p50Ms, 7)}${pad(cell.server.p99Ms, 7)}${pad(cell.bare.p99Ms, 7)}` +
        `${pad(cell.server.peakRssMb ?? '?', 6)}${pad(cell.server.cpuUsPerRequest ?? '?', 8)}` +
        `${pad(cell.bare.cpuUsPerRequest ?? '?', 6)}${pad(cell.server.databaseCpuUsPerRequest ?? '?', 7)}` +
        `${pad(cell.database?.linkLookupsPerSecond ?? '', 10)}  ${cell.clicksCounted} / ${cell.redirectsAnswered} (+ ≤ ` +
        `${cell.inFlightAllowance} in flight)${cell.serverRedirects === null ? '' : `, server ${cell.serverRedirects}`}: ` +
        `${cell.clicksMatch ? 'match' : 'MISMATCH'}${bar}`,
    );
    if (cell.serverClicksDropped)
      lines.push(`${' '.repeat(18)}${cell.serverClicksDropped} clicks dropped by the server's full buffer (its /metrics)`);
    if (cell.otherAnswers || cell.socketErrors)
      lines.push(`${' '.repeat(18)}${cell.otherAnswers} answers not 2xx/3xx, ${cell.socketErrors} socket errors`);
  }
  lines.push(
    `latencies in ms (${result.loadGenerator}, from request sent to answer read); RSS: peak resident MiB of the ` +
      `server under load; CPU µs: the server's CPU time per request (user + system, /proc), bare: the bare ` +
      `server's, db µs: its PostgreSQL sessions'; lookups/s: index scans on links by (domain, slug)`,
  );
  process.stdout.write(lines.join('\n') + '\n');
  if (!result.visitsMatch) process.stderr.write('visits lost (or counted twice): the count does not match the redirects answered\n');
}

runMain(module, async () => {
  const result = await runRedirectBench();
  printRedirect(result);
  writeResult('redirect', result);
  if (!result.visitsMatch) process.exitCode = 1;
});
