import nx from '@nx/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import { builtinModules } from 'node:module';
import { workspaceProjects } from './tools/lint/workspace-projects.mjs';
import { TYPES } from './tools/lint/check-tags.mjs';

// The hexagon, enforced. Every project carries two tags, scope:<context> and type:<kind>
// (tools/lint checks that none is missing); constraints matching a project are AND-ed.
// Domain and kernel code is plain TypeScript: no framework, ORM, SDK (the Nx rule) and no Node
// built-in module (the Nx rule does not see built-ins, so no-restricted-imports does, for the files of
// every project tagged type:domain or type:util).
const pureDomain = { allowedExternalImports: [] };
const projects = workspaceProjects(import.meta.dirname);
const pureRoots = projects
  .filter(
    ({ tags }) =>
      tags.includes('type:domain') || tags.includes('type:util') || tags.includes('type:bridge') || tags.includes('type:client'),
  )
  .map(({ root }) => `${root}/**/*.ts`);
const builtins = [...new Set(builtinModules.flatMap((m) => [m, `node:${m}`]))];

export const depConstraints = [
  { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'], ...pureDomain },
  { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:domain', 'type:util'], ...pureDomain },
  // Adapters implement ports with their technology; the HTTP framework is the apps' and the adapter-nest libraries'.
  {
    sourceTag: 'type:adapter',
    onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:util'],
    bannedExternalImports: ['@nestjs/*'],
  },
  // A context's HTTP face (libs/<context>/adapter-nest): Nest, its own domain and the platform (the shared
  // HTTP library), never an adapter nor another context's face. No constraint but the apps' lists it, so only apps import it.
  { sourceTag: 'type:nest', onlyDependOnLibsWithTags: ['type:domain', 'type:platform', 'type:util'] },
  { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:platform', 'type:util'] },
  // Test support (a context's fakes and contract specs, or the context-free databases and clock): its
  // scope tag keeps a context's testing library to that context, and libs/shared/testing to no context.
  { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:domain', 'type:util', 'type:testing', 'type:platform'] },
  // Bridges implement one context's port with another context's ports: domain code of several contexts, nothing else.
  { sourceTag: 'type:bridge', onlyDependOnLibsWithTags: ['type:domain', 'type:util'], ...pureDomain },
  // What composes the contexts for an app: the composition root (libs/composition: every context's ports bound to
  // adapters, their Nest modules, the settings) and the operator CLI's commands over it (libs/cli). It uses any
  // library but test support and is used by apps only: no constraint but the apps' lists it.
  {
    sourceTag: 'type:composition',
    onlyDependOnLibsWithTags: ['type:domain', 'type:adapter', 'type:nest', 'type:bridge', 'type:platform', 'type:util', 'type:composition'],
  },
  // Apps use every kind of library but test support (their tests may: see testDepConstraints).
  { sourceTag: 'type:app', onlyDependOnLibsWithTags: [...TYPES].filter((t) => t !== 'testing').map((t) => `type:${t}`) },
  // The client generated from the OpenAPI document (libs/sdk), published on its own and run in browsers too:
  // it depends on no library of ours and on no package. No constraint but the apps' lets anything import it.
  { sourceTag: 'type:client', onlyDependOnLibsWithTags: [], ...pureDomain },
  // Contexts never import each other; links keeps an ownerId, not identity's entities.
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:links', onlyDependOnLibsWithTags: ['scope:links', 'scope:shared'] },
  { sourceTag: 'scope:domains', onlyDependOnLibsWithTags: ['scope:domains', 'scope:shared'] },
  { sourceTag: 'scope:identity', onlyDependOnLibsWithTags: ['scope:identity', 'scope:shared'] },
  { sourceTag: 'scope:billing', onlyDependOnLibsWithTags: ['scope:billing', 'scope:shared'] },
  { sourceTag: 'scope:analytics', onlyDependOnLibsWithTags: ['scope:analytics', 'scope:shared'] },
  { sourceTag: 'scope:webhooks', onlyDependOnLibsWithTags: ['scope:webhooks', 'scope:shared'] },
  {
    sourceTag: 'scope:bridges',
    onlyDependOnLibsWithTags: [
      'scope:links',
      'scope:domains',
      'scope:identity',
      'scope:billing',
      'scope:analytics',
      'scope:webhooks',
      'scope:shared',
    ],
  },
  // The MCP endpoint (libs/mcp): the platform only; it finds the contexts' tools in the started app, never imports them.
  { sourceTag: 'scope:mcp', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:api', onlyDependOnLibsWithTags: ['*'] },
  {
    sourceTag: 'scope:composition',
    onlyDependOnLibsWithTags: [
      'scope:links',
      'scope:domains',
      'scope:identity',
      'scope:billing',
      'scope:analytics',
      'scope:webhooks',
      'scope:bridges',
      'scope:shared',
    ],
  },
  // The operator CLI (apps/cli and its commands, libs/cli): the composed contexts and what their use cases answer;
  // never the dashboard, the SDK or the tools.
  {
    sourceTag: 'scope:cli',
    onlyDependOnLibsWithTags: [
      'scope:cli',
      'scope:composition',
      'scope:links',
      'scope:domains',
      'scope:identity',
      'scope:billing',
      'scope:analytics',
      'scope:webhooks',
      'scope:shared',
    ],
  },
  // The redirect app: the contexts a short URL touches (identity only for its login throttle), no billing, and
  // the composition's short-URL edge (its `@lnk/composition/edge` entry point only: see the rule below).
  {
    sourceTag: 'scope:redirect',
    onlyDependOnLibsWithTags: [
      'scope:links',
      'scope:domains',
      'scope:analytics',
      'scope:identity',
      'scope:webhooks',
      'scope:bridges',
      'scope:shared',
      'scope:composition',
    ],
  },
  { sourceTag: 'scope:tools', onlyDependOnLibsWithTags: ['*'] },
  { sourceTag: 'scope:sdk', onlyDependOnLibsWithTags: ['scope:sdk'] },
  // The dashboard (apps/web) runs in browsers and reaches the service through the SDK only.
  { sourceTag: 'scope:web', onlyDependOnLibsWithTags: ['scope:sdk'] },
];

// Test files may also use test support libraries (fakes, contracts, databases); production code may not.
// Scopes still hold in tests: a context's tests use its own testing library and libs/shared/testing (scope:shared),
// never another context's; the API's and the tools' tests (any scope) use any.
const testFiles = ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', '**/test/**/*.ts'];
const testDepConstraints = depConstraints.map((c) =>
  c.sourceTag.startsWith('type:') && !c.onlyDependOnLibsWithTags.includes('*')
    ? { ...c, onlyDependOnLibsWithTags: [...c.onlyDependOnLibsWithTags, 'type:testing'] }
    : c,
);
const boundaries = (constraints, options = {}) => [
  'error',
  { enforceBuildableLibDependency: true, allow: [], depConstraints: constraints, banTransitiveDependencies: false, ...options },
];
// The project graph counts the imports of test files too (so `nx affected` sees them), which makes one
// cycle of test code per context: its domain's specs use its in-memory fakes (libs/<context>/testing), and
// the fakes implement that domain's ports. Only that pair is exempt, so a context's fakes never tie
// another context in; production code of a domain cannot import a testing library (the tags forbid it),
// and every other cycle is still an error.
const hasTags =
  (...wanted) =>
  ({ tags }) =>
    wanted.every((t) => tags.includes(t));
const scopeOf = ({ tags }) => tags.find((t) => t.startsWith('scope:'));
const testingLibraries = projects.filter(hasTags('type:testing'));
const testSupportCycles = {
  ignoredCircularDependencies: testingLibraries.flatMap((testing) =>
    projects.filter(hasTags('type:domain', scopeOf(testing))).map((domain) => [testing.name, domain.name]),
  ),
};

export default [
  { ignores: ['**/dist', '**/node_modules', '**/coverage', 'tmp', '.nx', '.data'] },
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@nx/enforce-module-boundaries': boundaries(depConstraints),
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: testingLibraries.map(({ root }) => `${root}/**/*.ts`),
    rules: { '@nx/enforce-module-boundaries': boundaries(depConstraints, testSupportCycles) },
  },
  {
    files: testFiles,
    rules: {
      '@nx/enforce-module-boundaries': boundaries(testDepConstraints, testSupportCycles),
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    files: pureRoots,
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: builtins.map((name) => ({ name, message: 'Domain code does no I/O: declare a port and implement it in an adapter.' })) },
      ],
    },
  },
  {
    // The redirect app composes the short-URL edge through its own entry point: the composition's index
    // loads Nest and every context, which the redirect app's start-up and memory must not pay for.
    files: ['apps/redirect/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@lnk/composition',
              message: 'Import the short-URL edge from @lnk/composition/edge: the index loads Nest and every context.',
            },
          ],
        },
      ],
    },
  },
  {
    // The generated client (`npm run sdk:generate`) is the generator's code, written as it writes it: its
    // style warnings are off there, the import rules above still hold.
    files: ['libs/sdk/src/generated/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The dashboard's components: the rules of hooks (calls in the same order, effects' dependencies).
    files: ['apps/web/src/**/*.tsx', 'apps/web/src/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // No source line over 140 characters (issue 29). Prettier (`npm run format`, checked by `npm run lint`) wraps
    // code at 140 but cannot break a comment or a long string, so ESLint's own max-len checks what it leaves, and
    // strictly: comments, strings and URLs count too. No ESLint rule here is stylistic (only correctness rules are
    // on), so nothing fights Prettier and eslint-config-prettier is not needed.
    files: ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'],
    rules: { 'max-len': ['error', { code: 140, tabWidth: 2 }] },
  },
  {
    // What Prettier leaves alone (.prettierignore) this check leaves alone too: the generated client is written as
    // its generator writes it. JSON is not linted by ESLint; Prettier formats it and cannot break its strings.
    files: ['libs/sdk/src/generated/**'],
    rules: { 'max-len': 'off' },
  },
];
