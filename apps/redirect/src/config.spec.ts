import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadRedirectConfig, REDIRECT_CONFIG_VARIABLES, ConfigError } from './config';

describe('the redirect app settings', () => {
  const valid = { DATABASE_URL: 'postgres://u@db:5432/lnk' };

  it('requires DATABASE_URL: the redirect app does not run on the embedded database (it belongs to one process)', () => {
    expect(() => loadRedirectConfig({})).toThrow(ConfigError);
    expect(() => loadRedirectConfig({})).toThrow(/DATABASE_URL is required/);
    expect(() => loadRedirectConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/postgres/);
  });

  it('reads the click flush, cache and budget settings, with defaults', () => {
    const config = loadRedirectConfig({
      ...valid,
      CLICK_FLUSH_INTERVAL: '250',
      CLICK_BUFFER_ROWS: '5000',
      REDIRECT_CACHE_TTL: '30',
      RATE_LIMIT_PUBLIC: '5/60',
      TRUST_PROXY: '1',
    });
    expect(config).toMatchObject({
      port: 3001,
      clickFlushIntervalMs: 250,
      clickBufferMaxRows: 5000,
      redirectCache: { maxEntries: 50_000, ttlMs: 30_000 },
      passwordFormLimit: { limit: 5, seconds: 60 },
      trustProxy: 1,
      logRequests: false,
    });
  });

  it('reads LOG_FORMAT as the API does: json, pretty, or unset (readable on a terminal); anything else is refused by name', () => {
    expect([loadRedirectConfig({ ...valid, LOG_FORMAT: 'pretty' }).logFormat, loadRedirectConfig(valid).logFormat]).toEqual([
      'pretty',
      null,
    ]);
    expect(() => loadRedirectConfig({ ...valid, LOG_FORMAT: 'fancy' })).toThrow(/LOG_FORMAT must be one of json, pretty/);
  });

  // One start-up error lists everything to fix, the rule between variables included.
  it('reports every problem at once', () => {
    try {
      loadRedirectConfig({ PORT: 'x', REDIRECT_CACHE_TTL: '0', NODE_ENV: 'production' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^DATABASE_URL is required/),
        expect.stringMatching(/^PORT must be a whole number/),
        expect.stringMatching(/^REDIRECT_CACHE_TTL must be a whole number from 1/),
        expect.stringMatching(/^METRICS_TOKEN is required in production/),
      ]);
    }
  });

  it('refuses an open /metrics in production unless asked for (process figures leaking defended)', () => {
    expect(() => loadRedirectConfig({ ...valid, NODE_ENV: 'production' })).toThrow(/METRICS_TOKEN/);
    expect(loadRedirectConfig({ ...valid, NODE_ENV: 'production', METRICS_TOKEN: 't' }).metricsToken).toBe('t');
  });
});

describe('docs/configuration.md', () => {
  const page = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
  // The redirect app's own table: its section, up to the next one (the API's rows have other defaults).
  const start = page.indexOf('\n## The redirect app\n');
  const end = page.indexOf('\n## ', start + 1);
  const section = start < 0 ? '' : page.slice(start, end < 0 ? undefined : end);

  it.each(Object.entries(REDIRECT_CONFIG_VARIABLES))(
    'documents the redirect app setting %s with its default',
    (name, { default: value }) => {
      const row = section.split('\n').find((line) => line.startsWith(`| \`${name}\` |`));
      expect(row).toBeDefined();
      expect(row).toContain(value);
    },
  );
});
