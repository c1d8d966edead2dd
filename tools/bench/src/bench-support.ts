import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { Client } from 'pg';

const root = join(__dirname, '..', '..', '..', '..');
const dist = (file: string) => join(root, 'dist', file);

// What is left to undo if the run stops early: apps still running, databases not dropped yet. Apps are
// killed when this process exits whatever the reason; on Ctrl-C or SIGTERM the databases are dropped too.
const runningApps = new Set<ChildProcess>();
const pendingDrops = new Set<() => Promise<void>>();
let interrupted = false;
process.once('exit', () => {
  for (const child of runningApps) child.kill('SIGKILL');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`bench: ${signal}, cleaning up\n`);
    for (const child of runningApps) child.kill('SIGKILL');
    const drops = Promise.allSettled([...pendingDrops].map((drop) => drop()));
    void Promise.race([drops, new Promise((resolve) => setTimeout(resolve, 10_000))]).then(() => process.exit(130));
  });
}

/** Kills `child` with the apps if the run stops early (Ctrl-C, an error, the end of the process). */
export function trackChild(child: ChildProcess): void {
  runningApps.add(child);
  child.once('exit', () => runningApps.delete(child));
}

/** A throw-away PostgreSQL database for one benchmark run (BENCH_DATABASE_URL's server, else the local one). */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `lnk_bench_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
  const run = async (sql: string) => {
    const client = new Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(admin);
  url.pathname = `/${name}`;
  const drop = async () => {
    pendingDrops.delete(drop);
    await run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  };
  pendingDrops.add(drop);
  return { url: url.toString(), drop };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export interface BenchApp {
  baseUrl: string;
  db: Client;
  token: string;
  userId: string;
  /** The account's sign-in and the OAuth client it signed in with (first-party, no secret needed). */
  email: string;
  password: string;
  clientId: string;
  /** Its secret (the refresh grant authenticates the client; the password grant of a first-party client does not need it). */
  clientSecret: string;
  process: ChildProcess;
  /** Stops the app (SIGTERM, so it writes what it holds; SIGKILL after 30 s); safe to call twice. */
  close(): Promise<void>;
}

/**
 * Rate limits out of the way: every benchmark request comes from one token and one address. The app
 * takes at most 7 digits of requests (100000000/60 is refused), so ~10 million per second instead.
 */
export const BENCH_RATE_LIMITS = { RATE_LIMIT_API: '9999999/1', RATE_LIMIT_PUBLIC: '9999999/1' };

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  await exited;
  clearTimeout(timer);
}

/**
 * The built app as production runs it (`node dist/apps/api/src/main.js`) on the given database, with
 * an account made by the operator CLI and signed in through the password grant.
 */
export async function startBenchApp(databaseUrl: string, env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<BenchApp> {
  const port = await freePort();
  const appEnv = {
    ...process.env,
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    BCRYPT_COST: '4',
    DATA_DIR: join(root, 'tmp', 'bench-data'),
    ...BENCH_RATE_LIMITS,
    ...env,
  };
  const cli = (...args: string[]) =>
    JSON.parse(
      execFileSync(process.execPath, [dist('apps/cli/src/main.js'), ...args], { env: appEnv, encoding: 'utf8' })
        .trim()
        .split('\n')
        .pop() as string,
    );
  const email = `bench-${Date.now()}@example.com`;
  const password = 'bench password';
  const user = cli('user:create', '--email', email, '--password', password);
  const client = cli('client:create', '--owner', email, '--name', 'bench');

  const child = spawn(process.execPath, [...nodeArgs, dist('apps/api/src/main.js')], {
    env: appEnv,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  runningApps.add(child);
  child.once('exit', () => runningApps.delete(child));
  const baseUrl = `http://127.0.0.1:${port}`;
  let db: Client | undefined;
  try {
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${baseUrl}/health`)).ok) break;
      } catch {
        // not listening yet
      }
      if (i > 300 || child.exitCode !== null) throw new Error('the app did not start');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const signIn = await fetch(`${baseUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        grant_type: 'password',
        client_id: client.clientId,
        client_secret: client.clientSecret,
        username: email,
        password,
      }),
    });
    if (!signIn.ok) throw new Error(`sign-in failed: ${signIn.status} ${await signIn.text()}`);
    const token = ((await signIn.json()) as { data: { access_token: string } }).data.access_token;
    const connected = new Client({ connectionString: databaseUrl });
    // A dropped connection (the database dropped WITH (FORCE) on Ctrl-C) fails the query in flight; not the process.
    connected.on('error', () => undefined);
    db = connected;
    await connected.connect();
    let closing: Promise<void> | undefined;
    return {
      baseUrl,
      db: connected,
      token,
      userId: user.id,
      email,
      password,
      clientId: client.clientId,
      clientSecret: client.clientSecret,
      process: child,
      close: () =>
        (closing ??= (async () => {
          await connected.end().catch(() => undefined);
          await stop(child);
        })()),
    };
  } catch (error) {
    await db?.end().catch(() => undefined);
    await stop(child);
    throw error;
  }
}

