import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, BuiltDist, SpawnedApp, spawnBuiltApp } from './support/built-app';
import { matchesShown as matches, Shell } from './support/doc-shell';

/**
 * The README's Quickstart, run as written: its ```sh blocks in order, in one shell (variables carry from
 * one block to the next), against the built app started as `npm start` starts it, on a fresh embedded
 * database. Each ```text block after a command block is that command's expected output; `…` in it stands
 * for any text. Only two things are substituted: `localhost:3000` becomes the test's free port, and
 * `npm run -s cli -- …` runs the CLI of the same build (`npm run cli` would rebuild dist/ under the
 * other test files' feet). A block after `<!-- quickstart-test: not run … -->` is not run (clone, npm ci,
 * npm start: the test does that part itself); after `<!-- quickstart-test: may be retried … -->` it is
 * run again until its output matches, for a few seconds (clicks are written once a second).
 *
 * QUICKSTART_PRINT=1 prints each step's output.
 *
 * It defends against a README that rots: a renamed flag, a changed answer, a step that no longer leads to
 * a counted click.
 */

const root = join(__dirname, '..', '..', '..');
const README_PORT = '3000';

interface Step {
  command: string;
  expected: string | null;
  run: boolean;
  retry: boolean;
}

function quickstartSteps(readme: string): Step[] {
  const start = readme.indexOf('\n## Quickstart\n');
  if (start < 0) throw new Error('the README has no "## Quickstart" section');
  const end = readme.indexOf('\n## ', start + 1);
  const section = readme.slice(start, end < 0 ? undefined : end);
  const steps: Step[] = [];
  for (const block of section.matchAll(/(?:<!-- quickstart-test: ([^\n]*?) -->\n)?```(\w*)\n([\s\S]*?)\n```/g)) {
    const [, note, language, body] = block;
    if (language === 'sh') {
      steps.push({ command: body, expected: null, run: !note?.startsWith('not run'), retry: Boolean(note?.startsWith('may be retried')) });
    } else if (language === 'text') {
      const last = steps[steps.length - 1];
      if (!last || last.expected !== null) throw new Error(`an expected output without its command:\n${body}`);
      last.expected = body;
    }
  }
  return steps;
}

describe('the README Quickstart', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const steps = quickstartSteps(readme);
  let dist: BuiltDist | undefined;
  let app: SpawnedApp | undefined;
  let shell: Shell | undefined;
  const dataDir = mkdtempSync(join(tmpdir(), 'lnk-quickstart-data-'));
  const workDir = mkdtempSync(join(tmpdir(), 'lnk-quickstart-work-'));

  afterAll(async () => {
    shell?.close();
    await app?.stop();
    dist?.remove();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(workDir, { recursive: true, force: true });
  });

  it('is there, starts the server with npm start, and shows what each command prints', () => {
    expect(steps.length).toBeGreaterThanOrEqual(6);
    const [first, ...rest] = steps;
    expect(first.run).toBe(false);
    expect(first.command).toContain('npm ci && npm start');
    // Every other block is run, and says what it prints.
    expect(rest.filter((step) => !step.run || step.expected === null)).toEqual([]);
  });

  it('leads from an empty database to a counted click, its statistics and its QR code, every command as written', async () => {
    try {
      execFileSync('curl', ['--version'], { stdio: 'ignore' });
    } catch {
      throw new Error('the Quickstart uses curl: install it to run this test');
    }
    dist = await buildApp();
    // As `npm start` runs it: the defaults, but for the port (the README's 3000 may be taken) and an empty DATA_DIR.
    app = await spawnBuiltApp(dist, {
      DATA_DIR: dataDir,
      PUBLIC_BASE_URL: '',
      SHORT_BASE_URL: '',
      HOST: '',
      BCRYPT_COST: '',
      LOG_LEVEL: 'warn',
    });
    const port = String(app.port);
    const local = (text: string) => text.replaceAll(`localhost:${README_PORT}`, `localhost:${port}`);
    const cli = join(dist.dir, 'apps/cli/src/main.js');
    const prelude = [
      // `npm run -s cli -- <args>`: the built CLI of this very build, with the server's settings.
      `npm() { if [ "$1 $2 $3 $4" = "run -s cli --" ]; then shift 4; ${JSON.stringify(process.execPath)} ${JSON.stringify(cli)} ` +
        `"$@"; else echo "the Quickstart test runs only 'npm run -s cli -- ...', not: npm $*" >&2; return 127; fi; }`,
      `node() { ${JSON.stringify(process.execPath)} "$@"; }`,
    ].join('\n');
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, PORT: port, LOG_LEVEL: 'warn' };
    // The test run's own settings are not the Quickstart's (the server runs without them too).
    for (const name of ['DATABASE_URL', 'REDIS_URL', 'SMTP_URL', 'NODE_ENV', 'PUBLIC_BASE_URL', 'SHORT_BASE_URL']) delete env[name];
    shell = new Shell(workDir, env, prelude);

    for (const step of steps.filter((s) => s.run)) {
      const command = local(step.command);
      const expected = local(step.expected as string);
      const deadline = Date.now() + (step.retry ? 10_000 : 0);
      let result = await shell.run(command);
      while (!matches(expected, result.output) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        result = await shell.run(command);
      }
      // QUICKSTART_PRINT=1 shows what each step printed, for whoever updates the README.
      if (process.env['QUICKSTART_PRINT']) process.stdout.write(`$ ${command}\n${result.output}\n\n`);
      if (!matches(expected, result.output)) {
        throw new Error(
          `The Quickstart step\n\n${command}\n\nprinted\n\n${result.output}\n\ninstead of\n\n${expected}\n\n(exit status ` +
            `${result.status}; stderr: ${result.stderr || '(none)'}; server output:\n${app.output().slice(-2000)})`,
        );
      }
      expect(result.status).toBe(0);
    }
    // The QR step wrote a PNG.
    expect(readFileSync(join(workDir, 'hello.png')).subarray(1, 4).toString('latin1')).toBe('PNG');
  }, 240_000);
});
