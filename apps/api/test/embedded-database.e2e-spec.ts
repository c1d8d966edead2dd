import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BuiltDist, buildApp, call, runBuiltCli, SpawnedApp, spawnBuiltApp } from './support/built-app';

/**
 * The embedded database (PGlite under DATA_DIR) belongs to one process. Two processes opening the same
 * files each keep their own copy in memory, and the last to close overwrites the other's writes with no
 * error: accounts made by the CLI while the server ran, links made through a second server, all gone.
 */
describe('the embedded database belongs to one process', () => {
  let dist: BuiltDist;
  let dataDir: string;
  const running: SpawnedApp[] = [];

  beforeAll(async () => {
    dist = await buildApp();
  }, 180_000);

  beforeEach(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'lnk-embedded-'));
  });

  afterEach(async () => {
    await Promise.all(running.splice(0).map((app) => app.stop()));
    rmSync(dataDir, { recursive: true, force: true });
  });

  afterAll(() => dist?.remove());

  async function start(): Promise<SpawnedApp> {
    const app = await spawnBuiltApp(dist, { DATA_DIR: dataDir });
    running.push(app);
    return app;
  }

  async function signIn(app: SpawnedApp, client: { clientId: string; clientSecret: string }, username: string, password: string) {
    return call(app.baseUrl, 'POST', '/oauth/token', {
      body: { grant_type: 'password', client_id: client.clientId, client_secret: client.clientSecret, username, password },
    });
  }

  // Defends against the lost update: a second `npm start` on another port used to open the same files,
  // and whatever it wrote vanished when the first one closed.
  it(
    'refuses a second server on the same DATA_DIR with one line naming the ' + 'first (pid and URL), exit 1, and the first keeps serving',
    async () => {
      const first = await start();
      const second = spawnBuiltApp(dist, { DATA_DIR: dataDir });
      const refusal = await second.then(
        () => {
          throw new Error('the second server started');
        },
        (error: Error) => error.message,
      );
      expect(refusal).toContain('{"code":1,"signal":null}');
      expect(refusal).toContain(
        `the embedded database in ${dataDir} is open in the server (pid ${first.child.pid}, ${first.baseUrl}): stop that process first`,
      );
      // It said so before opening anything: no stack trace, no database start-up.
      expect(refusal).not.toMatch(/\n\s+at /);
      expect((await call(first.baseUrl, 'GET', '/health')).status).toBe(200);
    },
    120_000,
  );

  // Defends against the CLI writing into a copy of its own: the accounts it made were refused by the
  // running server (INVALID_CLIENT) and gone after a restart.
  it(
    'lets the CLI create a user and a client while the server runs: the ' + 'server accepts them at once, and they survive a restart',
    async () => {
      const server = await start();
      const user = await runBuiltCli(dist, ['user:create', '--email', 'ops@example.com', '--password', 'long-enough-pw'], {
        DATA_DIR: dataDir,
      });
      expect(user.stderr).toBe('');
      expect(user.code).toBe(0);
      const client = await runBuiltCli(dist, ['client:create', '--name', 'Ops console', '--owner', 'ops@example.com'], {
        DATA_DIR: dataDir,
      });
      expect(client.code).toBe(0);
      expect(client.json.clientId).toMatch(/^cl_/);

      const now = await signIn(server, client.json, 'ops@example.com', 'long-enough-pw');
      expect(now.status).toBe(200);
      expect(now.body.data.access_token).toEqual(expect.any(String));

      await server.stop();
      const again = await start();
      const later = await signIn(again, client.json, 'ops@example.com', 'long-enough-pw');
      expect(later.status).toBe(200);
    },
    180_000,
  );

  // Defends against a lock that outlives its process: after a crash (kill -9), the socket file the
  // server listened on stays behind, and must not keep the next start out.
  it('starts after a server killed with SIGKILL, whose socket file was left behind', async () => {
    const killed = await start();
    const made = await runBuiltCli(dist, ['user:create', '--email', 'kept@example.com', '--password', 'long-enough-pw'], {
      DATA_DIR: dataDir,
    });
    expect(made.code).toBe(0);
    killed.child.kill('SIGKILL');
    expect(await killed.exited).toEqual({ code: null, signal: 'SIGKILL' });
    expect(existsSync(join(dataDir, 'socket', '.s.PGSQL.5432'))).toBe(true);

    const next = await start();
    expect((await call(next.baseUrl, 'GET', '/health')).status).toBe(200);
    // And the CLI reaches it, not the dead one's socket.
    const listed = await runBuiltCli(dist, ['migrate'], { DATA_DIR: dataDir });
    expect(listed.code).toBe(0);
  }, 180_000);

  // With no server running, the CLI opens the database itself, and lets it go when it is done: a server
  // starting afterwards is not refused.
  it('lets the CLI open the database itself while no server runs, and release it', async () => {
    const made = await runBuiltCli(dist, ['user:create', '--email', 'first@example.com', '--password', 'long-enough-pw'], {
      DATA_DIR: dataDir,
    });
    expect(made.code).toBe(0);
    expect(existsSync(join(dataDir, 'socket', '.s.PGSQL.5432'))).toBe(false);
    const server = await start();
    const client = await runBuiltCli(dist, ['client:create', '--name', 'Console'], { DATA_DIR: dataDir });
    expect(client.code).toBe(0);
    expect((await signIn(server, client.json, 'first@example.com', 'long-enough-pw')).status).toBe(200);
  }, 180_000);
});