/**
 * A fresh database, the built app on it, `body` run against it; then the app stopped and the database
 * dropped, whether `body` succeeded or not. `nodeArgs`: given to the app's node (`--cpu-prof`, ...).
 */
export async function withBenchApp<T>(
  env: Record<string, string>,
  body: (app: BenchApp, databaseUrl: string) => Promise<T>,
  nodeArgs: string[] = [],
): Promise<T> {
  const database = await benchDatabase();
  try {
    const app = await startBenchApp(database.url, env, nodeArgs);
    try {
      return await body(app, database.url);
    } finally {
      await app.close();
    }
  } finally {
    await database.drop();
  }
}

/** A plan catalogue with room for `maxLinks` links in the free plan. */
export const benchPlans = (maxLinks: number) =>
  JSON.stringify([{ id: 'free', name: 'Free', price: 0, maxDomains: 1, maxLinks, maxTags: 10 }]);

export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Times `runs` sequential calls after `warmup` unmeasured ones; milliseconds, sorted. */
export async function timeCalls(call: () => Promise<unknown>, runs: number, warmup = 5): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = process.hrtime.bigint();
    await call();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

export interface Latency {
  calls: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

/** p50, p95 and p99 of sorted times (milliseconds); with fewer than 100 calls p99 is the slowest call (and p95 with fewer than 20). */
export function latencyOf(sorted: number[]): Latency {
  return {
    calls: sorted.length,
    p50Ms: +percentile(sorted, 50).toFixed(2),
    p95Ms: +percentile(sorted, 95).toFixed(2),
    p99Ms: +percentile(sorted, 99).toFixed(2),
  };
}

export const ratio = (value: number, baseline: number) => +(value / baseline).toFixed(2);

/** A call that fails unless the answer is 2xx, reading the whole body; resolves to the body's size in bytes. */
export function httpCall(url: string, init: RequestInit = {}): () => Promise<number> {
  return async () => {
    const res = await fetch(url, init);
    const body = await res.arrayBuffer();
    if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${url}: ${res.status} ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
    return body.byteLength;
  };
}

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status, and connection errors, of the measured run. */
  statusCodes: Record<string, number>;
  errors: number;
}

export const statusCodesOf = (result: autocannon.Result): Record<string, number> =>
  Object.fromEntries(
    Object.entries(result.statusCodeStats as unknown as Record<string, { count: number }>).map(([code, { count }]) => [code, count]),
  );

/**
 * Closed-loop load with autocannon: a warm-up of `warmUpSeconds`, then the measured run of `seconds`,
 * both with the same settings. Returns the measured run and the raw warm-up result.
 */
export async function loadTest(
  options: autocannon.Options,
  seconds: number,
  warmUpSeconds = 2,
): Promise<{ measured: Throughput; warmUp: autocannon.Result; result: autocannon.Result }> {
  const warmUp = await autocannon({ ...options, duration: warmUpSeconds });
  const result = await autocannon({ ...options, duration: seconds });
  return {
    measured: {
      requestsPerSecond: Math.round(result.requests.average),
      p50Ms: result.latency.p50,
      p99Ms: result.latency.p99,
      statusCodes: statusCodesOf(result),
      errors: result.errors,
    },
    warmUp,
    result,
  };
}

