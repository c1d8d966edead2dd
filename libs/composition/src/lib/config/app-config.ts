import { isIP } from 'node:net';
import { resolve } from 'node:path';
import ipaddr from 'ipaddr.js';
import type { DatabaseConfig } from '@lnk/shared/database';
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
  list,
  oneOf,
  optional,
  rateLimit,
  RateLimit,
  readVariables,
  SHORT_URL_EDGE_VARIABLES,
  ShortUrlEdgeConfig,
  shortUrlEdgeOf,
  text,
  url,
  ValuesOf,
  VariableTable,
} from '@lnk/shared/config';
import { DEFAULT_PLANS, Plan, PlanCatalog, SELF_HOSTED_PLANS, withFreePlanLimits } from '@lnk/billing/domain';
import { IdpProvider, parseIdpProviders } from '@lnk/identity/adapter-jose';
import { parseTrustProxy, TrustProxy } from '@lnk/links/adapter-http';
import { parseUrl, UNLIMITED } from '@lnk/shared/kernel';

export { ConfigError };
export type { RateLimit };

/** Everything the service reads from its environment, validated once at start-up. */
/** `ShortUrlEdgeConfig`: the click write and the lookup cache, when this process answers short URLs (SERVE_SHORT_URLS). */
export interface AppConfig extends ShortUrlEdgeConfig {
  /** NODE_ENV=production: settings whose development defaults are unsafe (SECRET_KEY, /metrics) must be given. */
  production: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  /** How long each role of database work may take (requests, the click write, migrations), and connecting; PostgreSQL only. */
  databaseBounds: DatabaseBoundsConfig & { migrationTimeoutMs: number };
  logLevel: LogLevel;
  /** LOG_FORMAT: JSON lines or readable ones; null: readable when the log goes to a terminal (the logger decides). */
  logFormat: LogFormat | null;
  /** LOG_REQUESTS: one line per request at info; false (high traffic): at debug only. */
  logRequests: boolean;
  bcryptCost: number;
  bodyLimitBytes: number;
  /** Where the service is reached from outside: links in mails, the authorization page. */
  publicBaseUrl: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** PAT_LIMIT: active personal access tokens an account may hold. */
  patLimit: number;
  /** 32-byte master key; sealing and signing keys are derived from it. Null: a key file under DATA_DIR (never in production). */
  secretKey: Buffer | null;
  dataDir: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** OpenID Connect providers whose ID tokens sign people in (POST /oauth/idp). */
  idpProviders: IdpProvider[];
  /** BILLING: who takes payments; off, nobody (plans and limits are the operator's). */
  billingMode: BillingMode;
  /** The plan catalogue, the free plan's limits from DEFAULT_MAX_* where set; exactly one plan is free. */
  plans: Plan[];
  /** Stripe's settings, in the stripe mode only. */
  stripe: { secretKey: string; webhookSecret: string; priceIds: Record<string, string>; apiUrl: string | null } | null;
  /** Base of short URLs on the default short domain, e.g. https://lnk.example. */
  shortBaseUrl: string;
  /** The host custom domains must CNAME to. */
  dnsTarget: string;
  /** The service's own addresses: a custom domain (at a zone apex) may point A/AAAA records at them instead of a CNAME. */
  dnsTargetAddresses: string[];
  /**
   * The scheme of custom domains' short URLs: fixed, or `request`, the scheme the API request came with
   * (X-Forwarded-Proto from a trusted proxy). Unset: SHORT_BASE_URL's.
   */
  customDomainScheme: 'http' | 'https' | 'request';
  /** DNS servers asked when verifying domains (host:port); empty means the system's. */
  dnsServers: string[];
  /** Seconds between DNS re-checks of verified domains; 0: never re-checked. */
  domainRecheckSeconds: number;
  /** SERVE_SHORT_URLS: this process answers /{slug}; false: a separate redirect deployment (apps/redirect) does. */
  serveShortUrls: boolean;
  /** Where unknown short URLs of the default short domain are sent (302) instead of the 404 page; null: the page. */
  notFoundRedirectUrl: string | null;
  /** Host names of the service itself: no destination may point at them, no custom domain may be one. */
  ownHosts: string[];
  /**
   * Where the default short domain's links answer: SHORT_BASE_URL's host and PUBLIC_BASE_URL's (npm start serves both on one port); any
   * other host that is not a verified custom domain answers none.
   */
  shortHosts: string[];
  /** Shared by every instance: cache invalidations and rate-limit counters. Null: one instance, no Redis. */
  redisUrl: string | null;
  /** REDIS_OUTAGE_CACHE_TTL: how long cached links, hosts and accepted tokens live while Redis is away. */
  redisOutageCacheTtlMs: number;
  /** Fastify's trustProxy: whether (and which) X-Forwarded-For hops are believed for the client address. */
  trustProxy: TrustProxy;
  /** Origins allowed to call the API from a browser; '*' any; empty: no cross-origin access. */
  corsOrigins: string[];
  rateLimits: { api: RateLimit; public: RateLimit; qr: RateLimit };
  /** Where the dashboard's build is (served at /app). */
  dashboardDir: string;
  /** Bearer token /metrics asks for; null: /metrics is open (only outside production, or with METRICS_PUBLIC=true). */
  metricsToken: string | null;
  webhooks: WebhooksSettings;
}

