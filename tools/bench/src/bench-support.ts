import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';

const root = join(__dirname, '..', '..', '..', '..');
const dist = (file: string) => join(root, 'dist', file);

/** A throw-away PostgreSQL database for one benchmark run (BENCH_DATABASE_URL's server, else the local one). */
export async function benchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = process.env['BENCH_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = `lnk_bench_${Date.now().toString(36)}`;
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
  return { url: url.toString(), drop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
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
  process: ChildProcess;
  close(): Promise<void>;
}

/**
 * The built app as production runs it (`node dist/apps/api/src/main.js`) on the given database, with
 * an account made by the operator CLI and signed in through the password grant.
 */
export async function startBenchApp(databaseUrl: string, env: Record<string, string> = {}): Promise<BenchApp> {
  const port = await freePort();
  const appEnv = { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', BCRYPT_COST: '4', DATA_DIR: join(root, 'tmp', 'bench-data'), ...env };
  const cli = (...args: string[]) => JSON.parse(execFileSync(process.execPath, [dist('apps/api/src/cli/main.js'), ...args], { env: appEnv, encoding: 'utf8' }).trim().split('\n').pop() as string);
  const email = `bench-${Date.now()}@example.com`;
  const user = cli('user:create', '--email', email, '--password', 'bench password');
  const client = cli('client:create', '--owner', email, '--name', 'bench');

  const child = spawn(process.execPath, [dist('apps/api/src/main.js')], { env: appEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  const baseUrl = `http://127.0.0.1:${port}`;
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
    body: JSON.stringify({ grant_type: 'password', client_id: client.clientId, username: email, password: 'bench password' }),
  });
  const token = ((await signIn.json()) as { data: { access_token: string } }).data.access_token;
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  return {
    baseUrl,
    db,
    token,
    userId: user.id,
    process: child,
    close: async () => {
      await db.end();
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

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
