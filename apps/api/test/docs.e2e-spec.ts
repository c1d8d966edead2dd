import { randomBytes } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { SCOPES } from '@lnk/identity/domain';
import { createTestDatabase, TEST_DB_ENV, type TestDatabase } from '@lnk/shared/testing';
import { buildApp, BuiltDist, runBuiltCli, SpawnedApp, spawnBuiltApp } from './support/built-app';
import { Block, documentationFiles, Page, readPage, root, ServerKind } from './support/doc-pages';
import { matchesShown, Shell } from './support/doc-shell';

/**
 * Every command the documentation shows is run, as the Quickstart's are (quickstart.e2e-spec.ts): each
 * ```sh block of README.md and docs/**.md, in order, one bash per page, and what it prints compared with
 * the ```text block right after it (`…` stands for any text; standard error is shown too, as a terminal
 * shows it). A block that cannot run here says why, `<!-- docs-test: not run: <why> -->` (a clone, Docker,
 * systemd, a public DNS name, minutes of load): an unannotated block is run, so none is left out unseen.
 * Commands go in ```sh blocks: a bash/shell/console block fails the test rather than escape it.
 *
 * Each page with commands names where they run (`<!-- docs-test: server postgres -->`, `server embedded`,
 * `no server`) and gets a fresh one: a work folder holding `dist` (the test's build), `.env.example`,
 * `docker/` and `docs/`; with a server, the built app started as production starts it on a free port that
 * stands in for the docs' 3000 (`localhost:3000`, `PORT=3000`), on a fresh PostgreSQL database
 * (`DATABASE_URL` set in the shell too) or on the embedded database under `./.data`, an account
 * `ada@example.com` and `TOKEN`, a personal access token of hers with every scope. `npm run -s cli -- …`
 * and `npm run migrate` run the CLI of the same build (`npm run cli` would rebuild dist/ under the other
 * test files' feet); any other npm command fails, so it must be marked not run.
 *
 * And every relative link of those files points at a file that exists, and at a heading of it.
 *
 * DOCS_PRINT=1 prints what each block printed, for whoever writes the outputs down.
 */

const README_PORT = '3000';
const onPostgres = process.env[TEST_DB_ENV.kind] === 'postgres';
const pages = documentationFiles().map(readPage);
const SHELL_LANGUAGES = ['bash', 'shell', 'console', 'zsh', 'shell-session', 'sh-session'];

type Disposition = { run: true; retry: boolean; exits: number } | { run: false; why: string };

/** What the test does with a ```sh block, or why the block is wrong. */
function disposition(page: Page, block: Block): Disposition | { error: string } {
  const note = block.note;
  if (page.file === 'README.md' && block.section === 'Quickstart') {
    return note?.startsWith('docs-test:')
      ? { error: 'a Quickstart block takes quickstart-test annotations (quickstart.e2e-spec.ts runs it)' }
      : { run: false, why: 'run by quickstart.e2e-spec.ts' };
  }
  if (note === null) return { run: true, retry: false, exits: 0 };
  const notRun = /^docs-test: not run: (.{12,})$/.exec(note);
  if (notRun) return { run: false, why: notRun[1] };
  const exits = /^docs-test: exits (\d+)$/.exec(note);
  if (exits) return { run: true, retry: false, exits: Number(exits[1]) };
  if (/^docs-test: may be retried\b/.test(note)) return { run: true, retry: true, exits: 0 };
  return { error: `an annotation this test does not know (or a "not run" without its reason): ${note}` };
}

const runnable = (page: Page) => page.blocks.filter((block) => block.language === 'sh' && (disposition(page, block) as Disposition).run);

