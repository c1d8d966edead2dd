import { UNLIMITED } from '@lnk/shared/kernel';
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
    expect(loadConfig({})).toMatchObject({
      clickFlushIntervalMs: 1000,
      clickBufferMaxRows: 100_000,
      redirectCache: { maxEntries: 50_000, ttlMs: 60_000 },
    });
    const config = loadConfig({
      CLICK_FLUSH_INTERVAL: '250',
      CLICK_BUFFER_ROWS: '5000',
      REDIRECT_CACHE_SIZE: '10',
      REDIRECT_CACHE_TTL: '5',
    });
    expect(config).toMatchObject({ clickFlushIntervalMs: 250, clickBufferMaxRows: 5000, redirectCache: { maxEntries: 10, ttlMs: 5000 } });
  });

  it('bounds the database by default: requests, the click write, connecting; migrations unbounded', () => {
    expect(loadConfig({}).databaseBounds).toEqual({
      connectTimeoutMs: 5000,
      statementTimeoutMs: 5000,
      lockTimeoutMs: 2000,
      clickWriteTimeoutMs: 30_000,
      migrationTimeoutMs: 0,
    });
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT: '0', CLICK_WRITE_TIMEOUT: '1000' }).databaseBounds).toMatchObject({
      statementTimeoutMs: 0,
      clickWriteTimeoutMs: 1000,
    });
    expect(() => loadConfig({ DATABASE_CONNECT_TIMEOUT: '0' })).toThrow(/DATABASE_CONNECT_TIMEOUT/);
  });

  it('reads LOG_FORMAT, json or pretty; unset, left to the logger (readable on a terminal)', () => {
    expect([
      loadConfig({ LOG_FORMAT: 'json' }).logFormat,
      loadConfig({ LOG_FORMAT: 'pretty' }).logFormat,
      loadConfig({}).logFormat,
    ]).toEqual(['json', 'pretty', null]);
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

  const problemsOf = (env: Record<string, string>): string[] => {
    try {
      loadConfig(env);
      return [];
    } catch (error) {
      if (error instanceof ConfigError) return error.problems;
      throw error;
    }
  };
  const STRIPE = { STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', STRIPE_PRICES: 'pro=price_1,business=price_2' };

  describe('billing (BILLING, PLANS, DEFAULT_MAX_*)', () => {
    it('is off without a payment setting: one default plan, unlimited', () => {
      const config = loadConfig({});
      expect(config.billingMode).toBe('off');
      expect(config.stripe).toBeNull();
      expect(config.plans).toEqual([
        {
          id: 'default',
          name: 'Default',
          price: 0,
          currency: 'USD',
          billingCycle: 'monthly',
          maxDomains: UNLIMITED,
          maxLinks: UNLIMITED,
          maxTags: UNLIMITED,
        },
      ]);
    });

    it('is Stripe when its key is set, with the built-in catalogue', () => {
      const config = loadConfig(STRIPE);
      expect(config.billingMode).toBe('stripe');
      expect(config.stripe).toMatchObject({ secretKey: 'sk_live_x', priceIds: { pro: 'price_1', business: 'price_2' } });
      expect(config.plans.map((p) => [p.id, p.maxLinks])).toEqual([
        ['free', 100],
        ['pro', 5000],
        ['business', 50000],
      ]);
    });

    it('is the sandbox only when asked for by name, with the built-in catalogue', () => {
      const config = loadConfig({ BILLING: 'sandbox' });
      expect([config.billingMode, config.stripe, config.plans[0].id]).toEqual(['sandbox', null, 'free']);
    });

    it("takes the free plan's limits from DEFAULT_MAX_*, a number or unlimited, in any mode and over PLANS", () => {
      expect(loadConfig({ DEFAULT_MAX_LINKS: '1000', DEFAULT_MAX_TAGS: '0' }).plans[0]).toMatchObject({
        maxLinks: 1000,
        maxDomains: UNLIMITED,
        maxTags: 0,
      });
      const sandbox = loadConfig({ BILLING: 'sandbox', DEFAULT_MAX_DOMAINS: 'unlimited' }).plans;
      expect(sandbox.map((p) => [p.id, p.maxDomains])).toEqual([
        ['free', UNLIMITED],
        ['pro', 5],
        ['business', 25],
      ]);
      const own = JSON.stringify([{ id: 'basic', name: 'Basic', price: 0, maxDomains: 2, maxLinks: 50, maxTags: 5 }]);
      expect(loadConfig({ PLANS: own, DEFAULT_MAX_LINKS: '60' }).plans).toEqual([
        { id: 'basic', name: 'Basic', price: 0, currency: 'USD', billingCycle: 'monthly', maxDomains: 2, maxLinks: 60, maxTags: 5 },
      ]);
    });

    it.each([
      [{ DEFAULT_MAX_LINKS: '-1' }, /^DEFAULT_MAX_LINKS must be a whole number from 0 to 2147483647, or unlimited/],
      [{ DEFAULT_MAX_TAGS: 'lots' }, /^DEFAULT_MAX_TAGS must be a whole number/],
      [{ DEFAULT_MAX_DOMAINS: String(UNLIMITED + 1) }, /^DEFAULT_MAX_DOMAINS must be a whole number/],
      [{ BILLING: 'paypal' }, /^BILLING must be one of off, sandbox, stripe/],
      [{ BILLING: 'stripe' }, /^STRIPE_SECRET_KEY is required with BILLING=stripe/],
      [{ BILLING: 'off', ...STRIPE }, /^STRIPE_SECRET_KEY is set but BILLING=off/],
      [{ BILLING: 'sandbox', ...STRIPE }, /^STRIPE_SECRET_KEY is set but BILLING=sandbox/],
      // Renamed: left in place, it would have turned the sandbox off without a word.
      [{ BILLING_SANDBOX: 'true' }, /^BILLING_SANDBOX is replaced by BILLING: BILLING=sandbox/],
      [
        { PLANS: JSON.stringify([{ id: 'free', name: 'Free', price: 0, maxDomains: 1, maxLinks: UNLIMITED + 1, maxTags: 1 }]) },
        /maxLinks must be a whole number from 0 to 2147483647/,
      ],
    ])('refuses %j, saying why', (env, problem) => {
      const problems = problemsOf(env as Record<string, string>);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatch(problem);
    });
  });

  describe('in production (NODE_ENV=production)', () => {
    const KEY = 'a'.repeat(64);
    const ready = { NODE_ENV: 'production', SECRET_KEY: KEY, METRICS_TOKEN: 'scrape-me' };

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
      expect(problems).toEqual([
        expect.stringMatching(/^METRICS_TOKEN is required in production/),
        expect.stringMatching(/^SECRET_KEY is required in production/),
      ]);
    });

    // A self-hosted instance takes no payments: billing off needs no payment setting, and is what it gets.
    it('starts once each one is given, with billing off and no payment setting', () => {
      expect(loadConfig(ready)).toMatchObject({
        production: true,
        billingMode: 'off',
        stripe: null,
        metricsToken: 'scrape-me',
        secretKey: Buffer.from(KEY, 'hex'),
      });
      expect(loadConfig({ ...ready, ...STRIPE }).billingMode).toBe('stripe');
    });

    // Paid plans for free: the sandbox page pays any session without authentication, so it is never a default.
    it('runs the sandbox checkout only when BILLING=sandbox says so', () => {
      expect(loadConfig(ready).billingMode).not.toBe('sandbox');
      expect(loadConfig({ ...ready, BILLING: 'sandbox' }).billingMode).toBe('sandbox');
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
    for (const bad of [
      '/relative',
      'javascript:alert(1)',
      'ftp://example.com/',
      'https://example.com/a b',
      'https://example.com/\r\nSet-Cookie:x=1',
    ]) {
      expect(() => loadConfig({ NOT_FOUND_REDIRECT_URL: bad })).toThrow(/NOT_FOUND_REDIRECT_URL must be an absolute http\(s\) URL/);
    }
  });

  it('reads DNS_TARGET_ADDRESSES as IP addresses in one spelling each, refusing anything else', () => {
    expect(loadConfig({}).dnsTargetAddresses).toEqual([]);
    expect(loadConfig({ DNS_TARGET_ADDRESSES: '203.0.113.10, 2001:DB8:0:0::10,203.0.113.10' }).dnsTargetAddresses).toEqual([
      '203.0.113.10',
      '2001:db8::10',
    ]);
    for (const bad of ['cname.lnk.test', '203.0.113.010', '203.0.113.10/24', '[2001:db8::10]']) {
      expect(() => loadConfig({ DNS_TARGET_ADDRESSES: bad })).toThrow(/DNS_TARGET_ADDRESSES .*must be an IPv4 or IPv6 address/);
    }
  });

  it("takes CUSTOM_DOMAIN_SCHEME as https, http or request; unset: SHORT_BASE_URL's scheme", () => {
    expect(loadConfig({}).customDomainScheme).toBe('http');
    expect(loadConfig({ SHORT_BASE_URL: 'https://s.lnk.test' }).customDomainScheme).toBe('https');
    expect(loadConfig({ SHORT_BASE_URL: 'https://s.lnk.test', CUSTOM_DOMAIN_SCHEME: 'request' }).customDomainScheme).toBe('request');
    expect(() => loadConfig({ CUSTOM_DOMAIN_SCHEME: 'HTTPS' })).toThrow(/CUSTOM_DOMAIN_SCHEME must be one of https, http, request/);
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
      expect((error as ConfigError).problems).toEqual([
        expect.stringMatching(/^PORT /),
        expect.stringMatching(/^IDP_PROVIDERS\[0\]\.jwksUri must be an absolute http\(s\) URL/),
      ]);
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
