// Production build: type-check the workspace (unless --no-typecheck), then compile the apps (api, cli, redirect)
// and the libraries they use to CommonJS with SWC into dist/, keeping the source tree's layout. Path aliases
// (@lnk/...) become relative requires, so `node dist/apps/api/src/main.js` needs nothing else.
// ES modules stay ES modules in node_modules: Node's require(esm) loads @nestjs/* from CommonJS.
// The dashboard (apps/web) is bundled by Vite into dist/apps/web, which the API serves at /app; each part
// is built again only when its own sources changed. --no-web: the server alone (the CLI, the worker, the
// SDK's generation, which must not need the dashboard that uses the SDK).
import { transformFile } from '@swc/core';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const outDir = join(root, 'dist');
const args = new Set(process.argv.slice(2));
const quiet = args.has('--quiet');
const log = (message) => quiet || process.stderr.write(`${message}\n`);

const { compilerOptions } = JSON.parse(readFileSync(join(root, 'tsconfig.base.json'), 'utf8'));
// libs/sdk is a package of its own (ES modules, `npm run sdk:build`) that no app runs: not part of dist/.
const PACKAGED_APART = new Set(['libs/sdk/src']);
const sourceRoots = [
  'apps/api/src',
  'apps/cli/src',
  'apps/redirect/src',
  'tools/bench/src',
  ...Object.values(compilerOptions.paths).map(([p]) => dirname(p.replace(/^\.\//, ''))),
].filter((dir) => !PACKAGED_APART.has(dir));
const isTest = (file) => /\.(spec|int-spec|e2e-spec)\.ts$/.test(file);

function sources(dir, wanted) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path, wanted);
    return wanted(entry.name) ? [path] : [];
  });
}

const roots = [...new Set(sourceRoots)].filter((dir) => existsSync(join(root, dir))).map((dir) => join(root, dir));
const files = roots.flatMap((dir) => sources(dir, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts') && !isTest(name)));
// Plain JavaScript beside the sources (a worker thread's entry file, which Node loads itself) is copied as it is.
const copied = roots.flatMap((dir) => sources(dir, (name) => name.endsWith('.js')));

// The dashboard's inputs: its sources, its Vite config, and the SDK it calls the API through.
const webDir = join(root, 'apps/web');
const webOut = join(outDir, 'apps/web');
const webInputs = [...sources(webDir, (name) => !name.endsWith('.spec.ts')), ...sources(join(root, 'libs/sdk/src'), () => true)];

// Skip what did not change since the last build (npm start and npm run cli call this each time).
const stamp = join(outDir, '.build-stamp');
const webStamp = join(outDir, '.web-build-stamp');
const newestOf = (paths) =>
  Math.max(
    ...paths.map((f) => statSync(f).mtimeMs),
    statSync(join(root, 'tsconfig.base.json')).mtimeMs,
    statSync(import.meta.filename).mtimeMs,
    statSync(join(root, 'package-lock.json')).mtimeMs,
  );
const newest = newestOf([...files, ...copied]);
const webNewest = newestOf(webInputs);
const fresh = (file, time) =>
  !args.has('--force') && args.has('--no-typecheck') && existsSync(file) && Number(readFileSync(file, 'utf8')) >= time;
const serverFresh = fresh(stamp, newest);
const webFresh = args.has('--no-web') || (fresh(webStamp, webNewest) && existsSync(join(webOut, 'index.html')));
if (serverFresh && webFresh) {
  log('build: up to date');
  process.exit(0);
}

if (!args.has('--no-typecheck')) {
  log('build: type-checking');
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--noEmit'], {
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(webDir, 'tsconfig.json'), '--noEmit'], {
    stdio: 'inherit',
  });
}

if (!webFresh) {
  log('build: bundling the dashboard (apps/web) with Vite');
  // Vite ships ES modules only; it writes dist/apps/web whole (emptyOutDir).
  const { build } = await import('vite');
  await build({ configFile: join(webDir, 'vite.config.mts'), logLevel: quiet ? 'silent' : 'warn' });
  writeFileSync(webStamp, String(webNewest));
}
if (serverFresh) {
  log('build: the server is up to date');
  process.exit(0);
}

// Everything of the last server build goes, the dashboard's build and its stamp stay.
mkdirSync(outDir, { recursive: true });
for (const entry of readdirSync(outDir)) {
  if (entry === 'apps') {
    for (const app of readdirSync(join(outDir, 'apps')))
      if (app !== 'web') rmSync(join(outDir, 'apps', app), { recursive: true, force: true });
  } else if (entry !== '.web-build-stamp') rmSync(join(outDir, entry), { recursive: true, force: true });
}
const paths = Object.fromEntries(Object.entries(compilerOptions.paths).map(([alias, targets]) => [alias, targets]));
await Promise.all(
  files.map(async (file) => {
    const { code, map } = await transformFile(file, {
      swcrc: false,
      sourceMaps: true,
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
        keepClassNames: true,
        baseUrl: root,
        paths,
      },
      module: { type: 'commonjs', resolveFully: true },
    });
    const target = join(outDir, relative(root, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, `${code}\n//# sourceMappingURL=${target.split('/').pop()}.map\n`);
    if (map) writeFileSync(`${target}.map`, map);
  }),
);
for (const file of copied) {
  const target = join(outDir, relative(root, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
writeFileSync(stamp, String(newest));
log(`build: compiled ${files.length} files and copied ${copied.length} into dist/`);