describe('the documentation', () => {
  it('is README.md and the pages under docs/', () => {
    expect(pages.map((page) => page.file)).toEqual(
      expect.arrayContaining(['README.md', 'CONTRIBUTING.md', 'docs/configuration.md', 'docs/self-hosting.md', 'docs/api.md']),
    );
  });

  it('marks every shell block it does not run, saying why; commands are ```sh blocks', () => {
    const problems: string[] = [];
    for (const page of pages) {
      for (const block of page.blocks) {
        const where = `${page.file}:${block.line}`;
        if (SHELL_LANGUAGES.includes(block.language))
          problems.push(`${where}: a \`\`\`${block.language} block: write commands as \`\`\`sh (this test runs them)`);
        if (block.language !== 'sh') {
          if (block.note) problems.push(`${where}: an annotation before a \`\`\`${block.language || 'plain'} block, which is never run`);
          continue;
        }
        const what = disposition(page, block);
        if ('error' in what) problems.push(`${where}: ${what.error}`);
      }
      for (const stray of page.strayNotes) problems.push(`${page.file}:${stray.line}: an annotation with no block after it: ${stray.note}`);
      const runs = runnable(page).length > 0;
      if (page.file !== 'README.md' && runs && page.server === null)
        problems.push(`${page.file}: runs commands but does not say where (<!-- docs-test: server postgres|embedded --> or no server)`);
      if (page.server !== null && !runs) problems.push(`${page.file}: names a server but runs no command`);
    }
    expect(problems).toEqual([]);
  });

  it('links only to files that exist, and to headings they have', () => {
    const byFile = new Map(pages.map((page) => [page.file, page]));
    const broken: string[] = [];
    for (const page of pages) {
      for (const { line, href } of page.links) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(href)) continue; // http:, https:, mailto:
        const [path, anchor] = href.split('#') as [string, string | undefined];
        const target = path ? normalize(join(dirname(page.file), decodeURIComponent(path))) : page.file;
        if (target.startsWith('..') || !existsSync(join(root, target))) {
          broken.push(`${page.file}:${line}: ${href} (no such file)`);
          continue;
        }
        if (anchor === undefined) continue;
        const linked = byFile.get(target) ?? (target.endsWith('.md') ? readPage(target) : undefined);
        if (!linked || statSync(join(root, target)).isDirectory()) {
          broken.push(`${page.file}:${line}: ${href} (an anchor into a file that is not a page)`);
        } else if (!linked.anchors.has(decodeURIComponent(anchor))) {
          broken.push(`${page.file}:${line}: ${href} (${target} has no heading #${anchor})`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('the documentation, every command run', () => {
  let dist: BuiltDist | undefined;
  beforeAll(async () => {
    dist = await buildApp();
  }, 180_000);
  afterAll(() => dist?.remove());

  const withCommands = pages.filter((page) => runnable(page).length > 0 && page.file !== 'README.md');

  it('has pages whose commands run', () => {
    expect(withCommands.length).toBeGreaterThan(0);
  });

  for (const page of withCommands) {
    const needsPostgres = page.server === 'postgres';
    (needsPostgres && !onPostgres ? it.skip : it)(
      `${page.file}: every command as written`,
      async () => {
        await runPage(page, dist as BuiltDist);
      },
      240_000,
    );
  }
  if (!onPostgres)
    process.stderr.write('[docs test] pages whose commands run against PostgreSQL are skipped: this run has no PostgreSQL server\n');
});

/** The page's environment: a work folder, its server (if any) with an account and TOKEN, and a bash in that folder. */
async function runPage(page: Page, dist: BuiltDist): Promise<void> {
  const workDir = mkdtempSync(join(tmpdir(), 'lnk-docs-'));
  let database: TestDatabase | undefined;
  let app: SpawnedApp | undefined;
  let shell: Shell | undefined;
  try {
    symlinkSync(dist.dir, join(workDir, 'dist'));
    for (const file of ['.env.example', 'docker', 'docs']) cpSync(join(root, file), join(workDir, file), { recursive: true });
    const kind = page.server as ServerKind;
    const settings: Record<string, string> = {};
    if (kind === 'postgres') {
      database = await createTestDatabase();
      if (database.config.kind !== 'postgres') throw new Error('the page needs PostgreSQL');
      // As production runs: PostgreSQL, its own key, /metrics behind its token.
      Object.assign(settings, {
        NODE_ENV: 'production',
        DATABASE_URL: database.config.url,
        SECRET_KEY: randomBytes(32).toString('hex'),
        METRICS_TOKEN: randomBytes(16).toString('hex'),
      });
    }
    let port = README_PORT;
    const env: NodeJS.ProcessEnv = { ...process.env };
    // The test run's own settings are not the page's.
    for (const name of [
      'DATABASE_URL',
      'REDIS_URL',
      'SMTP_URL',
      'NODE_ENV',
      'PUBLIC_BASE_URL',
      'SHORT_BASE_URL',
      'LOG_FORMAT',
      'DATA_DIR',
      'PORT',
      'HOST',
    ])
      delete env[name];
    if (kind !== 'none') {
      // As production starts it: the defaults, but for the port (the docs' 3000 may be taken) and a fresh database.
      app = await spawnBuiltApp(dist, {
        ...settings,
        DATA_DIR: join(workDir, '.data'),
        PUBLIC_BASE_URL: '',
        SHORT_BASE_URL: '',
        HOST: '',
        BCRYPT_COST: '',
        LOG_LEVEL: 'warn',
      });
      port = String(app.port);
      const cliEnv = { ...settings, DATA_DIR: join(workDir, '.data'), PORT: port };
      const ada = await runBuiltCli(
        dist,
        ['user:create', '--email', 'ada@example.com', '--password', 'correct horse battery staple'],
        cliEnv,
      );
      if (ada.code !== 0) throw new Error(`user:create failed: ${ada.stderr}`);
      const token = await runBuiltCli(
        dist,
        ['token:create', '--owner', 'ada@example.com', '--name', 'docs', '--scopes', SCOPES.join(' ')],
        cliEnv,
      );
      if (token.code !== 0) throw new Error(`token:create failed: ${token.stderr}`);
      Object.assign(env, settings, { PORT: port, TOKEN: token.json.token as string, LOG_LEVEL: 'warn' });
    }
    const local = (text: string) => text.replace(/\b3000\b/g, port);
    const cli = join(dist.dir, 'apps/cli/src/main.js');
    const prelude = [
      `npm() { if [ "$1 $2 $3 $4" = "run -s cli --" ]; then shift 4; ${JSON.stringify(process.execPath)} ` +
        `${JSON.stringify(cli)} "$@"; elif [ "$*" = "run migrate" ]; then ${JSON.stringify(process.execPath)} ` +
        `${JSON.stringify(cli)} migrate; else echo "the docs test runs only 'npm run -s cli -- ...' and 'npm run ` +
        `migrate', not: npm $* (mark the block not run, saying why)" >&2; return 127; fi; }`,
      `node() { ${JSON.stringify(process.execPath)} "$@"; }`,
    ].join('\n');
    shell = new Shell(workDir, env, prelude, { mergeStderr: true });
    for (const block of runnable(page)) {
      const what = disposition(page, block) as Extract<Disposition, { run: true }>;
      const command = local(block.body);
      const expected = block.shown === null ? null : local(block.shown);
      const deadline = Date.now() + (what.retry ? 10_000 : 0);
      let result = await shell.run(command);
      while (expected !== null && !matchesShown(expected, result.output) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 250));
        result = await shell.run(command);
      }
      if (process.env['DOCS_PRINT'])
        process.stdout.write(`${page.file}:${block.line}\n$ ${command}\n${result.output}\n(exit ${result.status})\n\n`);
      const where = `${page.file}:${block.line}`;
      if (expected !== null && !matchesShown(expected, result.output)) {
        throw new Error(
          `${where}: the block\n\n${command}\n\nprinted\n\n${result.output}\n\ninstead of\n\n${expected}\n\n(exit ` +
            `status ${result.status}${app ? `; server output:\n${app.output().slice(-2000)}` : ''})`,
        );
      }
      if (result.status !== what.exits)
        throw new Error(`${where}: the block\n\n${command}\n\nexited ${result.status}, not ${what.exits}; it printed:\n${result.output}`);
    }
  } finally {
    shell?.close();
    await app?.stop();
    await database?.drop();
    rmSync(workDir, { recursive: true, force: true });
  }
}
