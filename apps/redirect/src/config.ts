import { parseTrustProxy, type TrustProxy } from '@lnk/links/adapter-http';
import {
  baseUrl,
  boolean,
  ConfigError,
  DATABASE_BOUNDS_VARIABLES,
  LOG_FORMAT_VARIABLES,
  LogFormat,
  DatabaseBoundsConfig,
  databaseBoundsOf,
  httpUrl,
  integer,
  oneOf,
  optional,
  RateLimit,
  rateLimit,
  readVariables,
  required,
  SHORT_URL_EDGE_VARIABLES,
  ShortUrlEdgeConfig,
  shortUrlEdgeOf,
  text,
  url,
  VariableTable,
} from '@lnk/shared/config';

export { ConfigError };

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** What the redirect app reads from its environment, validated once at start-up. */
export interface RedirectConfig extends ShortUrlEdgeConfig {
  port: number;
  host: string;
  /** PostgreSQL only: N copies behind a load balancer share it (the embedded database belongs to one process). */
  databaseUrl: string;
  poolSize: number;
  /** How long a lookup and a click write may take, and connecting. */
  databaseBounds: DatabaseBoundsConfig;
  /** Cache invalidations from the API (and the other copies); the password form's shared budget. Null: none. */
  redisUrl: string | null;
  /** REDIS_OUTAGE_CACHE_TTL: how long cached links and hosts live while Redis is away. */
  redisOutageCacheTtlMs: number;
  shortBaseUrl: string;
  /**
   * SHORT_BASE_URL's host: the only one whose requests get the default short domain's links (other hosts: a verified custom domain's, or
   * none).
   */
  shortHosts: string[];
  notFoundRedirectUrl: string | null;
  trustProxy: TrustProxy;
  /** RATE_LIMIT_PUBLIC: password-form posts per address. */
  passwordFormLimit: RateLimit;
  logLevel: (typeof LOG_LEVELS)[number];
  /** LOG_FORMAT: JSON lines or readable ones; null: readable when standard output is a terminal (the logger decides). */
  logFormat: LogFormat | null;
  logRequests: boolean;
  metricsToken: string | null;
  metricsPublic: boolean;
  production: boolean;
}

/** One row per variable: docs/configuration.md's table of the redirect app's settings; each is read by its `parse`. */
export const REDIRECT_CONFIG_VARIABLES = {
  DATABASE_URL: {
    default: '(required)',
    description:
      "PostgreSQL URL, the API's database (the redirect app does not migrate it: start the API, or run `npm run migrate`, first)",
    parse: required(
      url('postgres:', 'postgresql:'),
      "the redirect app runs on PostgreSQL, the API's database (npm start serves short URLs itself on the embedded database)",
    ),
  },
  PORT: { default: '3001', description: 'HTTP port', parse: integer(0, 65535) },
  HOST: { default: '0.0.0.0', description: 'interface to listen on', parse: text },
  DATABASE_POOL_SIZE: { default: '10', description: 'connections in the PostgreSQL pool', parse: integer(1, 1000) },
  ...DATABASE_BOUNDS_VARIABLES,
  REDIS_URL: {
    default: '(unset)',
    description:
      "the API's Redis: link and domain changes evict this app's cache at once, and the password form's budget is " +
      'shared with the API; unset: cached answers live until their TTL and the budget is per process',
    parse: optional(url('redis:', 'rediss:')),
  },
  REDIS_OUTAGE_CACHE_TTL: {
    default: '2',
    description:
      "with REDIS_URL: seconds cached links and hosts live while Redis is unreachable (the API's " +
      'changes are not heard then); the cache is emptied when Redis answers again',
    parse: integer(1, 300),
  },
  SHORT_BASE_URL: {
    default: 'http://localhost:<PORT>',
    description:
      "the API's SHORT_BASE_URL: its host is the one that serves the default short domain's links (any other host a verified " +
      "custom domain's, or 404); statistics name the default short domain after it; https adds HSTS to redirects",
    parse: optional(baseUrl({ path: false })),
  },
  NOT_FOUND_REDIRECT_URL: {
    default: '(unset)',
    description: 'as the API: where unknown short URLs of the default short domain redirect',
    parse: optional(httpUrl),
  },
  TRUST_PROXY: {
    default: 'false',
    description: 'as the API: which X-Forwarded-For hops to believe (the load balancer in front)',
    parse: parseTrustProxy,
  },
  RATE_LIMIT_PUBLIC: { default: '30/60', description: 'password-form posts per seconds for each client address', parse: rateLimit },
  ...SHORT_URL_EDGE_VARIABLES,
  LOG_LEVEL: { default: 'info', description: 'fatal, error, warn, info, debug, trace or silent', parse: oneOf(LOG_LEVELS) },
  ...LOG_FORMAT_VARIABLES,
  LOG_REQUESTS: {
    default: 'false',
    description: 'true: one log line per request at info; false: none (the redirect path stays free of logging)',
    parse: boolean,
  },
  METRICS_TOKEN: {
    default: '(unset)',
    description: 'bearer token GET /metrics requires; unset: open (in production only with METRICS_PUBLIC=true)',
    parse: optional(text),
  },
  METRICS_PUBLIC: { default: 'false', description: 'true: /metrics may be open without METRICS_TOKEN in production', parse: boolean },
  NODE_ENV: { default: '(unset)', description: 'production: METRICS_TOKEN or METRICS_PUBLIC=true must be set', parse: optional(text) },
} satisfies VariableTable;

/** Reads the table, then the one rule between variables (an open /metrics in production); every problem in one ConfigError. */
export function loadRedirectConfig(env: Record<string, string | undefined>): RedirectConfig {
  const { values: v, problems } = readVariables(REDIRECT_CONFIG_VARIABLES, env);
  const production = v.NODE_ENV === 'production';
  if (production && !v.METRICS_TOKEN && !v.METRICS_PUBLIC)
    problems.push('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true to leave /metrics open)');
  if (problems.length) throw new ConfigError(problems);
  const shortBaseUrl = v.SHORT_BASE_URL ?? `http://localhost:${v.PORT}`;
  return {
    port: v.PORT,
    host: v.HOST,
    databaseUrl: v.DATABASE_URL,
    poolSize: v.DATABASE_POOL_SIZE,
    databaseBounds: databaseBoundsOf(v),
    redisUrl: v.REDIS_URL,
    redisOutageCacheTtlMs: v.REDIS_OUTAGE_CACHE_TTL * 1000,
    shortBaseUrl,
    shortHosts: [new URL(shortBaseUrl).hostname.toLowerCase().replace(/^\[|\]$/g, '')],
    notFoundRedirectUrl: v.NOT_FOUND_REDIRECT_URL,
    trustProxy: v.TRUST_PROXY,
    passwordFormLimit: v.RATE_LIMIT_PUBLIC,
    ...shortUrlEdgeOf(v),
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    logRequests: v.LOG_REQUESTS,
    metricsToken: v.METRICS_TOKEN,
    metricsPublic: v.METRICS_PUBLIC,
    production,
  };
}
