// Shared Jest settings for every project. TypeScript and the ESM-only @nestjs/* packages are
// compiled to CommonJS by SWC (with decorator metadata), and the tsconfig path aliases are mapped
// to the libraries' sources, so tests run the code as written without a build step.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const root = __dirname;
const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = path.join(root, target);
}

const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|m?j)s$': ['@swc/jest', swc] },
  // @nestjs/*, jose, oauth4webapi and request-filtering-agent ship ES modules only; everything else in node_modules is CommonJS already.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|oauth4webapi|jose|content-disposition|request-filtering-agent)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  moduleNameMapper,
  resolver: path.join(root, 'tools/jest/resolver.js'),
  testMatch: ['**/?(*.)+(spec|int-spec|e2e-spec).ts'],
  // Generous for the embedded database, which takes seconds to create on disk.
  testTimeout: 30_000,
  setupFiles: [path.join(root, 'tools/jest/setup-env.js')],
  globalSetup: path.join(root, 'tools/jest/global-setup.ts'),
  globalTeardown: path.join(root, 'tools/jest/global-teardown.ts'),
};
