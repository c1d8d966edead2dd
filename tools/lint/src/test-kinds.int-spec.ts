import { execFileSync } from 'node:child_process';
import { join, relative } from 'node:path';

/**
 * `npm run test:unit`, `test:int` and `test:e2e` split what `npm test` runs: every test file in exactly
 * one of them, and the unit run never makes the database choice (no global set-up), so it needs no
 * PostgreSQL and stays fast.
 */

const root = join(__dirname, '..', '..', '..');
const runJest = (...args: string[]) =>
  execFileSync(process.execPath, [join(root, 'node_modules', 'jest', 'bin', 'jest.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
const listed = (config?: string) =>
  (JSON.parse(runJest('--listTests', '--json', ...(config ? ['-c', `tools/jest/${config}.config.js`] : []))) as string[])
    .map((file) => relative(root, file))
    .sort();

describe('the unit, int and e2e runs', () => {
  it('split every test file of `npm test` between them, each file once and by its suffix', () => {
    const all = listed();
    const [unit, int, e2e] = [listed('unit'), listed('int'), listed('e2e')];
    expect(unit.length).toBeGreaterThan(50);
    expect(unit.every((file) => /(?<!-)\.spec\.ts$/.test(file))).toBe(true);
    expect(int.every((file) => file.endsWith('.int-spec.ts'))).toBe(true);
    expect(e2e.every((file) => file.endsWith('.e2e-spec.ts'))).toBe(true);
    expect([...unit, ...int, ...e2e].sort()).toEqual(all);
  }, 120_000);

  it('gives the unit run no global set-up, and the others the one that picks the database', () => {
    const configs = (config: string) =>
      (
        JSON.parse(runJest('--showConfig', '-c', `tools/jest/${config}.config.js`)) as {
          configs: { globalSetup?: string | null; displayName?: { name: string } }[];
        }
      ).configs;
    const unit = configs('unit');
    expect(unit.length).toBeGreaterThan(20);
    expect(unit.map((c) => c.globalSetup ?? null)).toEqual(unit.map(() => null));
    for (const kind of ['int', 'e2e']) {
      for (const config of configs(kind)) expect(config.globalSetup).toBe(join(root, 'tools', 'jest', 'global-setup.ts'));
    }
  }, 120_000);
});
