import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');
const sdk = join(root, 'libs', 'sdk');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The README's example: its first TypeScript block. */
function readmeExample(): string {
  const block = /```ts\n([\s\S]*?)```/.exec(readFileSync(join(sdk, 'README.md'), 'utf8'));
  if (!block) throw new Error('libs/sdk/README.md has no ```ts example');
  return block[1];
}

/** What tsc reports for a project (on stdout, with a non-zero exit); empty when it type-checks. */
function typeErrors(project: string): string {
  try {
    execFileSync(process.execPath, [tsc, '-p', project], { encoding: 'utf8', stdio: 'pipe' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error);
  }
}

// Issue 30: the SDK builds as an npm package, and CI packs it. Built and packed in a temporary folder, so
// the run leaves nothing in the repository.
describe('@lnk/sdk as an npm package', () => {
  let work: string;
  let files: string[];
  let consumer: string;

  beforeAll(() => {
    work = mkdtempSync(join(tmpdir(), 'lnk-sdk-pack-'));
    const pkg = join(work, 'package');
    mkdirSync(pkg);
    for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(sdk, file), join(pkg, file));
    execFileSync(process.execPath, [tsc, '-p', join(sdk, 'tsconfig.lib.json'), '--outDir', join(pkg, 'dist')], {
      cwd: root,
      stdio: 'pipe',
    });
    const report = execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: pkg, encoding: 'utf8', stdio: 'pipe' });
    const [packed] = JSON.parse(report) as { filename: string; files: { path: string }[] }[];
    files = packed.files.map((f) => f.path).sort();

    // A project that installed the tarball: the package under node_modules, as npm lays it out.
    consumer = join(work, 'consumer');
    const installed = join(consumer, 'node_modules', '@lnk', 'sdk');
    mkdirSync(installed, { recursive: true });
    execFileSync('tar', ['-xzf', join(work, packed.filename), '-C', installed, '--strip-components=1']);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  }, 120_000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  it('packs the built ES modules with their types, the README and the licence, and no sources', () => {
    const built = ['dist/index.js', 'dist/index.d.ts', 'dist/lnk-client.js', 'dist/generated/sdk.gen.js', 'dist/generated/types.gen.d.ts'];
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'LICENSE', ...built]));
    expect(files.filter((file) => !file.startsWith('dist/'))).toEqual(['LICENSE', 'README.md', 'package.json']);
    expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(sdk, 'package.json'), 'utf8')) as { version: string };
    const exports = { '.': { types: './dist/index.d.ts', import: './dist/index.js' } };
    expect(manifest).toMatchObject({ name: '@lnk/sdk', license: 'MIT', type: 'module', exports });
    // The SDK of a release is numbered as the release whose document it was generated from.
    const document = JSON.parse(readFileSync(join(sdk, 'openapi.json'), 'utf8')) as { info: { version: string } };
    expect(manifest.version).toBe(document.info.version);
  });

  it('loads in Node as an ES module from the installed tarball', () => {
    const script =
      "const sdk = await import('@lnk/sdk'); console.log(JSON.stringify([sdk.createLnkClient, sdk.createLink].map((f) => typeof f)));";
    const loaded = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: consumer, encoding: 'utf8' });
    expect(JSON.parse(loaded)).toEqual(['function', 'function']);
  });

  it("type-checks the README's example against the installed package's types", () => {
    writeFileSync(join(consumer, 'example.ts'), readmeExample());
    const compilerOptions = { target: 'es2022', lib: ['es2022', 'dom'], module: 'nodenext', types: [], strict: true, noEmit: true };
    const tsconfig = { compilerOptions, files: ['example.ts'] };
    writeFileSync(join(consumer, 'tsconfig.json'), JSON.stringify(tsconfig));
    expect(typeErrors(join(consumer, 'tsconfig.json'))).toBe('');
  });
});
