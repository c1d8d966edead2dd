import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCOPE_DESCRIPTIONS } from '@lnk/identity/domain';
import { CONFIG_VARIABLES } from '@lnk/composition';

/** The reference tables of the documentation are the code's tables: a setting, a default or a scope cannot drift. */

const root = join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

/** The text of one `## ` section of a page, up to the next. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`no section "## ${heading}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

describe('docs/configuration.md', () => {
  const api = section(read('docs/configuration.md'), 'The API, the worker and the CLI');

  it.each(Object.entries(CONFIG_VARIABLES))('documents %s with its default in the API table', (name, { default: value }) => {
    const row = api.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
    expect(row).toBeDefined();
    expect(row).toContain(value);
  });
});

describe('docs/self-hosting.md', () => {
  // The recipe shown is the one the proxy test runs (tls-proxies.e2e-spec.ts reads the file).
  it('shows docs/proxy/Caddyfile as it is', () => {
    expect(read('docs/self-hosting.md')).toContain('```caddyfile\n' + read('docs/proxy/Caddyfile') + '```');
  });
});

describe('docs/api.md', () => {
  it.each(Object.entries(SCOPE_DESCRIPTIONS))(
    'lists the scope %s with what it grants, as the Authorize dialog says it',
    (scope, description) => {
      const row = read('docs/api.md')
        .split('\n')
        .find((line) => line.startsWith(`| \`${scope}\` |`));
      expect(row).toBeDefined();
      expect(row).toContain(description);
    },
  );
});

describe('README.md', () => {
  it('shows the two set-up commands', () => {
    const readme = read('README.md');
    expect(readme).toContain('npm ci && npm start');
    expect(readme).toContain('npm ci && npm test');
  });
});
