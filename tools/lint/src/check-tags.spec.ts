import { join } from 'node:path';

// The checker is an ES module shared with `npm run lint`; load it the way Node does.
const load = () =>
  import(join(__dirname, '..', 'check-tags.mjs')) as Promise<{
    tagProblems(p: { name: string; root: string; tags: string[] }[]): string[];
  }>;
const loadProjects = () =>
  import(join(__dirname, '..', 'workspace-projects.mjs')) as Promise<{
    workspaceProjects(root: string): { name: string; root: string; tags: string[] }[];
  }>;

describe('project tags', () => {
  it('reports a project without a scope or a type', async () => {
    const { tagProblems } = await load();
    expect(tagProblems([{ name: 'loose', root: 'libs/loose', tags: ['type:domain'] }])).toEqual([
      'loose (libs/loose) needs exactly one scope:<context> tag, has 0',
    ]);
    expect(tagProblems([{ name: 'loose', root: 'libs/loose', tags: ['scope:links'] }])).toEqual([
      'loose (libs/loose) needs exactly one type:<kind> tag, has 0',
    ]);
    expect(tagProblems([{ name: 'odd', root: 'libs/odd', tags: ['scope:links', 'type:helper'] }])).toEqual([
      'odd (libs/odd) has an unknown type:helper',
    ]);
  });

  it('finds every project of this workspace tagged', async () => {
    const { tagProblems } = await load();
    const { workspaceProjects } = await loadProjects();
    const projects = workspaceProjects(join(__dirname, '..', '..', '..'));
    expect(projects.map((p) => p.name)).toEqual(
      expect.arrayContaining(['api', 'links-domain', 'identity-adapter-typeorm', 'shared-kernel']),
    );
    expect(tagProblems(projects)).toEqual([]);
  });
});
