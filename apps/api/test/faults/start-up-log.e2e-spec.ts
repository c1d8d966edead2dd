import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { TEST_DB_ENV } from '@lnk/shared/testing';
import { call, runBuiltCli, SpawnedApp, spawnBuiltApp, spawnBuiltRedirect, useBuiltApp } from '../support/built-app';
import { freePort } from '../support/test-app';

type Line = Record<string, unknown> & { level?: number; msg?: string; context?: string };

const INFO = 30;
const onPostgres = process.env[TEST_DB_ENV.kind] === 'postgres';

function linesOf(output: string): Line[] {
  return output
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      try {
        return JSON.parse(line) as Line;
      } catch {
        return { unparsed: line };
      }
    });
}

/**
 * What a person reads at LOG_LEVEL=info when the built app starts and stops: a line per start step, no
 * framework chatter (85 route-mapping lines), a line per request, a line at shutdown; and a busy port is
 * one clear line and exit 1 before the database is touched.
 */
describe('start-up and shutdown a person can read (built app)', () => {
  let app: SpawnedApp | undefined;
  const fixture = useBuiltApp(async () => app?.stop(2000));

  it(
    'at info: database ready, migrations, listening with its URL, the docs URL, then a line per ' +
      'request (path without its query) and a line at shutdown; route mappings only at debug',
    async () => {
      const { dist, db } = fixture();
      app = await spawnBuiltApp(dist, { ...db.env, LOG_LEVEL: 'info' });
      // The query may carry a token: the request line names the path alone.
      expect((await call(app.baseUrl, 'GET', '/user/me?access_token=at_NotARealTokenAtAll1234567890')).status).toBe(401);
      expect(await app.stop()).toEqual({ code: 0, signal: null });
      const lines = linesOf(app.output());
      const messages = lines.map((line) => String(line.msg ?? line['unparsed']));

      // No LOG_FORMAT and a pipe for stdout (not a terminal): JSON lines, every one.
      expect(lines.filter((line) => 'unparsed' in line)).toEqual([]);
      const expectedSteps = [
        /^(opening|connecting to) /,
        /^database ready: (PostgreSQL|embedded PGlite) /,
        /^migrations: /,
        new RegExp(`^listening on http://127\\.0\\.0\\.1:${app.port}$`),
        new RegExp(`^API docs at http://127\\.0\\.0\\.1:${app.port}/docs `),
      ];
      const steps = expectedSteps.map((pattern) => messages.findIndex((message) => pattern.test(message)));
      expect(steps.every((index) => index >= 0)).toBe(true);
      expect([...steps].sort((a, b) => a - b)).toEqual(steps);
      // Before "listening", a few start steps: no route mappings, no module list (it was over 100 lines).
      expect(messages.slice(0, steps[3] + 1).length).toBeLessThanOrEqual(8);
      expect(messages.filter((message) => /Mapped \{|dependencies initialized|Nest application/.test(message))).toEqual([]);

      const request = lines.find((line) => line['path'] === '/user/me');
      expect(request).toMatchObject({
        level: INFO,
        method: 'GET',
        statusCode: 401,
        reqId: expect.any(String),
        responseTime: expect.any(Number),
      });
      expect(app.output()).not.toContain('NotARealToken');
      expect(lines.find((line) => line['signal'] === 'SIGTERM')).toMatchObject({
        level: INFO,
        msg: expect.stringMatching(/^shutting down/),
      });
      expect(messages[messages.length - 1]).toMatch(/^database closed/);
    },
    120_000,
  );

  it('with LOG_REQUESTS=false logs no request line at info (high-traffic deployments), and shows the route mappings at debug', async () => {
    const { dist, db } = fixture();
    app = await spawnBuiltApp(dist, { ...db.env, LOG_LEVEL: 'info', LOG_REQUESTS: 'false' });
    expect((await call(app.baseUrl, 'GET', '/health/live')).status).toBe(200);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    expect(linesOf(app.output()).filter((line) => line['path'] !== undefined)).toEqual([]);

    app = await spawnBuiltApp(dist, { ...db.env, LOG_LEVEL: 'debug', LOG_REQUESTS: 'false' });
    expect((await call(app.baseUrl, 'GET', '/health/live')).status).toBe(200);
    expect(await app.stop()).toEqual({ code: 0, signal: null });
    const lines = linesOf(app.output());
    expect(lines.find((line) => line['path'] === '/health/live')).toMatchObject({ level: 20, statusCode: 200 });
    expect(lines.some((line) => line.level === 20 && /Mapped \{\/health\/live, GET\}/.test(String(line.msg)))).toBe(true);
  }, 120_000);

  /** The readable lines the app wrote: the pseudo-terminal's CR LF made LF, colours taken off. */
  const readableLinesOf = (output: string) => stripVTControlCharacters(output.replace(/\r\n/g, '\n')).split('\n').filter(Boolean);

  /** What a person reads: a time, the level and the message in words; not one JSON object; a token in a query nowhere. */
  function expectReadable(lines: string[], port: number): void {
    expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
    expect(lines.filter((line) => !/^\[\d{2}:\d{2}:\d{2}\.\d{3}\] (INFO|WARN|ERROR|DEBUG|TRACE|FATAL): /.test(line))).toEqual([]);
    expect(lines).toContainEqual(expect.stringMatching(new RegExp(`\\] INFO: listening on http://127\\.0\\.0\\.1:${port} \\{`)));
    expect(lines).toContainEqual(expect.stringMatching(/\] INFO: request completed \{.*"path":"\/user\/me".*"statusCode":401/));
    expect(lines.join('\n')).not.toContain('NotARealToken');
  }

  it(
    'writes readable lines with LOG_FORMAT=pretty, even to a pipe: time, level ' +
      'and message, no JSON object, to the last line at shutdown',
    async () => {
      const { dist, db } = fixture();
      app = await spawnBuiltApp(dist, { ...db.env, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
      expect((await call(app.baseUrl, 'GET', '/user/me?access_token=at_NotARealTokenAtAll1234567890')).status).toBe(401);
      expect(await app.stop()).toEqual({ code: 0, signal: null });
      // A pipe gets no colours.
      expect(app.output()).not.toContain('\u001b[');
      const lines = readableLinesOf(app.output());
      expectReadable(lines, app.port);
      // Written as they come, in the process: the shutdown's lines are there to the last one.
      expect(lines[lines.length - 1]).toMatch(/\] INFO: database closed/);
    },
    120_000,
  );

  it('writes readable lines without LOG_FORMAT when its output is a terminal (npm start in a shell)', async () => {
    const { dist, db } = fixture();
    app = await spawnBuiltApp(dist, { ...db.env, LOG_LEVEL: 'info', NO_COLOR: '' }, { terminal: true });
    expect((await call(app.baseUrl, 'GET', '/user/me?access_token=at_NotARealTokenAtAll1234567890')).status).toBe(401);
    // `script` ends the session on SIGTERM and says so; the app's own shutdown is the test above.
    await app.stop();
    // Coloured, on a terminal.
    expect(app.output()).toContain('\u001b[32mINFO\u001b[39m');
    expectReadable(
      readableLinesOf(app.output()).filter((line) => !line.startsWith('Session terminated')),
      app.port,
    );
  }, 120_000);

  // The redirect app runs on PostgreSQL only.
  (onPostgres ? it : it.skip)(
    'the redirect app writes readable lines with LOG_FORMAT=pretty too, to its last line at shutdown',
    async () => {
      const { dist, db } = fixture();
      // It does not migrate the database: the API's migrations first, as an operator runs them.
      expect((await runBuiltCli(dist, ['migrate'], db.env)).code).toBe(0);
      app = await spawnBuiltRedirect(dist, { DATABASE_URL: db.env['DATABASE_URL'], LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
      expect((await fetch(`${app.baseUrl}/no-such-link`)).status).toBe(404);
      expect(await app.stop()).toEqual({ code: 0, signal: null });
      const lines = readableLinesOf(app.output());
      expect(lines.filter((line) => line.startsWith('{'))).toEqual([]);
      expect(lines[0]).toMatch(
        new RegExp(`^\\[\\d{2}:\\d{2}:\\d{2}\\.\\d{3}\\] INFO: redirect server listening on http://127\\.0\\.0\\.1:${app.port} \\{`),
      );
      expect(lines[lines.length - 1]).toMatch(/\] INFO: stopped$/);
    },
    120_000,
  );

  it('refuses a busy port with one clear line and exit 1, before it creates or opens the embedded database', async () => {
    const { dist } = fixture();
    const port = await freePort();
    const holder: Server = createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', () => resolve()));
    const parent = mkdtempSync(join(tmpdir(), 'lnk-busy-port-'));
    const dataDir = join(parent, 'data');
    try {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env['PATH'] ?? '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'info',
      };
      const result = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
        execFile(
          process.execPath,
          [join(dist.dir, 'apps/api/src/main.js')],
          { env, timeout: 60_000, encoding: 'utf8' },
          (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
        );
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `Port ${port} on 127.0.0.1 is already in use (is the service already ` +
          'running?): stop what holds it, or start with PORT set to a free port.',
      ]);
      expect(result.stdout).toBe('');
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      holder.close();
      rmSync(parent, { recursive: true, force: true });
    }
  }, 120_000);
});