/** The webhooks' delivery worker and the destinations they may have (WEBHOOKS_*). */
export interface WebhooksSettings {
  /** Plain http and loopback/private destinations allowed (tests, local use); link-local and metadata addresses never. */
  allowPrivate: boolean;
  /** Whether this process runs the delivery worker (the separate worker process always does). */
  worker: boolean;
  /** The nice value the separate worker process (worker.ts) takes at start-up; 0: left as started. */
  workerNice: number;
  /**
   * A file the worker touches after each look for deliveries that reached the database (a container's healthcheck reads its age); null:
   * none.
   */
  heartbeatFile: string | null;
  pollIntervalMs: number;
  /** Sends a worker has in flight at most. */
  batchSize: number;
  /** Deliveries to one webhook in flight at once, across workers. */
  maxInFlight: number;
  /** An answer slower than this halves the webhook's in-flight limit. */
  slowAnswerMs: number;
  /** How often the worker looks for links that expired since its last look (link.expired events). */
  expiryScanIntervalMs: number;
  retryBaseDelayMs: number;
  maxAttempts: number;
  disableAfterFailures: number;
  retentionMs: number;
}

export const BILLING_MODES = ['off', 'sandbox', 'stripe'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

type Env = Record<string, string | undefined>;

/**
 * The dashboard's build beside the built server: dist/apps/web from dist/libs/composition/src/lib/config.
 * Run from the sources (tests), this file is a .ts one and the build is still the repository's dist/apps/web.
 */
const TO_ROOT = ['..', '..', '..', '..', '..'];
const BUILT_DASHBOARD_DIR = __filename.endsWith('.ts')
  ? resolve(__dirname, ...TO_ROOT, 'dist', 'apps', 'web')
  : resolve(__dirname, ...TO_ROOT, 'apps', 'web');

/** One row per variable: docs/configuration.md's table is this list; each is read by its `parse`. */
export const CONFIG_VARIABLES = {
  NODE_ENV: {
    default: '(unset)',
    description:
      'production: SECRET_KEY and a /metrics setting (METRICS_TOKEN or METRICS_PUBLIC=true) must be set, or the service refuses to start',
    parse: optional(text),
  },
  PORT: { default: '3000', description: 'HTTP port', parse: integer(0, 65535) },
  HOST: { default: '0.0.0.0', description: 'interface to listen on', parse: text },
  DATABASE_URL: {
    default: '(unset)',
    description: 'PostgreSQL URL; unset means the embedded PGlite database',
    parse: optional(url('postgres:', 'postgresql:')),
  },
  DATABASE_POOL_SIZE: { default: '10', description: 'connections in the PostgreSQL pool', parse: integer(1, 1000) },
  ...DATABASE_BOUNDS_VARIABLES,
  DATABASE_MIGRATION_TIMEOUT: {
    default: '0',
    description:
      "milliseconds a migration's statement may run (at start-up and `npm run " +
      'migrate`); 0: no bound (a migration may rewrite a large table)',
    parse: integer(0, 24 * 3_600_000),
  },
  DATA_DIR: {
    default: './.data',
    description:
      'where the embedded database keeps its files (and the key file without SECRET_KEY); made ' +
      "0700; an existing one must be the process's user's and closed to others",
    parse: text,
  },
  LOG_LEVEL: { default: 'info', description: `one of ${LOG_LEVELS.join(', ')}`, parse: oneOf(LOG_LEVELS) },
  ...LOG_FORMAT_VARIABLES,
  LOG_REQUESTS: {
    default: 'true',
    description:
      'true: one log line per request at info (method, path without the query, ' +
      'status, time); false: at debug only (high-traffic deployments)',
    parse: boolean,
  },
  BCRYPT_COST: { default: '12', description: 'bcrypt cost factor for passwords (4-15)', parse: integer(4, 15) },
  BODY_LIMIT: { default: '1048576', description: 'largest request body in bytes', parse: integer(1024, 100 * 1024 * 1024) },
  PUBLIC_BASE_URL: {
    default: 'http://localhost:<PORT>',
    description: 'the address clients reach the service at',
    parse: optional(baseUrl({ path: true })),
  },
  ACCESS_TOKEN_TTL: { default: '3600', description: 'OAuth access token lifetime in seconds', parse: integer(60, 86_400) },
  REFRESH_TOKEN_TTL: {
    default: '2592000',
    description: 'OAuth refresh token lifetime in seconds (30 days)',
    parse: integer(300, 365 * 86_400),
  },
  PAT_LIMIT: {
    default: '100',
    description:
      'active personal access tokens (not revoked, not expired) an account may hold; one more is refused with 403 QUOTA_EXCEEDED',
    parse: integer(1, 10_000),
  },
  SECRET_KEY: {
    default: '(unset)',
    description:
      '32 bytes, base64 or hex: the master key the keys sealing TOTP secrets and signing authorization pages are derived ' +
      'from; the same on every instance; required in production; unset: a key file made once under DATA_DIR',
    parse: optional(secretKey),
  },
  SMTP_URL: {
    default: '(unset)',
    description: 'smtp:// or smtps:// URL for outgoing mail; unset: messages are written to the log',
    parse: optional(url('smtp:', 'smtps:')),
  },
  MAIL_FROM: { default: 'lnk <no-reply@localhost>', description: 'sender of outgoing mail', parse: text },
  IDP_PROVIDERS: {
    default: '(unset)',
    description: 'JSON array of {issuer, jwksUri, audience} accepted by POST /oauth/idp',
    parse: optional(parseIdpProviders),
  },
  BILLING: {
    default: '(stripe with STRIPE_SECRET_KEY, else off)',
    description:
      'off: no payments, every account on the default plan unless the operator assigns another (CLI); sandbox: the built-in ' +
      'page takes checkouts and pays any session (paid plans are free: for trying it); stripe: Stripe takes them',
    parse: optional(oneOf(BILLING_MODES)),
  },
  PLANS: {
    default: '(built-in: free, pro, business; billing off: one unlimited plan, default)',
    description:
      'JSON array of plans {id, name, price, currency?, maxDomains, maxLinks, maxTags}; exactly one with price 0 (the ' +
      `free plan, every account's until it pays or is assigned another); ${UNLIMITED} means unlimited`,
    parse: optional(plans),
  },
  DEFAULT_MAX_LINKS: {
    default: "(the free plan's)",
    description: `links an account on the free plan may hold: a number, or unlimited (${UNLIMITED} in answers)`,
    parse: optional(limit),
  },
  DEFAULT_MAX_DOMAINS: {
    default: "(the free plan's)",
    description: 'custom domains an account on the free plan may have: a number, or unlimited',
    parse: optional(limit),
  },
  DEFAULT_MAX_TAGS: {
    default: "(the free plan's)",
    description: 'tags an account on the free plan may have: a number, or unlimited',
    parse: optional(limit),
  },
  STRIPE_SECRET_KEY: {
    default: '(unset)',
    description: 'Stripe secret key (BILLING=stripe, the default when it is set)',
    parse: optional(text),
  },
  STRIPE_WEBHOOK_SECRET: {
    default: '(unset)',
    description: 'signing secret of the Stripe webhook endpoint POST /billing/stripe/webhook (required with STRIPE_SECRET_KEY)',
    parse: optional(text),
  },
  STRIPE_PRICES: {
    default: '(unset)',
    description: 'Stripe price id of every paid plan, as planId=price_id pairs separated by commas (required with STRIPE_SECRET_KEY)',
    parse: optional(list(priceId)),
  },
  STRIPE_API_URL: {
    default: '(unset)',
    description: "base URL of Stripe's API; unset: Stripe's own (set for tests against a local stand-in)",
    parse: optional(baseUrl({ path: true })),
  },
  SHORT_BASE_URL: {
    default: 'http://localhost:<PORT>',
    description:
      "base of short URLs on the default short domain; its host and PUBLIC_BASE_URL's " +
      "are the only ones that answer the default short domain's links",
    parse: optional(baseUrl({ path: false })),
  },
  DNS_TARGET: { default: '(host of SHORT_BASE_URL)', description: 'host a custom domain must have a CNAME to', parse: optional(hostName) },
  DNS_TARGET_ADDRESSES: {
    default: '(unset)',
    description:
      'comma-separated IPv4/IPv6 addresses of the service: a custom domain may instead have A/AAAA ' +
      'records, all among them (a zone apex cannot have a CNAME); unset: the CNAME only',
    parse: optional(list(ipAddress)),
  },
  CUSTOM_DOMAIN_SCHEME: {
    default: '(scheme of SHORT_BASE_URL)',
    description:
      'scheme of the short URLs of custom domains: https, http, or request (the scheme ' +
      'of the API request, X-Forwarded-Proto behind a TRUST_PROXY proxy)',
    parse: optional(oneOf(['https', 'http', 'request'] as const)),
  },
  ...SHORT_URL_EDGE_VARIABLES,
  SERVE_SHORT_URLS: {
    default: 'true',
    description:
      'true: this process answers short URLs (/{slug}) before the API stack; false: a separate ' +
      'redirect deployment (apps/redirect) does, and /{slug} here is an API 404',
    parse: boolean,
  },
  NOT_FOUND_REDIRECT_URL: {
    default: '(unset)',
    description:
      'absolute http(s) URL unknown short URLs of the default short domain redirect to (302), and ' +
      "its / when SHORT_BASE_URL's host is not PUBLIC_BASE_URL's; unset: the 404 page",
    parse: optional(httpUrl),
  },
  REDIS_URL: {
    default: '(unset)',
    description: 'redis:// URL shared by all instances (cache invalidation, rate-limit counters); unset: a single instance',
    parse: optional(url('redis:', 'rediss:')),
  },
  REDIS_OUTAGE_CACHE_TTL: {
    default: '2',
    description:
      'with REDIS_URL: seconds cached links, hosts and accepted tokens live while Redis is unreachable (changes and ' +
      'revocations made on other instances are not heard then); every cache is emptied when Redis answers again',
    parse: integer(1, 300),
  },
  TRUST_PROXY: {
    default: 'false',
    description:
      'which X-Forwarded-For hops to believe for the client address: a number of proxy hops in front (0-32), or ' +
      'comma-separated proxy addresses/CIDRs (loopback, linklocal, uniquelocal name ranges), the safe forms; true ' +
      "believes any, so a client can name any address it likes; false: the connection's address",
    parse: parseTrustProxy,
  },
  CORS_ORIGINS: {
    default: '(unset)',
    description: "comma-separated origins allowed to call the API from browsers, or '*'; unset: none",
    parse: optional(list(origin)),
  },
  RATE_LIMIT_API: {
    default: '600/60',
    description:
      'requests per seconds for each account, all its tokens together (or each client address, without a valid token) on the API',
    parse: rateLimit,
  },
  RATE_LIMIT_PUBLIC: {
    default: '30/60',
    description: 'requests per seconds for each client address on the OAuth endpoints, the authorization page and password forms',
    parse: rateLimit,
  },
  RATE_LIMIT_QR: {
    default: '60/60',
    description:
      'QR code requests per seconds for each account, all its tokens together, a budget of their own (not counted in RATE_LIMIT_API)',
    parse: rateLimit,
  },
  DASHBOARD_DIR: {
    default: '(dist/apps/web, beside the built server)',
    description: 'folder of the built dashboard (`npm run build`), served at /app; without an index.html there, /app answers 404',
    parse: optional(text),
  },
  METRICS_TOKEN: {
    default: '(unset)',
    description: 'bearer token GET /metrics requires; unset: /metrics is open (in production only with METRICS_PUBLIC=true)',
    parse: optional(text),
  },
  METRICS_PUBLIC: {
    default: 'false',
    description: 'true: /metrics may be open without METRICS_TOKEN in production (keep it off the public network)',
    parse: optional(boolean),
  },
  DNS_SERVERS: {
    default: '(unset)',
    description: 'comma-separated host:port DNS servers for domain verification and webhook destinations; unset: the system resolver',
    parse: optional(list(dnsServer)),
  },
  DOMAIN_RECHECK_INTERVAL: {
    default: '3600',
    description:
      'seconds between DNS re-checks of verified domains (a domain whose TXT challenge or CNAME is gone loses its verification); 0: off',
    parse: integer(0, 7 * 86_400),
  },
  WEBHOOKS_ALLOW_PRIVATE: {
    default: 'false',
    description:
      'true: webhooks may use plain http and point at loopback and private addresses (tests, local ' +
      'use); link-local and metadata addresses (169.254.0.0/16, fd00:ec2::254) stay refused',
    parse: boolean,
  },
  WEBHOOKS_WORKER: {
    default: 'true',
    description: 'true: this process sends webhook deliveries (several instances share the work safely); false: it only enqueues them',
    parse: boolean,
  },
  WEBHOOKS_WORKER_NICE: {
    default: '19',
    description:
      'scheduling priority (nice, 0 to 19) the separate delivery worker (`npm run worker`) gives ' +
      'itself at start-up: 19, the lowest, runs it on the CPU the other processes leave; 0: the ' +
      'priority it was started with. The API process never changes its own',
    parse: integer(0, 19),
  },
  WEBHOOKS_WORKER_HEARTBEAT_FILE: {
    default: '(unset)',
    description:
      'a file the delivery worker touches, at most every 5 seconds, after each look for due deliveries that reached the ' +
      'database: a healthcheck reads its age (docker/compose.yaml: older than a minute is unhealthy); unset: none',
    parse: optional(text),
  },
  WEBHOOKS_POLL_INTERVAL: {
    default: '1000',
    description: 'milliseconds between two looks for due webhook deliveries when the last one found none',
    parse: integer(10, 3_600_000),
  },
  WEBHOOKS_BATCH_SIZE: {
    default: '20',
    description: 'webhook deliveries a worker sends at once (in flight at most); each look takes what is free of them',
    parse: integer(1, 1000),
  },
  WEBHOOKS_MAX_IN_FLIGHT: {
    default: '5',
    description:
      'webhook deliveries to one webhook in flight at once, across workers: a webhook with a backlog leaves the rest ' +
      'of a worker to the others; fewer for a receiver that answers slowly (see WEBHOOKS_SLOW_ANSWER)',
    parse: integer(1, 1000),
  },
  WEBHOOKS_SLOW_ANSWER: {
    default: '5000',
    description:
      "milliseconds after which a receiver's answer (a 2xx included) or its silence is slow: each slow one halves the " +
      "webhook's deliveries in flight, down to 1; each prompt one raises them by one, back to WEBHOOKS_MAX_IN_FLIGHT",
    parse: integer(1, 3_600_000),
  },
  WEBHOOKS_EXPIRY_SCAN_INTERVAL: {
    default: '10000',
    description:
      'milliseconds between two looks (by each worker) for links whose expiresAt passed, told as ' +
      'link.expired to owners with a webhook for it; the first look after start-up covers the last hour',
    parse: integer(10, 3_600_000),
  },
  WEBHOOKS_RETRY_BASE_DELAY: {
    default: '15000',
    description:
      'milliseconds before the first retry of a failed webhook delivery; each ' +
      'further one waits 4 times longer (at most 8 hours), ±25 % jitter',
    parse: integer(1, 3_600_000),
  },
  WEBHOOKS_MAX_ATTEMPTS: {
    default: '9',
    description: 'attempts of one webhook delivery before it is marked failed (9 with the default base delay: about 22 hours)',
    parse: integer(1, 50),
  },
  WEBHOOKS_DISABLE_AFTER: {
    default: '100',
    description:
      'failed webhook delivery attempts in a row (no success between) after which ' +
      'the webhook is turned off, with the reason shown to its owner',
    parse: integer(1, 100_000),
  },
  WEBHOOKS_RETENTION: {
    default: '7',
    description: 'days delivered and failed webhook deliveries stay in the deliveries list',
    parse: integer(1, 365),
  },
} satisfies VariableTable;

type Values = ValuesOf<typeof CONFIG_VARIABLES>;

/**
 * Reads the table, then the rules between variables (what production requires, Stripe's companions,
 * defaults taken from other variables); every problem of both kinds goes into one ConfigError.
 */
export function loadConfig(env: Env): AppConfig {
  const { values: v, problems } = readVariables(CONFIG_VARIABLES, env);
  const production = v.NODE_ENV === 'production';
  const billingMode: BillingMode = v.BILLING ?? (v.STRIPE_SECRET_KEY ? 'stripe' : 'off');
  // Unset, a self-hosted service without billing limits nobody; one that sells plans keeps the free plan's.
  const catalogue = v.PLANS ?? (billingMode === 'off' ? SELF_HOSTED_PLANS : DEFAULT_PLANS);
  const plans = withFreePlanLimits(catalogue, { links: v.DEFAULT_MAX_LINKS, domains: v.DEFAULT_MAX_DOMAINS, tags: v.DEFAULT_MAX_TAGS });
  const stripe = billingMode === 'stripe' ? stripeOf(v, plans, problems) : null;
  if (billingMode !== 'stripe' && v.STRIPE_SECRET_KEY)
    problems.push(`STRIPE_SECRET_KEY is set but BILLING=${billingMode}: unset one of them`);
  // Renamed: an old setting left in place would otherwise change what the service does without a word.
  if (env['BILLING_SANDBOX'])
    problems.push('BILLING_SANDBOX is replaced by BILLING: BILLING=sandbox for the sandbox page, BILLING=off for no billing');
  if (production && !v.METRICS_TOKEN && v.METRICS_PUBLIC !== true)
    problems.push('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true to leave /metrics open)');
  // A key file per instance would seal and sign differently on each one behind a load balancer.
  if (production && !env['SECRET_KEY']) problems.push('SECRET_KEY is required in production (the same 32-byte key on every instance)');

  const publicBaseUrl = v.PUBLIC_BASE_URL ?? `http://localhost:${v.PORT}`;
  const shortBaseUrl = v.SHORT_BASE_URL ?? `http://localhost:${v.PORT}`;
  const shortHost = new URL(shortBaseUrl).hostname.toLowerCase();
  const dnsTarget = v.DNS_TARGET ?? shortHost;
  const publicHost = new URL(publicBaseUrl).hostname.toLowerCase();
  const ownHosts = [...new Set([shortHost, publicHost, dnsTarget].filter(Boolean))];
  // As a request names them: an IPv6 host without its brackets.
  const shortHosts = [...new Set([shortHost, publicHost].map((host) => host.replace(/^\[|\]$/g, '')))];
  const dataDir = resolve(v.DATA_DIR);
  const database: DatabaseConfig = v.DATABASE_URL
    ? { kind: 'postgres', url: v.DATABASE_URL, poolSize: v.DATABASE_POOL_SIZE }
    : { kind: 'pglite', dataDir };

  if (problems.length) throw new ConfigError(problems);
  return {
    production,
    port: v.PORT,
    host: v.HOST,
    database,
    databaseBounds: { ...databaseBoundsOf(v), migrationTimeoutMs: v.DATABASE_MIGRATION_TIMEOUT },
    logLevel: v.LOG_LEVEL,
    logFormat: v.LOG_FORMAT,
    logRequests: v.LOG_REQUESTS,
    bcryptCost: v.BCRYPT_COST,
    bodyLimitBytes: v.BODY_LIMIT,
    publicBaseUrl,
    accessTokenSeconds: v.ACCESS_TOKEN_TTL,
    refreshTokenSeconds: v.REFRESH_TOKEN_TTL,
    patLimit: v.PAT_LIMIT,
    secretKey: v.SECRET_KEY,
    dataDir,
    smtpUrl: v.SMTP_URL,
    mailFrom: v.MAIL_FROM,
    idpProviders: v.IDP_PROVIDERS ?? [],
    billingMode,
    plans,
    stripe,
    rateLimits: { api: v.RATE_LIMIT_API, public: v.RATE_LIMIT_PUBLIC, qr: v.RATE_LIMIT_QR },
    trustProxy: v.TRUST_PROXY,
    corsOrigins: v.CORS_ORIGINS ?? [],
    metricsToken: v.METRICS_TOKEN,
    dashboardDir: resolve(v.DASHBOARD_DIR ?? BUILT_DASHBOARD_DIR),
    shortBaseUrl,
    dnsTarget,
    dnsTargetAddresses: [...new Set(v.DNS_TARGET_ADDRESSES ?? [])],
    customDomainScheme: v.CUSTOM_DOMAIN_SCHEME ?? (new URL(shortBaseUrl).protocol === 'https:' ? 'https' : 'http'),
    dnsServers: v.DNS_SERVERS ?? [],
    domainRecheckSeconds: v.DOMAIN_RECHECK_INTERVAL,
    serveShortUrls: v.SERVE_SHORT_URLS,
    ...shortUrlEdgeOf(v),
    notFoundRedirectUrl: v.NOT_FOUND_REDIRECT_URL,
    ownHosts,
    shortHosts,
    redisUrl: v.REDIS_URL,
    redisOutageCacheTtlMs: v.REDIS_OUTAGE_CACHE_TTL * 1000,
    webhooks: {
      allowPrivate: v.WEBHOOKS_ALLOW_PRIVATE,
      worker: v.WEBHOOKS_WORKER,
      workerNice: v.WEBHOOKS_WORKER_NICE,
      heartbeatFile: v.WEBHOOKS_WORKER_HEARTBEAT_FILE,
      pollIntervalMs: v.WEBHOOKS_POLL_INTERVAL,
      batchSize: v.WEBHOOKS_BATCH_SIZE,
      maxInFlight: v.WEBHOOKS_MAX_IN_FLIGHT,
      slowAnswerMs: v.WEBHOOKS_SLOW_ANSWER,
      expiryScanIntervalMs: v.WEBHOOKS_EXPIRY_SCAN_INTERVAL,
      retryBaseDelayMs: v.WEBHOOKS_RETRY_BASE_DELAY,
      maxAttempts: v.WEBHOOKS_MAX_ATTEMPTS,
      disableAfterFailures: v.WEBHOOKS_DISABLE_AFTER,
      retentionMs: v.WEBHOOKS_RETENTION * 86_400_000,
    },
  };
}

function stripeOf(v: Values, plans: Plan[], problems: string[]): AppConfig['stripe'] {
  const secretKey = v.STRIPE_SECRET_KEY;
  if (!secretKey) {
    problems.push('STRIPE_SECRET_KEY is required with BILLING=stripe');
    return null;
  }
  if (!v.STRIPE_WEBHOOK_SECRET) problems.push('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const priceIds = Object.fromEntries(v.STRIPE_PRICES ?? []);
  for (const plan of plans.filter((p) => p.price > 0)) {
    if (!priceIds[plan.id]) problems.push(`STRIPE_PRICES has no price id for plan "${plan.id}"`);
  }
  return { secretKey, webhookSecret: v.STRIPE_WEBHOOK_SECRET ?? '', priceIds, apiUrl: v.STRIPE_API_URL };
}

/** 32 bytes, as 64 hex characters or base64. */
function secretKey(raw: string): Buffer {
  const key = /^[0-9a-f]{64}$/i.test(raw) ? Buffer.from(raw, 'hex') : Buffer.from(raw, 'base64');
  if (key.length !== 32) throw new Error('must be 32 bytes, as 64 hex characters or base64');
  return key;
}

/** A JSON array of plans; the catalogue checks them (exactly one free plan, ...). */
function plans(raw: string): Plan[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new Error('must be a JSON array of plans');
  }
  if (!Array.isArray(parsed) || parsed.some((p) => typeof p !== 'object' || p === null || Array.isArray(p)))
    throw new Error('must be a JSON array of plan objects');
  const plans = (parsed as Record<string, unknown>[]).map((p) => ({ currency: 'USD', billingCycle: 'monthly', ...p }) as Plan);
  try {
    new PlanCatalog(plans);
  } catch (error) {
    throw new Error(`PLANS: ${(error as Error).message}`, { cause: error });
  }
  return plans;
}

/** A DEFAULT_MAX_* value: a whole number, or `unlimited`. */
function limit(raw: string): number {
  if (raw === 'unlimited') return UNLIMITED;
  try {
    return integer(0, UNLIMITED)(raw);
  } catch {
    throw new Error(`must be a whole number from 0 to ${UNLIMITED}, or unlimited (got "${raw}")`);
  }
}

/** One STRIPE_PRICES entry, planId=price_id. */
function priceId(pair: string): [string, string] {
  const [planId, id] = pair.split('=').map((s) => s.trim());
  if (!planId || !id) throw new Error(`entry "${pair}" must be planId=price_id`);
  return [planId, id];
}

function hostName(raw: string): string {
  const host = raw.toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9.-]+$/.test(host)) throw new Error('must be a host name');
  return host;
}

/** A CORS_ORIGINS entry: '*' or an origin, a trailing slash forgiven. */
function origin(raw: string): string {
  const value = raw.replace(/\/+$/, '');
  if (value !== '*' && parseUrl(value)?.origin !== value) throw new Error(`entry "${value}" must be an origin like https://app.example`);
  return value;
}

/** An IPv4 or IPv6 address, in the one spelling the DNS adapter answers in (ipaddr.js's), so equal addresses compare equal. */
function ipAddress(raw: string): string {
  if (!isIP(raw)) throw new Error(`entry "${raw}" must be an IPv4 or IPv6 address`);
  return ipaddr.parse(raw).toString();
}

function dnsServer(raw: string): string {
  if (!/^[0-9a-zA-Z.:[\]-]+:\d{1,5}$/.test(raw) && !/^[0-9a-zA-Z.-]+$/.test(raw))
    throw new Error(`entry "${raw}" must be host or host:port`);
  return raw;
}
