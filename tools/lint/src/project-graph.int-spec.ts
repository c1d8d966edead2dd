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
const nx = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), ...args], { cwd: root, env, encoding: 'utf8' });
const affectedBy = (file: string) => nx('show', 'projects', '--affected', `--files=${file}`).split('\n').filter(Boolean).sort();

describe('the project graph behind nx affected', () => {
  let dependencies: Record<string, { target: string }[]>;
  let tags: Record<string, string[]>;
  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'lnk-graph-'));
    try {
      nx('graph', `--file=${join(dir, 'graph.json')}`);
      const { graph } = JSON.parse(readFileSync(join(dir, 'graph.json'), 'utf8'));
      dependencies = graph.dependencies;
      tags = Object.fromEntries(
        Object.entries(graph.nodes as Record<string, { data: { tags?: string[] } }>).map(([name, node]) => [name, node.data.tags ?? []]),
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  const targetsOf = (project: string) => dependencies[project].map((d) => d.target);

  it('has an edge for each import of a path alias', () => {
    expect(targetsOf('links-adapter-typeorm')).toEqual(expect.arrayContaining(['links-domain', 'shared-kernel', 'shared-database']));
    expect(targetsOf('redirect')).toEqual(expect.arrayContaining(['links-adapter-http', 'links-domain', 'bridges']));
    expect(targetsOf('composition')).toEqual(
      expect.arrayContaining(['links-adapter-typeorm', 'identity-domain', 'billing-adapter-stripe']),
    );
    expect(targetsOf('api')).toEqual(expect.arrayContaining(['composition', 'identity-domain', 'links-adapter-nest']));
    // The API's tests start the built redirect app, so a change there is the API's too.
    expect(targetsOf('api')).toContain('redirect');
    expect(targetsOf('shared-kernel')).toEqual([]);
    // The API and the CLI compose the contexts from one library; the CLI's app runs its commands' library.
    expect(targetsOf('api')).toContain('composition');
    expect(targetsOf('cli')).toEqual(expect.arrayContaining(['cli-commands']));
    expect(targetsOf('cli-commands')).toContain('composition');
    // The redirect app composes the short-URL edge as the API does (through @lnk/composition/edge).
    expect(targetsOf('redirect')).toContain('composition');
  });

  // The projects a change in one context may name besides its own: the apps, the bridges and the composition
  // libraries (the composition root, the CLI's commands) compose contexts.
  const ofAnotherContext = (context: string) => (project: string) =>
    !tags[project].includes('type:app') &&
    !tags[project].includes('type:composition') &&
    !tags[project].includes('scope:bridges') &&
    !tags[project].includes(`scope:${context}`);

  // The fakes of every context once lived in libs/shared/testing, which the domains' specs import: the graph then
  // had a path from any domain to every other context, and a change to links' domain named all 29 projects.
  it('gives the shared test support no edge to a context', () => {
    expect(targetsOf('shared-testing').filter((target) => !tags[target].includes('scope:shared'))).toEqual([]);
  });

  it.each(['links', 'domains', 'identity', 'billing', 'analytics', 'webhooks'])(
    "names no other context's project when the %s domain changes",
    (context) => {
      const affected = affectedBy(`libs/${context}/domain/src/index.ts`);
      expect(affected).toEqual(expect.arrayContaining([`${context}-domain`, 'api', 'redirect']));
      expect(affected.filter(ofAnotherContext(context))).toEqual([]);
    },
    60_000,
  );

  it("names the context's own projects when its testing library changes", () => {
    const affected = affectedBy('libs/links/testing/src/index.ts');
    expect(affected).toEqual(expect.arrayContaining(['links-testing', 'links-domain', 'links-adapter-typeorm', 'api']));
    expect(affected.filter(ofAnotherContext('links'))).toEqual([]);
  }, 60_000);

  it('names a changed library and what depends on it, and nothing else', () => {
    // The redirect app too: it imports the composition library (its short-URL edge), and the graph counts
    // projects, not entry points.
    expect(affectedBy('libs/links/adapter-crypto/src/index.ts')).toEqual([
      'api',
      'cli',
      'cli-commands',
      'composition',
      'links-adapter-crypto',
      'redirect',
    ]);
    expect(affectedBy('apps/redirect/src/main.ts')).toEqual(['api', 'redirect']);
  }, 60_000);
});
