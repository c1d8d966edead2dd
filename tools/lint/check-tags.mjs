// Fails when a project lacks its two tags (scope:<context> and type:<kind>): an untagged project
// would escape every module-boundary rule.
import { workspaceProjects } from './workspace-projects.mjs';

// The kinds of project; the ESLint configuration builds its lists of allowed kinds from this one.
export const TYPES = new Set(['app', 'e2e', 'domain', 'adapter', 'nest', 'bridge', 'platform', 'util', 'testing', 'client', 'composition']);

export function tagProblems(projects) {
  return projects.flatMap(({ name, root, tags }) => {
    const scopes = tags.filter((t) => t.startsWith('scope:'));
    const types = tags.filter((t) => t.startsWith('type:'));
    const problems = [];
    if (scopes.length !== 1) problems.push(`${name} (${root}) needs exactly one scope:<context> tag, has ${scopes.length}`);
    if (types.length !== 1) problems.push(`${name} (${root}) needs exactly one type:<kind> tag, has ${types.length}`);
    else if (!TYPES.has(types[0].slice(5))) problems.push(`${name} (${root}) has an unknown ${types[0]}`);
    return problems;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = tagProblems(workspaceProjects(process.cwd()));
  if (problems.length) {
    process.stderr.write(`Untagged projects escape the module boundaries:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
    process.exit(1);
  }
  process.stdout.write('tags: every project has a scope and a type\n');
}
