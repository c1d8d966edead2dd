import { ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { connectDatabase } from '@lnk/shared/database';
import { createTestDatabase, type TestDatabase } from '@lnk/shared/testing';
import { freePort } from './test-app';
import { asBrowser } from './visitor';
import { PERSISTENCE_MODULES } from '@lnk/composition';

/**
 * The app as production runs it: `node dist/apps/api/src/main.js`, in a process of its own, for tests of
 * what only a real process shows (signals, exit codes, what it writes to stdout and stderr).
 */

const root = join(__dirname, '..', '..', '..', '..');
const BUILD_TIMEOUT_MS = 120_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function run(
  file: string,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeout?: number } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      file,
      args,
      {
        env: options.env ?? process.env,
        cwd: options.cwd ?? root,
        timeout: options.timeout ?? BUILD_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
        encoding: 'utf8',
      },
      (error, stdout, stderr) => {
        // Killed (its time was up) or ended by a signal: -1, never an exit code the process could have chosen.
        const code = error ? (typeof error.code === 'number' ? error.code : error.killed || error.signal ? -1 : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** A lock between test files building at once (the build empties dist/ before it writes it again). */
async function withBuildLock<T>(work: () => Promise<T>): Promise<T> {
  const lock = join(root, 'tmp', 'test-build.lock');
  mkdirSync(join(root, 'tmp'), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      // Held by another test file; a lock older than a build can take was left by a killed run.
      try {
        if (Date.now() - statSync(lock).mtimeMs > BUILD_TIMEOUT_MS) rmSync(lock, { recursive: true, force: true });
      } catch {
        // gone meanwhile
      }
      if (Date.now() - started > BUILD_TIMEOUT_MS) throw new Error(`the build lock ${lock} was not released`);
      await sleep(100);
    }
  }
  try {
    return await work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface BuiltDist {
  /** Folder holding apps/api/src/main.js and apps/cli/src/main.js. */
  dir: string;
  remove(): void;
}

/**
 * Builds the app when dist/ is missing or older than the sources (the build script decides), then runs
 * from a private copy, so a build started meanwhile (by another test file, or by hand) cannot pull the
 * files from under a running test. The copy lives inside the repository, so `node_modules` resolves.
 */
export async function buildApp(): Promise<BuiltDist> {
  return withBuildLock(async () => {
    const build = await run(process.execPath, [join(root, 'tools/build/build.mjs'), '--no-typecheck', '--quiet']);
    if (build.code !== 0) throw new Error(`the build failed (${build.code}):\n${build.stdout}\n${build.stderr}`);
    const dir = join(root, 'tmp', `test-dist-${process.pid}-${randomBytes(3).toString('hex')}`);
    cpSync(join(root, 'dist'), dir, { recursive: true });
    return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
  });
}

/**
 * Where a spawned app keeps its data: the test database's URL, or an embedded database on disk (so it
 * outlives the process and can be read after it exits). `query` reads it from the test process (the
 * embedded one through the socket of the app holding it, while one runs).
 */
export interface AppDatabase {
  env: Record<string, string>;
  kind: 'postgres' | 'pglite';
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  remove(): void;
}

export function appDatabase(database: TestDatabase): AppDatabase {
  const dataDir = mkdtempSync(join(tmpdir(), 'lnk-built-app-'));
  const config = database.config;
  if (config.kind === 'postgres') {
    return {
      kind: 'postgres',
      env: { DATABASE_URL: config.url, DATA_DIR: dataDir },
      query: async <T>(text: string, params: unknown[] = []) => {
        const client = new Client({ connectionString: config.url });
        await client.connect();
        try {
          return (await client.query(text, params)).rows as T[];
        } finally {
          await client.end();
        }
      },
      remove: () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  return {
    kind: 'pglite',
    env: { DATA_DIR: dataDir },
    query: async <T>(text: string, params: unknown[] = []) => {
      // While an app holds it, through the app's socket (opening the files a second time would read a stale copy).
      const dataSource = await connectDatabase({ kind: 'pglite', dataDir }, PERSISTENCE_MODULES, { name: 'a test' });
      try {
        return (await dataSource.query(text, params)) as T[];
      } finally {
        await dataSource.destroy();
      }
    },
    remove: () => rmSync(dataDir, { recursive: true, force: true }),
  };
}

/** Settings every spawned app gets; a test's own env wins. */
function baseEnv(port: number, env: Record<string, string>): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  // The test run's own settings are not the app's business.
  delete inherited['DATABASE_URL'];
  delete inherited['REDIS_URL'];
  delete inherited['SMTP_URL'];
  // NODE_ENV=production would ask for production settings; a test that wants it says so in its env.
  delete inherited['NODE_ENV'];
  // Tests read the JSON lines of a process whose output is a pipe; one that wants readable lines says so.
  delete inherited['LOG_FORMAT'];
  return {
    ...inherited,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
    SHORT_BASE_URL: `http://127.0.0.1:${port}`,
    LOG_LEVEL: 'warn',
    BCRYPT_COST: '4',
    // Every test request comes from one address.
    RATE_LIMIT_API: '1000000/60',
    RATE_LIMIT_PUBLIC: '1000000/60',
    ...env,
  };
}

/**
 * Runs a built script (`apps/api/src/main.js`, `apps/redirect/src/main.js`...) to its end, with the
 * spawned apps' settings and `env`; one still running after `timeoutMs` is killed (its code is then -1).
 */
export function runBuiltScript(
  dist: BuiltDist,
  script: string,
  env: Record<string, string>,
  timeoutMs = 20_000,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return run(process.execPath, [join(dist.dir, script)], { env: baseEnv(0, env), timeout: timeoutMs });
}

/** Runs the built operator CLI; its last stdout line is JSON. */
export async function runBuiltCli(
  dist: BuiltDist,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; json: any; stdout: string; stderr: string }> {
  const result = await run(process.execPath, [join(dist.dir, 'apps/cli/src/main.js'), ...args], { env: baseEnv(0, env), timeout: 60_000 });
  const last = result.stdout.trim().split('\n').pop();
  let json: unknown;
  try {
    json = last ? JSON.parse(last) : undefined;
  } catch {
    json = undefined;
  }
  return { ...result, json };
}

/** An account made with the built app's operator CLI, and the password grant its first-party client signs in with. */
export interface OperatorAccount {
  email: string;
  password: string;
  clientId: string;
  clientSecret: string;
  grant: { grant_type: 'password'; client_id: string; client_secret: string; username: string; password: string };
}

/** `user:create` then `client:create` through the built CLI (each must exit 0), as an operator sets up a first account. */
export async function operatorAccount(dist: BuiltDist, env: Record<string, string>, name: string): Promise<OperatorAccount> {
  const email = `${name.replace(/\W+/g, '-')}@example.com`;
  const password = `${name} password`;
  const user = await runBuiltCli(dist, ['user:create', '--email', email, '--password', password], env);
  if (user.code !== 0) throw new Error(`user:create failed: ${user.stderr}`);
  const client = await runBuiltCli(dist, ['client:create', '--owner', email, '--name', name], env);
  if (client.code !== 0) throw new Error(`client:create failed: ${client.stderr}`);
  const { clientId, clientSecret } = client.json as { clientId: string; clientSecret: string };
  return {
    email,
    password,
    clientId,
    clientSecret,
    grant: { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username: email, password },
  };
}

/**
 * What a database fault test needs before the fault: a signed-in token, a second token never used (nothing
 * about it cached in the app), a link `steady` whose first redirect has put it in the cache, and that
 * first click written. `visits()` reads the link's counted visits from the database.
 */
export async function steadyLink(
  baseUrl: string,
  grant: OperatorAccount['grant'],
  db: AppDatabase,
): Promise<{ token: string; unusedToken: string; linkId: string; visits(): Promise<number> }> {
  const signIn = await call(baseUrl, 'POST', '/oauth/token', { body: grant });
  if (signIn.status !== 200) throw new Error(`sign-in failed: ${signIn.status}`);
  const token: string = signIn.body.data.access_token;
  const unusedToken: string = (await call(baseUrl, 'POST', '/oauth/token', { body: grant })).body.data.access_token;
  const created = await call(baseUrl, 'POST', '/user/link', { token, body: { url: 'https://example.com/steady', slug: 'steady' } });
  if (created.status !== 200) throw new Error(`link creation failed: ${created.status}`);
  const linkId: string = created.body.data.id;
  const first = await fetch(`${baseUrl}/steady`, { redirect: 'manual', headers: asBrowser() });
  if (first.status !== 302) throw new Error(`the first redirect answered ${first.status}`);
  const visits = async () =>
    (
      await db.query<{ visits: number }>('SELECT COALESCE(sum(visits), 0)::int AS visits FROM link_daily_stats WHERE link_id = $1', [
        linkId,
      ])
    )[0].visits;
  await eventually('the first click is written', async () => (await visits()) === 1);
  return { token, unusedToken, linkId, visits };
}

/**
 * What a client is answered while the database is away or silent: reads with the token used before and with
 * the one never seen, a write, and a sign-in. Each with its status, body and Retry-After.
 */
export async function answersWithoutDatabase(
  baseUrl: string,
  grant: OperatorAccount['grant'],
  tokens: { token: string; unusedToken: string },
  slug: string,
) {
  // One after the other, as a client would make them.
  const requests: [string, () => Promise<Answer>][] = [
    ['GET /user/link', () => call(baseUrl, 'GET', '/user/link', { token: tokens.token })],
    ['GET /user/link (a token never used)', () => call(baseUrl, 'GET', '/user/link', { token: tokens.unusedToken })],
    ['GET /user/me', () => call(baseUrl, 'GET', '/user/me', { token: tokens.token })],
    ['POST /user/link', () => call(baseUrl, 'POST', '/user/link', { token: tokens.token, body: { url: 'https://example.com/new', slug } })],
    ['POST /oauth/token', () => call(baseUrl, 'POST', '/oauth/token', { body: grant })],
  ];
  const answers = [];
  for (const [request, send] of requests) {
    const { status, body, headers } = await send();
    answers.push({ request, status, body, retryAfter: headers.get('retry-after') });
  }
  return answers;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnedApp {
  baseUrl: string;
  port: number;
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far, in order of arrival. */
  output(): string;
  /** Settles when the process has exited. */
  exited: Promise<Exit>;
  /** True while the process runs. */
  running(): boolean;
  /** SIGTERM, then SIGKILL if it has not exited after `graceMs`. */
  stop(graceMs?: number): Promise<Exit>;
}

/** How a process is started: its output a pipe, or (`terminal`) a pseudo-terminal, as in a person's shell. */
export interface SpawnOptions {
  /**
   * Runs it under util-linux `script`, whose child has a pseudo-terminal for its standard streams (what it
   * writes comes back through `script`, lines ending in CR LF); SIGTERM to `script` is passed on to it.
   */
  terminal?: boolean;
}

/**
 * Starts `node <script>` with `env` (in `cwd`, the repository by default), keeping what it writes, and waits
 * until `ready()` answers true (or the process exits, or 60 s pass: then it is stopped and the error carries its output).
 */
export async function spawnProcess(
  what: string,
  script: string,
  env: NodeJS.ProcessEnv,
  ready: { probe: (output: string) => Promise<boolean>; as: string },
  everyMs: number,
  cwd = root,
  options: SpawnOptions = {},
): Promise<SpawnedProcess> {
  const quote = (arg: string) => `'${arg.replace(/'/g, `'\\''`)}'`;
  const child = options.terminal
    ? spawn('script', ['--quiet', '--return', '--command', `exec ${quote(process.execPath)} ${quote(script)}`, '/dev/null'], {
        cwd,
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    : spawn(process.execPath, [script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk));
  let exit: Exit | null = null;
  // 'close', not 'exit': by then stdout and stderr have been read to their end.
  const exited = new Promise<Exit>((resolve) => child.once('close', (code, signal) => resolve((exit = { code, signal }))));
  const output = () => Buffer.concat(chunks).toString('utf8');
  const stop = async (graceMs = 10_000): Promise<Exit> => {
    if (exit) return exit;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    try {
      return await exited;
    } finally {
      clearTimeout(timer);
    }
  };
  const started = Date.now();
  while (!(await ready.probe(output()))) {
    if (exit) throw new Error(`${what} exited before it ${ready.as} (${JSON.stringify(exit)}):\n${output()}`);
    if (Date.now() - started > 60_000) {
      await stop(1000);
      throw new Error(`${what} had not ${ready.as} within 60 s:\n${output()}`);
    }
    await sleep(everyMs);
  }
  return { child, output, exited, running: () => exit === null, stop };
}

/** Starts `node <script>` from dist with `env` on `port` (in `cwd`, the repository by default), ready once `readyPath` answers 200. */
export async function spawnBuilt(
  what: string,
  script: string,
  port: number,
  env: NodeJS.ProcessEnv,
  readyPath: string,
  cwd = root,
  options: SpawnOptions = {},
): Promise<SpawnedApp> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const answers = async () => {
    try {
      return (await fetch(baseUrl + readyPath)).status === 200;
    } catch {
      return false; // not listening yet
    }
  };
  return { baseUrl, port, ...(await spawnProcess(what, script, env, { probe: answers, as: 'answered' }, 100, cwd, options)) };
}

/** Starts the built app and waits until it answers /health/live. */
export async function spawnBuiltApp(dist: BuiltDist, env: Record<string, string>, options: SpawnOptions = {}): Promise<SpawnedApp> {
  const port = await freePort();
  return spawnBuilt('the app', join(dist.dir, 'apps/api/src/main.js'), port, baseEnv(port, env), '/health/live', root, options);
}

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

/** One JSON request to a spawned app. */
export async function call<T = any>(
  baseUrl: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const response = await fetch(baseUrl + path, {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    redirect: 'manual',
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON
  }
  return { status: response.status, body: body as T, text, headers: response.headers };
}

/** Polls `probe` until it answers true, or fails after `timeoutMs`. */
export async function eventually(what: string, probe: () => Promise<boolean>, timeoutMs = 15_000, everyMs = 200): Promise<void> {
  const started = Date.now();
  let last: unknown;
  for (;;) {
    try {
      if (await probe()) return;
      last = undefined;
    } catch (error) {
      last = error;
    }
    if (Date.now() - started > timeoutMs)
      throw new Error(`${what}: not so after ${timeoutMs} ms${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await sleep(everyMs);
  }
}

/**
 * The beforeAll/afterAll of a test file whose app or CLI runs share one fresh database: the test database
 * and where a spawned process keeps its data, removed afterwards. Call the returned function inside a test.
 */
export function useAppDatabase(): () => { database: TestDatabase; db: AppDatabase } {
  let fixture: { database: TestDatabase; db: AppDatabase } | undefined;
  beforeAll(async () => {
    const database = await createTestDatabase();
    fixture = { database, db: appDatabase(database) };
  });
  afterAll(async () => {
    await fixture?.database.drop();
    fixture?.db.remove();
  });
  return () => {
    if (!fixture) throw new Error('the app database fixture is not ready');
    return fixture;
  };
}

export interface BuiltAppFixture {
  dist: BuiltDist;
  database: TestDatabase;
  db: AppDatabase;
}

/**
 * The beforeAll/afterAll of a test file that runs the built app on a fresh database: builds (once, under
 * a lock) and copies dist, creates the database; afterwards runs `cleanup` (stop the app...) and removes
 * it all. Call the returned function inside a test.
 */
export function useBuiltApp(cleanup: () => Promise<unknown> = async () => undefined): () => BuiltAppFixture {
  let fixture: BuiltAppFixture | undefined;
  beforeAll(async () => {
    const dist = await buildApp();
    const database = await createTestDatabase();
    fixture = { dist, database, db: appDatabase(database) };
  }, 180_000);
  afterAll(async () => {
    await cleanup();
    await fixture?.database.drop();
    fixture?.db.remove();
    fixture?.dist.remove();
  });
  return () => {
    if (!fixture) throw new Error('the built app fixture is not ready');
    return fixture;
  };
}

/** Starts the built redirect app (apps/redirect) and waits until its /health answers 200. */
export async function spawnBuiltRedirect(dist: BuiltDist, env: Record<string, string>): Promise<SpawnedApp> {
  const port = await freePort();
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'REDIS_URL', 'NODE_ENV', 'LOG_FORMAT']) delete inherited[name];
  return spawnBuilt(
    'the redirect app',
    join(dist.dir, 'apps/redirect/src/main.js'),
    port,
    { ...inherited, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    '/health',
  );
}

/** A process without an HTTP port: its output so far, its exit, and a stop (SIGTERM, then SIGKILL after `graceMs`). */
export type SpawnedProcess = Omit<SpawnedApp, 'baseUrl' | 'port'>;

/**
 * Starts the built webhook delivery worker (`node dist/apps/api/src/worker.js`) with the API's settings and
 * waits for its start line (it logs at info here, whatever the test's LOG_LEVEL), or its exit, or 60 s.
 */
export async function spawnBuiltWorker(dist: BuiltDist, env: Record<string, string>): Promise<SpawnedProcess> {
  const started = async (output: string) => output.includes('webhook delivery worker started');
  return spawnProcess(
    'the webhook worker',
    join(dist.dir, 'apps/api/src/worker.js'),
    baseEnv(0, { ...env, LOG_LEVEL: 'info' }),
    { probe: started, as: 'started' },
    50,
  );
}
