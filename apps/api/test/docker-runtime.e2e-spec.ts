import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { TEST_DB_ENV } from '@lnk/shared/testing';
import { call, eventually, SpawnedApp, SpawnedProcess, spawnBuilt, spawnProcess, useBuiltApp } from './support/built-app';
import { freePort } from './support/test-app';
import { asBrowser } from './support/visitor';

/**
 * The image's runtime stage (docker/Dockerfile), made without Docker: package.json and the lockfile in a
 * folder outside the repository, `npm ci --omit=dev` there, dist/ beside them, and the `lnk` script on the
 * PATH as the image links it. The API, the redirect app, the delivery worker and the CLI run from it in
 * production mode with PostgreSQL, Redis, a SECRET_KEY, a METRICS_TOKEN and no payment setting: a module
 * only a dev dependency (or tools/) provides, or a setting the image does not give, fails here first.
 */
const root = join(__dirname, '..', '..', '..');
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
const INSTALL_TIMEOUT_MS = 8 * 60_000;

/**
 * The install, once per file and before the tests are declared, so that a machine without the registry
 * skips them, saying so. Only a network failure skips: any other failure of the install fails the file.
 */
function installProductionDependencies(): { dir: string; skip: string | null; failure: string | null } {
  const dir = mkdtempSync(join(tmpdir(), 'lnk-runtime-'));
  for (const file of ['package.json', 'package-lock.json']) cpSync(join(root, file), join(dir, file));
  const npm = process.env['npm_execpath'];
  const [command, args] = npm ? [process.execPath, [npm]] : ['npm', []];
  // The image's command; --prefer-offline only takes what npm's cache already holds from the registry.
  const install = spawnSync(command, [...args, 'ci', '--omit=dev', '--no-audit', '--no-fund', '--prefer-offline'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: INSTALL_TIMEOUT_MS,
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (install.status === 0) return { dir, skip: null, failure: null };
  const output = `${install.stdout ?? ''}${install.stderr ?? ''}${install.error?.message ?? ''}`;
  rmSync(dir, { recursive: true, force: true });
  if (/ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|network/i.test(output)) {
    return {
      dir,
      skip: `npm ci --omit=dev could not reach the registry: ${output.trim().split('\n').slice(-3).join(' | ')}`,
      failure: null,
    };
  }
  return { dir, skip: null, failure: `npm ci --omit=dev failed (${install.status}):\n${output}` };
}

const onPostgres = process.env[TEST_DB_ENV.kind] === 'postgres';
const runtime = onPostgres
  ? installProductionDependencies()
  : { dir: '', skip: 'the run has no PostgreSQL server (the redirect app and the worker need one)', failure: null };
const describeRuntime: jest.Describe = runtime.skip
  ? (((name: string, fn: () => void) => {
      process.stderr.write(`[runtime-stage test] skipped "${name}": ${runtime.skip}\n`);
      describe.skip(name, fn);
    }) as jest.Describe)
  : describe;

describeRuntime('the image runtime stage: production dependencies and dist/ only', () => {
  const running: (SpawnedApp | SpawnedProcess)[] = [];
  const fixture = useBuiltApp();
  // Stopping three processes and removing a production node_modules take longer than a hook's default bound.
  afterAll(async () => {
    await Promise.all(running.map((started) => started.stop(5000)));
    if (runtime.dir) rmSync(runtime.dir, { recursive: true, force: true });
  }, 60_000);
  const app = runtime.dir;
  const SECRET_KEY = 'c'.repeat(64);
  const METRICS_TOKEN = 'runtime-metrics-token';
  let api: SpawnedApp;
  let env: Record<string, string>;
  let pat: string;

  beforeAll(() => {
    if (runtime.failure) throw new Error(runtime.failure);
    cpSync(fixture().dist.dir, join(app, 'dist'), { recursive: true });
    // As the image: bin/lnk, and a link to it in a folder on the PATH.
    mkdirSync(join(app, 'bin'));
    cpSync(join(root, 'docker', 'lnk'), join(app, 'bin', 'lnk'));
    mkdirSync(join(app, 'path'));
    symlinkSync(join(app, 'bin', 'lnk'), join(app, 'path', 'lnk'));
  });

  /** What the compose file gives every process of the image, and nothing of this test run's environment. */
  function imageEnv(port: number): Record<string, string> {
    const { DATABASE_URL } = fixture().db.env;
    return {
      PATH: `${join(app, 'path')}:${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL,
      REDIS_URL,
      SECRET_KEY,
      METRICS_TOKEN,
      DATA_DIR: join(app, '.data'),
      PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
      SHORT_BASE_URL: `http://127.0.0.1:${port}`,
      LOG_LEVEL: 'warn',
      BCRYPT_COST: '4',
    };
  }

  /** `lnk <args>` through the PATH, as `docker compose exec api lnk ...` runs it. */
  function lnk(args: string[], stdin = ''): Promise<{ code: number | null; stdout: string; stderr: string; json: any }> {
    return new Promise((resolve, reject) => {
      const child = spawn('lnk', args, { cwd: app, env, stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', (code) => {
        let json: unknown;
        try {
          json = JSON.parse(stdout.trim().split('\n').pop() ?? '');
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      });
      child.stdin.end(stdin);
    });
  }

  it('installed the production dependencies only', () => {
    expect(existsSync(join(app, 'node_modules', 'typeorm'))).toBe(true);
    for (const dev of ['jest', '@nestjs/testing', '@swc/core', 'nx', 'eslint', 'testcontainers', 'autocannon'])
      expect(existsSync(join(app, 'node_modules', dev))).toBe(false);
    expect(existsSync(join(app, 'tools'))).toBe(false);
  });

  it('starts the API in production with PostgreSQL, Redis, SECRET_KEY and METRICS_TOKEN, and no payment setting', async () => {
    const port = await freePort();
    env = imageEnv(port);
    api = await spawnBuilt('the API of the runtime stage', join(app, 'dist/apps/api/src/main.js'), port, env, '/health', app);
    running.push(api);
    expect((await call(api.baseUrl, 'GET', '/health')).status).toBe(200);
    expect((await call(api.baseUrl, 'GET', '/metrics')).status).toBe(401);
    expect((await call(api.baseUrl, 'GET', '/metrics', { token: METRICS_TOKEN })).status).toBe(200);
    // The configuration it ran with: a key file would mean SECRET_KEY was not read.
    expect(existsSync(join(app, '.data', 'secret.key'))).toBe(false);
  });

  it('runs the lnk CLI: its help names it, an account and a token for it, the plans with billing off', async () => {
    const help = await lnk(['--help']);
    expect([help.code, help.stderr]).toEqual([0, '']);
    expect(help.stdout).toMatch(/^usage: lnk <command> \[options\]/);
    expect(help.stdout).toContain('account:set-limits');

    const user = await lnk(['user:create', '--email', 'ops@example.com', '--password-stdin'], 'runtime-stage-password');
    expect([user.code, user.stderr]).toEqual([0, '']);
    expect(user.json).toMatchObject({ email: 'ops@example.com', isVerified: true });
    const token = await lnk([
      'token:create',
      '--owner',
      'ops@example.com',
      '--name',
      'runtime',
      '--scopes',
      'links:read links:write subscription:read',
    ]);
    expect(token.code).toBe(0);
    pat = token.json.token;
    expect(pat).toMatch(/^tkn_/);
    const plans = await lnk(['plan:list']);
    expect(plans.json).toMatchObject({ billing: 'off', defaultPlan: 'default' });
  });

  it('serves the account the CLI made: a link, and its plan with billing off', async () => {
    const created = await call(api.baseUrl, 'POST', '/user/link', {
      token: pat,
      body: { url: 'https://example.com/runtime', slug: 'runtime' },
    });
    expect(created.status).toBe(200);
    const current = await call(api.baseUrl, 'GET', '/user/subscription/current', { token: pat });
    expect(current.body.data).toMatchObject({ planId: 'default', status: 'active' });
    const checkout = await call(api.baseUrl, 'POST', '/user/subscription/checkout', {
      token: pat,
      body: { planId: 'pro', successUrl: 'https://a.example/ok', cancelUrl: 'https://a.example/no' },
    });
    expect([checkout.status, checkout.body.code]).toEqual([400, 'BILLING_DISABLED']);
  });

  it(
    'runs the redirect app from it, which answers the link; readable log lines ' +
      'with LOG_FORMAT=pretty (pino-pretty is a production dependency)',
    async () => {
      const port = await freePort();
      const redirect = await spawnBuilt(
        'the redirect app of the runtime stage',
        join(app, 'dist/apps/redirect/src/main.js'),
        port,
        { ...imageEnv(port), SHORT_BASE_URL: api.baseUrl, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' },
        '/health',
        app,
      );
      running.push(redirect);
      const answer = await fetch(`${redirect.baseUrl}/runtime`, { redirect: 'manual', headers: asBrowser() });
      expect([answer.status, answer.headers.get('location')]).toEqual([302, 'https://example.com/runtime']);
      expect(redirect.output()).toMatch(/^\[[\d:.]+\] INFO: redirect server listening on /m);
    },
  );

  it('runs the delivery worker from it, whose heartbeat file says it reaches the database', async () => {
    const heartbeat = join(app, 'worker-heartbeat');
    const worker = await spawnProcess(
      'the delivery worker of the runtime stage',
      join(app, 'dist/apps/api/src/worker.js'),
      { ...imageEnv(0), LOG_LEVEL: 'info', WEBHOOKS_WORKER_HEARTBEAT_FILE: heartbeat },
      { probe: async (output) => output.includes('webhook delivery worker started'), as: 'started' },
      50,
      app,
    );
    running.push(worker);
    await eventually('the worker writes its heartbeat', async () => existsSync(heartbeat));
    expect(Date.parse(readFileSync(heartbeat, 'utf8').trim())).toBeGreaterThan(Date.now() - 60_000);
  });
});
