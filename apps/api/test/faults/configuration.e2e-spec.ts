import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, BuiltDist, runBuiltCli, runBuiltScript } from '../support/built-app';

/**
 * Every process reads the same configuration table before it starts anything: the API, the redirect app,
 * the webhook delivery worker and the operator CLI. A bad value is one line naming the variable and what
 * it accepts, and exit 1; never a stack trace, nor a process that goes on with a setting other than the
 * one meant.
 */
describe('a bad configuration value, in every process of the built app', () => {
  let dist: BuiltDist | undefined;
  beforeAll(async () => {
    dist = await buildApp();
  }, 180_000);
  afterAll(() => dist?.remove());

  // Nothing listens there: a process that got past its configuration would fail later, and differently.
  const nowhere = { DATABASE_URL: 'postgres://127.0.0.1:1/none' };
  const everyProcess = (env: Record<string, string>) => {
    const built = dist as BuiltDist;
    const lines = ({ code, stdout, stderr }: { code: number; stdout: string; stderr: string }) => ({
      code,
      lines: `${stdout}${stderr}`.trim().split('\n'),
    });
    return Promise.all([
      runBuiltScript(built, 'apps/api/src/main.js', { ...nowhere, ...env }).then((r) => ({ process: 'the API', ...lines(r) })),
      runBuiltScript(built, 'apps/redirect/src/main.js', { ...nowhere, ...env }).then((r) => ({
        process: 'the redirect app',
        ...lines(r),
      })),
      runBuiltScript(built, 'apps/api/src/worker.js', { ...nowhere, ...env }).then((r) => ({
        process: 'the delivery worker',
        ...lines(r),
      })),
      runBuiltCli(built, ['user:list'], { ...nowhere, ...env }).then((r) => ({ process: 'the CLI', ...lines(r) })),
    ]);
  };

  // The audit: `on` and `yes` were taken for the name of a proxy, so the API threw proxy-addr's stack trace,
  // while the redirect app, the worker and the CLI started, trusting no proxy at all (or, for `1.2.3.4/99`,
  // failing at the first request that carried X-Forwarded-For).
  it.each(['on', 'yes', '1.2.3.4/99', '-1'])(
    'TRUST_PROXY=%s: one line naming TRUST_PROXY and its accepted forms, exit 1, in every process',
    async (value) => {
      const answers = await everyProcess({ TRUST_PROXY: value });
      const expected = new RegExp(
        '^Invalid configuration: TRUST_PROXY must be true \\(believe any X-Forwarded-For, which a client ' +
          'can write itself\\), false, a number of proxy hops from 0 to 32, or comma-separated proxy ' +
          `addresses and CIDRs .*\\(got "${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}"\\)$`,
      );
      for (const answer of answers) expect(answer).toEqual({ process: answer.process, code: 1, lines: [expect.stringMatching(expected)] });
    },
    120_000,
  );

  it('names every bad variable, one line each, and still exits 1', async () => {
    const answers = await everyProcess({ TRUST_PROXY: 'on', LOG_LEVEL: 'loud' });
    for (const answer of answers) {
      expect(answer).toEqual({
        process: answer.process,
        code: 1,
        lines: expect.arrayContaining([
          expect.stringMatching(/^Invalid configuration: TRUST_PROXY must be /),
          expect.stringMatching(/^Invalid configuration: LOG_LEVEL must be one of/),
        ]),
      });
      expect(answer.lines).toHaveLength(2);
    }
  }, 120_000);

  // The audit (issue 27, item 6): a DATA_DIR made beforehand and open to others was used as it was, and the
  // embedded database's files in it (e-mail addresses, bcrypt hashes) were readable by every local user.
  describe('a DATA_DIR open to other users', () => {
    let parent: string;
    beforeEach(() => {
      parent = mkdtempSync(join(tmpdir(), 'lnk-open-data-'));
    });
    afterEach(() => rmSync(parent, { recursive: true, force: true }));

    const openDataDir = () => {
      const dataDir = join(parent, 'data');
      mkdirSync(dataDir);
      chmodSync(dataDir, 0o777);
      return dataDir;
    };
    const refusal = (dataDir: string) =>
      `DATA_DIR ${dataDir} is open to other users (mode 0777): make it private with chmod 700 ${dataDir}, or choose another DATA_DIR`;

    it('stops the API on the embedded database with one line saying what to run, exit 1, before writing in it', async () => {
      const dataDir = openDataDir();
      const { code, stdout, stderr } = await runBuiltScript(dist as BuiltDist, 'apps/api/src/main.js', { DATA_DIR: dataDir });
      expect({ code, lines: `${stdout}${stderr}`.trim().split('\n') }).toEqual({ code: 1, lines: [refusal(dataDir)] });
      expect(readdirSync(dataDir)).toEqual([]);
    }, 60_000);

    it('stops the API on PostgreSQL too when DATA_DIR keeps the key file (no SECRET_KEY)', async () => {
      const dataDir = openDataDir();
      const { code, stdout, stderr } = await runBuiltScript(dist as BuiltDist, 'apps/api/src/main.js', { ...nowhere, DATA_DIR: dataDir });
      expect({ code, lines: `${stdout}${stderr}`.trim().split('\n') }).toEqual({ code: 1, lines: [refusal(dataDir)] });
      expect(readdirSync(dataDir)).toEqual([]);
    }, 60_000);

    it('stops an operator command on the embedded database the same way', async () => {
      const dataDir = openDataDir();
      const { code, stdout, stderr } = await runBuiltCli(dist as BuiltDist, ['user:list'], { DATA_DIR: dataDir });
      expect({ code, lines: `${stdout}${stderr}`.trim().split('\n') }).toEqual({ code: 1, lines: [`error: ${refusal(dataDir)}`] });
      expect(readdirSync(dataDir)).toEqual([]);
    }, 60_000);
  });
});
