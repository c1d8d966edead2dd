import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { CACHE_CHANNELS, RedisBus } from '@lnk/shared/redis';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { AppDatabase, appDatabase, buildApp, BuiltDist, eventually } from './support/built-app';

const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** Far more than a command takes here; a process still running then holds something it opened. */
const EXIT_WITHIN_MS = 30_000;

/**
 * With REDIS_URL set, a command that tells running servers about its change opens two Redis connections:
 * the CLI must close them (and the database) itself, or the process never ends.
 */
describe('operator CLI as a process, with REDIS_URL set', () => {
  let dist: BuiltDist;
  let database: TestDatabase;
  let db: AppDatabase;
  let listener: RedisBus;
  const revocations: unknown[] = [];
  const linkChanges: unknown[] = [];

  beforeAll(async () => {
    dist = await buildApp();
    database = await createTestDatabase();
    db = appDatabase(database);
    listener = new RedisBus(REDIS_URL);
    await listener.subscribe(CACHE_CHANNELS.tokensRevoked, (message) => revocations.push(message));
    await listener.subscribe(CACHE_CHANNELS.linkChanged, (message) => linkChanges.push(message));
  }, 180_000);

  afterAll(async () => {
    await listener?.close();
    await database.drop();
    db.remove();
    dist?.remove();
  });

  /** Runs the built CLI; `killed` says it had to be stopped because it did not exit by itself. */
  function run(args: string[]): Promise<{ code: number | null; killed: boolean; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(dist.dir, 'apps/cli/src/main.js'), ...args], {
        env: { PATH: process.env['PATH'] ?? '', ...db.env, REDIS_URL, BCRYPT_COST: '4', LOG_LEVEL: 'warn' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      let killed = false;
      const deadline = setTimeout(() => {
        killed = true;
        child.kill('SIGKILL');
      }, EXIT_WITHIN_MS);
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', (code) => {
        clearTimeout(deadline);
        resolve({ code, killed, stdout, stderr });
      });
    });
  }

  it('exits by itself after a command that tells the servers through Redis, and the servers are told', async () => {
    const created = await run(['user:create', '--email', 'redis-cli@example.com', '--password', 'long-enough-pw']);
    expect(created).toMatchObject({ code: 0, killed: false, stderr: '' });

    const changed = await run(['user:set-password', '--email', 'redis-cli@example.com', '--password', 'another-long-pw']);
    expect(changed).toMatchObject({ code: 0, killed: false, stderr: '' });
    await eventually('the revocation reached Redis', async () => revocations.length > 0, 5_000);

    const link = await run(['link:create', '--owner', 'redis-cli@example.com', '--url', 'https://example.com/a', '--slug', 'from-cli']);
    expect(link).toMatchObject({ code: 0, killed: false, stderr: '' });
    await eventually(
      'the new link reached Redis',
      async () => linkChanges.some((m) => (m as { slug?: string }).slug === 'from-cli'),
      5_000,
    );
  }, 120_000);

  it('exits by itself when the command fails after opening the bus', async () => {
    const failed = await run(['link:create', '--owner', 'nobody@example.com', '--url', 'https://example.com/b']);
    expect(failed).toMatchObject({ code: 2, killed: false });
    expect(failed.stderr).toContain('not found');
  }, 120_000);
});
