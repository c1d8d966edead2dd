import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `nx affected` is only as good as the project graph: without Nx's analysis of TypeScript imports (off
 * unless nx.json asks for it, since no @nx/js package is a direct dependency) every project stood alone,
 * so a change to a library named that library only and the apps' tests never ran for it.
 */

const root = join(__dirname, '..', '..', '..');
const env = { ...process.env, NX_DAEMON: 'false', NX_NO_CLOUD: 'true' };
const nx = (...args: string[]) => execFileSync(process.execPath, [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), ...args], { cwd: root, env, encoding: 'utf8' });
const affectedBy = (file: string) => nx('show', 'projects', '--affected', `--files=${file}`).split('\n').filter(Boolean).sort();

describe('the project graph behind nx affected', () => {
  let dependencies: Record<string, { target: string }[]>;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-graph-'));
    try {
      nx('graph', `--file=${join(dir, 'graph.json')}`);
      dependencies = JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8')).graph.dependencies;
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  const targetsOf = (project: string) => dependencies[project].map((d) => d.target);

  it('has an edge for each import of a path alias', () => {
    expect(targetsOf('links-adapter-typeorm')).toEqual(expect.arrayContaining(['links-domain', 'shared-kernel', 'shared-database']));
    expect(targetsOf('redirect')).toEqual(expect.arrayContaining(['links-adapter-http', 'links-domain', 'bridges']));
    expect(targetsOf('api')).toEqual(expect.arrayContaining(['links-adapter-typeorm', 'identity-domain', 'billing-adapter-stripe']));
    // The API's tests start the built redirect app, so a change there is the API's too.
    expect(targetsOf('api')).toContain('redirect');
    expect(targetsOf('shared-kernel')).toEqual([]);
  });

  it('names a changed library and what depends on it, and nothing else', () => {
    expect(affectedBy('libs/links/adapter-crypto/src/index.ts')).toEqual(['api', 'links-adapter-crypto']);
    expect(affectedBy('apps/redirect/src/main.ts')).toEqual(['api', 'redirect']);
  }, 60_000);
});
