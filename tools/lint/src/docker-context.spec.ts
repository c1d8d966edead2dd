import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ignore from '@balena/dockerignore';

/**
 * What `docker build` sends as its context, read with the matcher Docker's own rules are ported to: a
 * context with node_modules, a build, the embedded database or a secret in it bloats every build, lets a
 * host's modules shadow the image's, and bakes secrets into a layer anyone with the image can read.
 */
const root = join(__dirname, '..', '..', '..');
const context = ignore().add(readFileSync(join(root, '.dockerignore'), 'utf8'));

describe('.dockerignore', () => {
  it.each([
    'node_modules/pg/lib/index.js',
    'apps/api/node_modules/x/index.js',
    'dist/apps/api/src/main.js',
    '.data/secret.key',
    '.data/pgdata/base/1/1259',
    'apps/api/.data/secret.key',
    '.env',
    'docker/.env',
    '.env.production',
    'tls/server.pem',
    'tmp/test-dist-1/apps/api/src/main.js',
    'test-artifacts/browser/page.png',
    'coverage/lcov.info',
    '.git/config',
    '.nx/cache/x',
    'npm-debug.log',
  ])('keeps %s out of the build context', (path) => {
    expect(context.ignores(path)).toBe(true);
  });

  // The build stage runs `npm ci` and `npm run build` on what it was sent: each source it compiles must be there.
  it('sends every tracked file the build needs: the lockfile, the configurations, every app, library and build tool', () => {
    const tracked = execFileSync('git', ['ls-files'], { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
    const needed = tracked.filter(
      (path) =>
        /^(apps|libs|tools)\//.test(path) || /^(package(-lock)?\.json|tsconfig(\.base)?\.json)$/.test(path) || path === 'docker/lnk',
    );
    expect(needed.length).toBeGreaterThan(100);
    expect(needed.filter((path) => context.ignores(path))).toEqual([]);
  });
});