/** Writes tmp/bench/<name>.json (relative to the working directory, the repository root under npm). */
export function writeResult(name: string, value: unknown): string {
  mkdirSync(join('tmp', 'bench'), { recursive: true });
  const file = join('tmp', 'bench', `${name}.json`);
  writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  return file;
}

/** Runs a benchmark file's main when it is the entry point, exiting 1 with the stack on failure. */
export function runMain(entry: NodeJS.Module, main: () => Promise<void>): void {
  if (require.main !== entry) return;
  main().catch((error) => {
    if (interrupted) return; // the signal handler exits once the databases are dropped
    process.stderr.write(`${error?.stack ?? error}\n`);
    process.exit(1);
  });
}

/** The user agent of every load: a browser's, as a visitor's request carries. */
export const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** What every timed load of a benchmark is run with, the same variables for each. */
export interface LoadSettings {
  threads: number;
  connections: number;
  warmUpSeconds: number;
  seconds: number;
  rounds: number;
  userAgent: string;
}

/** BENCH_THREADS (2), BENCH_CONNECTIONS (64), BENCH_WARMUP (2 s), BENCH_DURATION or BENCH_SECONDS (`defaultSeconds`), BENCH_ROUNDS (3). */
export function loadSettings(defaultSeconds: number): LoadSettings {
  return {
    threads: envNumber('BENCH_THREADS', 2),
    connections: envNumber('BENCH_CONNECTIONS', 64),
    warmUpSeconds: envNumber('BENCH_WARMUP', 2),
    seconds: envNumber('BENCH_DURATION', Number(process.env['BENCH_SECONDS'] ?? defaultSeconds)),
    rounds: envNumber('BENCH_ROUNDS', 3),
    userAgent: BROWSER,
  };
}

/** A positive number from the environment (a benchmark's settings). */
export const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};
/** A comma-separated choice among `all` from the environment, all of them when unset. */
export const envList = <T extends string>(name: string, all: readonly T[]): T[] => {
  const picked = (process.env[name] ?? all.join(','))
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const p of picked) if (!all.includes(p as T)) throw new Error(`${name}: unknown "${p}" (known: ${all.join(', ')})`);
  return picked as T[];
};

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface Server {
  process: ChildProcess;
  baseUrl: string;
  stop(): Promise<number | null>;
}

export async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}

/** Starts `node <entry>` and waits until it answers HTTP (a HEAD, which is never counted as a click). */
export async function startServer(args: string[], env: NodeJS.ProcessEnv, port: number, logFile?: string): Promise<Server> {
  // The server's log (stdout and stderr) into a file: what it says about a write that failed stays readable.
  const output = logFile ? openSync(logFile, 'w') : 'ignore';
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', output, logFile ? output : 'inherit'] });
  if (typeof output === 'number') closeSync(output);
  trackChild(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${baseUrl}/bench-ready-probe`, { method: 'HEAD', redirect: 'manual' });
      break;
    } catch {
      // not listening yet
    }
    if (i > 300 || child.exitCode !== null) {
      await stopChild(child);
      throw new Error(`${args.join(' ')} did not start`);
    }
    await sleep(100);
  }
  return { process: child, baseUrl, stop: () => stopChild(child) };
}

/**
 * CPU time a process has used (user + system), in ms, from /proc (null elsewhere). Per request it is the
 * figure that holds on a shared machine: req/s falls when other work takes the cores, CPU per request does not.
 */
export function cpuMsOf(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').pop()?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** CPU time (ms) of the PostgreSQL sessions connected to the client's database, other than the client's own. */
export async function databaseSessionsCpuMs(client: Client): Promise<number | null> {
  const { rows } = await client.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
  );
  let total = 0;
  for (const { pid } of rows) {
    const ms = cpuMsOf(pid);
    if (ms === null) return null;
    total += ms;
  }
  return total;
}
