import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CONFIG_VARIABLES } from '../src/config/app-config';

describe('README', () => {
  const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

  it.each(Object.entries(CONFIG_VARIABLES))('documents %s with its default', (name, { default: value }) => {
    const row = readme.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row).toBeDefined();
    expect(row).toContain(value);
  });

  // The recipe shown is the one the proxy test runs (tls-proxies.e2e-spec.ts reads the file).
  it('shows docs/proxy/Caddyfile as it is', () => {
    const caddyfile = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'proxy', 'Caddyfile'), 'utf8');
    expect(readme).toContain('```caddyfile\n' + caddyfile + '```');
  });

  it('shows the two set-up commands', () => {
    expect(readme).toContain('npm start');
    expect(readme).toContain('npm test');
  });
});
