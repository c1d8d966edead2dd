// One Jest configuration per kind of test, over the same projects as `npm test` (jest.config.js):
// `unit` runs *.spec.ts without the global set-up, so no database is ever chosen or started; `int`
// (*.int-spec.ts) and `e2e` (*.e2e-spec.ts) keep it.
const { readdirSync, existsSync } = require('node:fs');
const { availableParallelism } = require('node:os');
const path = require('node:path');

const root = path.join(__dirname, '..', '..');
const TEST_FILES = { unit: '**/*.spec.ts', int: '**/*.int-spec.ts', e2e: '**/*.e2e-spec.ts' };

/** The project config files that jest.config.js's `projects` patterns name (a `*` stands for one folder). */
function projectConfigFiles(patterns) {
  const expand = (dir, segments) => {
    if (!segments.length) return [dir];
    const [segment, ...rest] = segments;
    if (segment !== '*') return existsSync(path.join(dir, segment)) ? expand(path.join(dir, segment), rest) : [];
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules')
      .flatMap((entry) => expand(path.join(dir, entry.name), rest));
  };
  return patterns.flatMap((pattern) => expand(root, pattern.replace('<rootDir>/', '').split('/'))).sort();
}

module.exports = function jestConfigFor(kind) {
  if (!TEST_FILES[kind]) throw new Error(`unknown kind of test: ${kind}`);
  const { projects, ...all } = require(path.join(root, 'jest.config.js'));
  const unit = kind === 'unit';
  return {
    ...all,
    rootDir: root,
    // Unit specs are CPU work only: a worker per core (Jest's default leaves one core to its main
    // process, which idles meanwhile; on two cores that default means no parallelism at all).
    ...(unit ? { maxWorkers: availableParallelism() } : {}),
    projects: projectConfigFiles(projects).map((file) => {
      const { globalSetup, globalTeardown, ...project } = require(file);
      return {
        ...project,
        testMatch: [TEST_FILES[kind]],
        ...(unit ? { setupFiles: [...project.setupFiles, path.join(__dirname, 'unit-guard.js')] } : { globalSetup, globalTeardown }),
      };
    }),
  };
};
