import { ConfigError, loadConfig } from './app-config';

describe('loadConfig', () => {
  it('defaults to port 3000 and the embedded database under ./.data', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: expect.stringMatching(/\.data$/) });
    expect(config.bcryptCost).toBe(12);
    expect(config.bodyLimitBytes).toBe(1048576);
  });

  it('reads the short-URL settings it shares with the redirect app (click write, lookup cache)', () => {
    expect(loadConfig({})).toMatchObject({ clickFlushIntervalMs: 1000, clickBufferMaxRows: 100_000, redirectCache: { maxEntries: 50_000, ttlMs: 60_000 } });
    const config = loadConfig({ CLICK_FLUSH_INTERVAL: '250', CLICK_BUFFER_ROWS: '5000', REDIRECT_CACHE_SIZE: '10', REDIRECT_CACHE_TTL: '5' });
    expect(config).toMatchObject({ clickFlushIntervalMs: 250, clickBufferMaxRows: 5000, redirectCache: { maxEntries: 10, ttlMs: 5000 } });
  });

  it('bounds the database by default: requests, the click write, connecting; migrations unbounded', () => {
    expect(loadConfig({}).databaseBounds).toEqual({ connectTimeoutMs: 5000, statementTimeoutMs: 5000, lockTimeoutMs: 2000, clickWriteTimeoutMs: 30_000, migrationTimeoutMs: 0 });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '0', CLICK_WRITE_TIMEOUT: '1000' }).databaseBounds).toMatchObject({ statementTimeoutMs: 0, clickWriteTimeoutMs: 1000 });
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT/);
  });

  it('reads LOG_FORMAT, json or pretty; unset, left to the logger (readable on a terminal)', () => {
    expect([loadConfig({ LOG_FORMAT: 'json' }).logFormat, loadConfig({ LOG_FORMAT: 'pretty' }).logFormat, loadConfig({}).logFormat]).toEqual(['json', 'pretty', null]);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@db:5432/app', DATABASE_POOL_SIZE: '4' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/app',
      poolSize: 4,
    });
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['BCRYPT_COST', '3'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_FORMAT', 'fancy'],
    ['DATABASE_URL', 'mysql://x@y/z'],
    ['BODY_LIMIT', '-1'],
    ['CLICK_FLUSH_INTERVAL', '5'],
    ['REDIRECT_CACHE_SIZE', '0'],
  ])('rejects %s=%s naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(name));
  });

  describe('in production (NODE_ENV=production)', () => {
    const KEY = 'a'.repeat(64);
    const ready = { NODE_ENV: 'production', SECRET_KEY: KEY, BILLING_SANDBOX: 'true', METRICS_TOKEN: 'scrape-me' };
    const problemsOf = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        if (error instanceof ConfigError) return error.problems;
        throw error;
      }
    };

    it('starts with the unsafe development defaults left alone outside production (the newcomer path)', () => {
      const config = loadConfig({});
      expect(config.production).toBe(false);
      expect(config.stripe).toBeNull();
      expect(config.secretKey).toBeNull();
      expect(config.metricsToken).toBeNull();
      expect(loadConfig({ NODE_ENV: 'development' }).production).toBe(false);
    });

    it('refuses to start with nothing set, naming every missing setting at once', () => {
      const problems = problemsOf({ NODE_ENV: 'production' });
      expect(problems).toEqual([expect.stringMatching(/^STRIPE_SECRET_KEY is required in production/), expect.stringMatching(/^METRICS_TOKEN is required in production/), expect.stringMatching(/^SECRET_KEY is required in production/)]);
    });

    it('starts once each one is given', () => {
      expect(loadConfig(ready)).toMatchObject({ production: true, stripe: null, metricsToken: 'scrape-me', secretKey: Buffer.from(KEY, 'hex') });
    });

    // Paid plans for free: the sandbox page pays any session without authentication.
    it('refuses the sandbox checkout unless BILLING_SANDBOX=true says so', () => {
      expect(problemsOf({ ...ready, BILLING_SANDBOX: '' })).toEqual([expect.stringMatching(/STRIPE_SECRET_KEY is required in production/)]);
      const stripe = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICES: 'pro=price_1,business=price_2' };
      expect(loadConfig({ ...ready, BILLING_SANDBOX: '', ...stripe }).stripe).toMatchObject({ secretKey: 'sk_live_x' });
    });

    it('refuses BILLING_SANDBOX=false without Stripe anywhere, and a BILLING_SANDBOX that is not a boolean', () => {
      expect(problemsOf({ BILLING_SANDBOX: 'false' })).toEqual([expect.stringMatching(/^BILLING_SANDBOX=false needs STRIPE_SECRET_KEY/)]);
      expect(problemsOf({ BILLING_SANDBOX: 'yes' })).toEqual([expect.stringMatching(/^BILLING_SANDBOX must be true or false/)]);
    });

    // Instances each making their own key file would not open each other's sealed secrets or signatures.
    it('refuses to start without SECRET_KEY', () => {
      expect(problemsOf({ ...ready, SECRET_KEY: '' })).toEqual([expect.stringMatching(/^SECRET_KEY is required in production/)]);
    });

    // An open /metrics shows every route's traffic to anyone.
    it('refuses an open /metrics unless METRICS_PUBLIC=true says so', () => {
      expect(problemsOf({ ...ready, METRICS_TOKEN: '' })).toEqual([expect.stringMatching(/^METRICS_TOKEN is required in production/)]);
      expect(loadConfig({ ...ready, METRICS_TOKEN: '', METRICS_PUBLIC: 'true' }).metricsToken).toBeNull();
      expect(problemsOf({ METRICS_PUBLIC: 'maybe' })).toEqual([expect.stringMatching(/^METRICS_PUBLIC must be true or false/)]);
    });
  });

  it('takes NOT_FOUND_REDIRECT_URL as an absolute http(s) URL only (unset: the 404 page)', () => {
    expect(loadConfig({}).notFoundRedirectUrl).toBeNull();
    expect(loadConfig({ NOT_FOUND_REDIRECT_URL: 'https://example.com/start' }).notFoundRedirectUrl).toBe('https://example.com/start');
    // A Location header must not carry another scheme (javascript:, data:) or a character that splits the header.
    for (const bad of ['/relative', 'javascript:alert(1)', 'ftp://example.com/', 'https://example.com/a b', 'https://example.com/\r\nSet-Cookie:x=1']) {
      expect(() => loadConfig({ NOT_FOUND_REDIRECT_URL: bad })).toThrow(/NOT_FOUND_REDIRECT_URL must be an absolute http\(s\) URL/);
    }
  });

  // A bad provider list used to pass start-up and fail each sign-in later; it is a start-up error now.
  it('reads IDP_PROVIDERS at start-up, and refuses a bad one naming it', () => {
    const provider = { issuer: 'https://idp.test', jwksUri: 'https://idp.test/jwks', audience: 'lnk' };
    expect(loadConfig({}).idpProviders).toEqual([]);
    expect(loadConfig({ IDP_PROVIDERS: JSON.stringify([provider]) }).idpProviders).toEqual([provider]);
    expect(() => loadConfig({ IDP_PROVIDERS: '[{issuer:' })).toThrow(/IDP_PROVIDERS .*not valid JSON/);
    try {
      loadConfig({ IDP_PROVIDERS: JSON.stringify([{ ...provider, jwksUri: 'jwks' }]), PORT: 'x' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toEqual([expect.stringMatching(/^PORT /), expect.stringMatching(/^IDP_PROVIDERS\[0\]\.jwksUri must be an absolute http\(s\) URL/)]);
    }
  });

  it('reports every bad variable at once', () => {
    try {
      loadConfig({ PORT: 'x', LOG_LEVEL: 'y' });
      throw new Error('expected a ConfigError');
    } catch (error) {
      expect((error as ConfigError).problems).toHaveLength(2);
    }
  });
});
