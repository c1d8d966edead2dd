import type { TrustProxy } from '@lnk/links/adapter-http';

/** What the redirect app reads from its environment, validated once at start-up. */
export interface RedirectConfig {
  port: number;
  host: string;
  /** PostgreSQL only: N copies behind a load balancer share it (the embedded database belongs to one process). */
  databaseUrl: string;
  poolSize: number;
  /** Cache invalidations from the API (and the other copies); the password form's shared budget. Null: none. */
  redisUrl: string | null;
  shortBaseUrl: string;
  notFoundRedirectUrl: string | null;
  trustProxy: TrustProxy;
  /** RATE_LIMIT_PUBLIC: password-form posts per address. */
  passwordFormLimit: { limit: number; seconds: number };
  clickFlushIntervalMs: number;
  clickBufferMaxRows: number;
  redirectCache: { maxEntries: number; ttlMs: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  logRequests: boolean;
  metricsToken: string | null;
  metricsPublic: boolean;
  production: boolean;
}

/** One row per variable: the README's table of the redirect app's settings. */
export const REDIRECT_CONFIG_VARIABLES = {
  DATABASE_URL: { default: '(required)', description: 'PostgreSQL URL, the API\'s database (the redirect app does not migrate it: start the API, or run `npm run migrate`, first)' },
  PORT: { default: '3001', description: 'HTTP port' },
  HOST: { default: '0.0.0.0', description: 'interface to listen on' },
  DATABASE_POOL_SIZE: { default: '10', description: 'connections in the PostgreSQL pool' },
  REDIS_URL: { default: '(unset)', description: "the API's Redis: link and domain changes evict this app's cache at once, and the password form's budget is shared with the API; unset: cached answers live until their TTL and the budget is per process" },
  SHORT_BASE_URL: { default: 'http://localhost:<PORT>', description: "the API's SHORT_BASE_URL (statistics name the default short domain after it; https adds HSTS to redirects)" },
  NOT_FOUND_REDIRECT_URL: { default: '(unset)', description: 'as the API: where unknown short URLs of the default short domain redirect' },
  TRUST_PROXY: { default: 'false', description: 'as the API: which X-Forwarded-For hops to believe (the load balancer in front)' },
  RATE_LIMIT_PUBLIC: { default: '30/60', description: 'password-form posts per seconds for each client address' },
  CLICK_FLUSH_INTERVAL: { default: '1000', description: 'milliseconds between writes of the buffered clicks' },
  CLICK_BUFFER_ROWS: { default: '100000', description: 'click rows held between writes; past it clicks are dropped (and counted in /metrics)' },
  REDIRECT_CACHE_SIZE: { default: '50000', description: 'links kept in the lookup cache' },
  REDIRECT_CACHE_TTL: { default: '60', description: 'seconds a cached link is answered without asking the database (a change evicts it at once through REDIS_URL)' },
  LOG_LEVEL: { default: 'info', description: 'fatal, error, warn, info, debug, trace or silent' },
  LOG_REQUESTS: { default: 'false', description: 'true: one log line per request at info; false: none (the redirect path stays free of logging)' },
  METRICS_TOKEN: { default: '(unset)', description: 'bearer token GET /metrics requires; unset: open (in production only with METRICS_PUBLIC=true)' },
  METRICS_PUBLIC: { default: 'false', description: 'true: /metrics may be open without METRICS_TOKEN in production' },
  NODE_ENV: { default: '(unset)', description: 'production: METRICS_TOKEN or METRICS_PUBLIC=true must be set' },
} as const;

type Name = keyof typeof REDIRECT_CONFIG_VARIABLES;

export class RedirectConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function loadRedirectConfig(env: Record<string, string | undefined>): RedirectConfig {
  const problems: string[] = [];
  const optional = (name: Name): string | null => (env[name] === undefined || env[name] === '' ? null : (env[name] as string));
  const read = (name: Name): string => optional(name) ?? REDIRECT_CONFIG_VARIABLES[name].default;
  const integer = (name: Name, min: number, max: number): number => {
    const raw = read(name);
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return min;
    }
    return value;
  };
  const flag = (name: Name, fallback: boolean): boolean => {
    const raw = optional(name);
    if (raw === null) return fallback;
    if (raw !== 'true' && raw !== 'false') problems.push(`${name} must be true or false (got "${raw}")`);
    return raw === 'true';
  };
  const httpUrl = (value: string) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol) && /^[\x21-\x7e]+$/.test(value);

  const production = env['NODE_ENV'] === 'production';
  const port = integer('PORT', 0, 65535);
  const databaseUrl = optional('DATABASE_URL') ?? '';
  if (!databaseUrl) problems.push('DATABASE_URL is required: the redirect app runs on PostgreSQL, the API\'s database (npm start serves short URLs itself on the embedded database)');
  else if (!(URL.canParse(databaseUrl) && ['postgres:', 'postgresql:'].includes(new URL(databaseUrl).protocol))) problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
  const redisUrl = optional('REDIS_URL');
  if (redisUrl && !(URL.canParse(redisUrl) && ['redis:', 'rediss:'].includes(new URL(redisUrl).protocol))) problems.push('REDIS_URL must be a redis:// or rediss:// URL');
  const shortBaseUrl = (optional('SHORT_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!(httpUrl(shortBaseUrl) && new URL(shortBaseUrl).pathname === '/')) problems.push('SHORT_BASE_URL must be an absolute http(s) URL without a path');
  const notFoundRedirectUrl = optional('NOT_FOUND_REDIRECT_URL');
  if (notFoundRedirectUrl !== null && !httpUrl(notFoundRedirectUrl)) problems.push('NOT_FOUND_REDIRECT_URL must be an absolute http(s) URL');
  const rawTrust = read('TRUST_PROXY').trim();
  const trustProxy: TrustProxy = rawTrust === 'true' ? true : rawTrust === 'false' ? false : /^\d+$/.test(rawTrust) ? Number(rawTrust) : rawTrust.split(',').map((s) => s.trim()).filter(Boolean);
  const budget = /^(\d{1,7})\/(\d{1,6})$/.exec(read('RATE_LIMIT_PUBLIC'));
  if (!budget || Number(budget[1]) < 1 || Number(budget[2]) < 1) problems.push(`RATE_LIMIT_PUBLIC must be requests/seconds, like 30/60 (got "${read('RATE_LIMIT_PUBLIC')}")`);
  const logLevel = read('LOG_LEVEL') as RedirectConfig['logLevel'];
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const metricsToken = optional('METRICS_TOKEN');
  const metricsPublic = flag('METRICS_PUBLIC', false);
  if (production && !metricsToken && !metricsPublic) problems.push('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true to leave /metrics open)');
  const config: RedirectConfig = {
    port,
    host: read('HOST'),
    databaseUrl,
    poolSize: integer('DATABASE_POOL_SIZE', 1, 1000),
    redisUrl,
    shortBaseUrl,
    notFoundRedirectUrl: notFoundRedirectUrl && httpUrl(notFoundRedirectUrl) ? new URL(notFoundRedirectUrl).href : null,
    trustProxy,
    passwordFormLimit: budget ? { limit: Number(budget[1]), seconds: Number(budget[2]) } : { limit: 1, seconds: 1 },
    clickFlushIntervalMs: integer('CLICK_FLUSH_INTERVAL', 10, 60_000),
    clickBufferMaxRows: integer('CLICK_BUFFER_ROWS', 100, 10_000_000),
    redirectCache: { maxEntries: integer('REDIRECT_CACHE_SIZE', 1, 10_000_000), ttlMs: integer('REDIRECT_CACHE_TTL', 1, 86_400) * 1000 },
    logLevel,
    logRequests: flag('LOG_REQUESTS', false),
    metricsToken,
    metricsPublic,
    production,
  };
  if (problems.length) throw new RedirectConfigError(problems);
  return config;
}
