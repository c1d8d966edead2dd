import { resolve } from 'node:path';
import type { DatabaseConfig } from '@lnk/shared/database';
import { DEFAULT_PLANS, Plan, PlanCatalog } from '@lnk/billing/domain';

/** Everything the service reads from its environment, validated once at start-up. */
export interface AppConfig {
  /** NODE_ENV=production: settings whose development defaults are unsafe (SECRET_KEY, billing, /metrics) must be given. */
  production: boolean;
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: LogLevel;
  /** LOG_REQUESTS: one line per request at info; false (high traffic): at debug only. */
  logRequests: boolean;
  bcryptCost: number;
  bodyLimitBytes: number;
  /** Where the service is reached from outside: links in mails, the authorization page. */
  publicBaseUrl: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** 32-byte master key; sealing and signing keys are derived from it. Null: a key file under DATA_DIR (never in production). */
  secretKey: Buffer | null;
  dataDir: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Raw IDP_PROVIDERS JSON, parsed by the IdP adapter. */
  idpProviders: string | null;
  /** The plan catalogue; exactly one plan is free. */
  plans: Plan[];
  /** Stripe takes the payments when its key is set; otherwise the built-in sandbox does (see BILLING_SANDBOX). */
  stripe: { secretKey: string; webhookSecret: string; priceIds: Record<string, string>; apiUrl: string | null } | null;
  /** Base of short URLs on the default short domain, e.g. https://lnk.example. */
  shortBaseUrl: string;
  /** The host custom domains must CNAME to. */
  dnsTarget: string;
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
  /** Shared by every instance: cache invalidations and rate-limit counters. Null: one instance, no Redis. */
  redisUrl: string | null;
  /** Fastify's trustProxy: whether (and which) X-Forwarded-For hops are believed for the client address. */
  trustProxy: boolean | number | string[];
  /** Origins allowed to call the API from a browser; '*' any; empty: no cross-origin access. */
  corsOrigins: string[];
  rateLimits: { api: RateLimit; public: RateLimit; qr: RateLimit };
  /** Bearer token /metrics asks for; null: /metrics is open (only outside production, or with METRICS_PUBLIC=true). */
  metricsToken: string | null;
}

/** At most `limit` requests per `seconds`. */
export interface RateLimit {
  limit: number;
  seconds: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = Record<string, string | undefined>;

/** One row per variable: the README's configuration table is this list. */
export const CONFIG_VARIABLES = {
  NODE_ENV: { default: '(unset)', description: 'production: SECRET_KEY, a payment setting (STRIPE_SECRET_KEY or BILLING_SANDBOX=true) and a /metrics setting (METRICS_TOKEN or METRICS_PUBLIC=true) must be set, or the service refuses to start' },
  PORT: { default: '3000', description: 'HTTP port' },
  HOST: { default: '0.0.0.0', description: 'interface to listen on' },
  DATABASE_URL: { default: '(unset)', description: 'PostgreSQL URL; unset means the embedded PGlite database' },
  DATABASE_POOL_SIZE: { default: '10', description: 'connections in the PostgreSQL pool' },
  DATA_DIR: { default: './.data', description: 'where the embedded database keeps its files' },
  LOG_LEVEL: { default: 'info', description: `one of ${LOG_LEVELS.join(', ')}` },
  LOG_REQUESTS: { default: 'true', description: 'true: one log line per request at info (method, path without the query, status, time); false: at debug only (high-traffic deployments)' },
  BCRYPT_COST: { default: '12', description: 'bcrypt cost factor for passwords (4-15)' },
  BODY_LIMIT: { default: '1048576', description: 'largest request body in bytes' },
  PUBLIC_BASE_URL: { default: 'http://localhost:<PORT>', description: 'the address clients reach the service at' },
  ACCESS_TOKEN_TTL: { default: '3600', description: 'OAuth access token lifetime in seconds' },
  REFRESH_TOKEN_TTL: { default: '2592000', description: 'OAuth refresh token lifetime in seconds (30 days)' },
  SECRET_KEY: { default: '(unset)', description: '32 bytes, base64 or hex: the master key the keys sealing TOTP secrets and signing authorization pages are derived from; the same on every instance; required in production; unset: a key file made once under DATA_DIR' },
  SMTP_URL: { default: '(unset)', description: 'smtp:// or smtps:// URL for outgoing mail; unset: messages are written to the log' },
  MAIL_FROM: { default: 'lnk <no-reply@localhost>', description: 'sender of outgoing mail' },
  IDP_PROVIDERS: { default: '(unset)', description: 'JSON array of {issuer, jwksUri, audience} accepted by POST /oauth/idp' },
  PLANS: { default: '(built-in: free, pro, business)', description: 'JSON array of plans {id, name, price, currency?, maxDomains, maxLinks, maxTags}; exactly one with price 0 (the free plan)' },
  STRIPE_SECRET_KEY: { default: '(unset)', description: 'Stripe secret key; set: checkouts go through Stripe, unset: through the built-in sandbox page' },
  STRIPE_WEBHOOK_SECRET: { default: '(unset)', description: 'signing secret of the Stripe webhook endpoint POST /billing/stripe/webhook (required with STRIPE_SECRET_KEY)' },
  STRIPE_PRICES: { default: '(unset)', description: 'Stripe price id of every paid plan, as planId=price_id pairs separated by commas (required with STRIPE_SECRET_KEY)' },
  BILLING_SANDBOX: { default: '(unset)', description: 'true: without STRIPE_SECRET_KEY, the built-in sandbox page takes checkouts (it pays any session: paid plans are free); unset: the sandbox runs outside production only; false: never' },
  STRIPE_API_URL: { default: '(unset)', description: "base URL of Stripe's API; unset: Stripe's own (set for tests against a local stand-in)" },
  SHORT_BASE_URL: { default: 'http://localhost:<PORT>', description: 'base of short URLs on the default short domain' },
  DNS_TARGET: { default: '(host of SHORT_BASE_URL)', description: 'host a custom domain must have a CNAME to' },
  SERVE_SHORT_URLS: { default: 'true', description: 'true: this process answers short URLs (/{slug}) before the API stack; false: a separate redirect deployment (apps/redirect) does, and /{slug} here is an API 404' },
  NOT_FOUND_REDIRECT_URL: { default: '(unset)', description: "absolute http(s) URL unknown short URLs of the default short domain redirect to (302), and its / when SHORT_BASE_URL's host is not PUBLIC_BASE_URL's; unset: the 404 page" },
  REDIS_URL: { default: '(unset)', description: 'redis:// URL shared by all instances (cache invalidation); unset: a single instance' },
  TRUST_PROXY: { default: 'false', description: 'believe X-Forwarded-For: true (any proxy), a number of hops, or comma-separated proxy addresses/CIDRs' },
  CORS_ORIGINS: { default: '(unset)', description: "comma-separated origins allowed to call the API from browsers, or '*'; unset: none" },
  RATE_LIMIT_API: { default: '600/60', description: 'requests per seconds for each token (or client address without one) on the API' },
  RATE_LIMIT_PUBLIC: { default: '30/60', description: 'requests per seconds for each client address on the OAuth endpoints, the authorization page and password forms' },
  RATE_LIMIT_QR: { default: '60/60', description: 'QR code requests per seconds for each token, a budget of their own (not counted in RATE_LIMIT_API)' },
  METRICS_TOKEN: { default: '(unset)', description: 'bearer token GET /metrics requires; unset: /metrics is open (in production only with METRICS_PUBLIC=true)' },
  METRICS_PUBLIC: { default: 'false', description: 'true: /metrics may be open without METRICS_TOKEN in production (keep it off the public network)' },
  DNS_SERVERS: { default: '(unset)', description: 'comma-separated host:port DNS servers for domain verification; unset: the system resolver' },
  DOMAIN_RECHECK_INTERVAL: { default: '3600', description: 'seconds between DNS re-checks of verified domains (a domain whose TXT challenge or CNAME is gone loses its verification); 0: off' },
} as const;

export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const read = (name: keyof typeof CONFIG_VARIABLES): string => {
    const value = env[name];
    return value === undefined || value === '' ? CONFIG_VARIABLES[name].default : value;
  };
  const optional = (name: keyof typeof CONFIG_VARIABLES): string | null => {
    const value = env[name];
    return value === undefined || value === '' ? null : value;
  };
  const integer = (name: keyof typeof CONFIG_VARIABLES, min: number, max: number): number => {
    const raw = read(name);
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
      return min;
    }
    return value;
  };

  const flag = (name: 'BILLING_SANDBOX' | 'METRICS_PUBLIC' | 'LOG_REQUESTS' | 'SERVE_SHORT_URLS'): boolean | null => {
    const raw = optional(name);
    if (raw === null) return null;
    if (raw === 'true' || raw === 'false') return raw === 'true';
    problems.push(`${name} must be true or false (got "${raw}")`);
    return null;
  };
  const production = env['NODE_ENV'] === 'production';

  const port = integer('PORT', 0, 65535);
  const poolSize = integer('DATABASE_POOL_SIZE', 1, 1000);
  const bcryptCost = integer('BCRYPT_COST', 4, 15);
  const bodyLimitBytes = integer('BODY_LIMIT', 1024, 100 * 1024 * 1024);
  const logLevel = read('LOG_LEVEL') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  const logRequests = flag('LOG_REQUESTS') ?? true;
  const serveShortUrls = flag('SERVE_SHORT_URLS') ?? true;

  const accessTokenSeconds = integer('ACCESS_TOKEN_TTL', 60, 86_400);
  const refreshTokenSeconds = integer('REFRESH_TOKEN_TTL', 300, 365 * 86_400);
  const plans = readPlans(optional('PLANS'), problems);
  const rateLimit = (name: 'RATE_LIMIT_API' | 'RATE_LIMIT_PUBLIC' | 'RATE_LIMIT_QR'): RateLimit => {
    const match = /^(\d{1,7})\/(\d{1,6})$/.exec(read(name));
    if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
      problems.push(`${name} must be requests/seconds, like 600/60 (got "${read(name)}")`);
      return { limit: 1, seconds: 1 };
    }
    return { limit: Number(match[1]), seconds: Number(match[2]) };
  };
  const rateLimits = { api: rateLimit('RATE_LIMIT_API'), public: rateLimit('RATE_LIMIT_PUBLIC'), qr: rateLimit('RATE_LIMIT_QR') };
  const rawTrust = read('TRUST_PROXY').trim();
  const trustProxy: AppConfig['trustProxy'] = rawTrust === 'true' ? true : rawTrust === 'false' ? false : /^\d+$/.test(rawTrust) ? Number(rawTrust) : rawTrust.split(',').map((s) => s.trim()).filter(Boolean);
  const corsOrigins = (optional('CORS_ORIGINS') ?? '').split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean);
  for (const origin of corsOrigins) {
    if (origin !== '*' && !(URL.canParse(origin) && new URL(origin).origin === origin)) problems.push(`CORS_ORIGINS entry "${origin}" must be an origin like https://app.example`);
  }
  const stripe = readStripe(optional, plans, problems);
  // The sandbox pays any session without authentication: in production only when asked for by name.
  const sandbox = flag('BILLING_SANDBOX');
  if (!stripe && sandbox === false) problems.push('BILLING_SANDBOX=false needs STRIPE_SECRET_KEY: without Stripe nothing takes payments');
  else if (!stripe && sandbox === null && production) problems.push('STRIPE_SECRET_KEY is required in production (or BILLING_SANDBOX=true to let the sandbox page give paid plans away)');
  const metricsToken = optional('METRICS_TOKEN');
  const metricsPublic = flag('METRICS_PUBLIC');
  if (production && !metricsToken && metricsPublic !== true) problems.push('METRICS_TOKEN is required in production (or METRICS_PUBLIC=true to leave /metrics open)');

  const publicBaseUrl = (optional('PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicBaseUrl) || !/^https?:$/.test(new URL(publicBaseUrl).protocol)) problems.push('PUBLIC_BASE_URL must be an absolute http(s) URL');

  let secretKey: Buffer | null = null;
  const rawKey = optional('SECRET_KEY');
  if (rawKey) {
    secretKey = /^[0-9a-f]{64}$/i.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (secretKey.length !== 32) problems.push('SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
  } else if (production) {
    // A key file per instance would seal and sign differently on each one behind a load balancer.
    problems.push('SECRET_KEY is required in production (the same 32-byte key on every instance)');
  }
  const smtpUrl = optional('SMTP_URL');
  if (smtpUrl && !(URL.canParse(smtpUrl) && ['smtp:', 'smtps:'].includes(new URL(smtpUrl).protocol))) problems.push('SMTP_URL must be an smtp:// or smtps:// URL');
  const idpProviders = optional('IDP_PROVIDERS');
  const redisUrl = optional('REDIS_URL');
  if (redisUrl && !(URL.canParse(redisUrl) && ['redis:', 'rediss:'].includes(new URL(redisUrl).protocol))) problems.push('REDIS_URL must be a redis:// or rediss:// URL');

  const shortBaseUrl = (optional('SHORT_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const shortUrlOk = URL.canParse(shortBaseUrl) && /^https?:$/.test(new URL(shortBaseUrl).protocol) && new URL(shortBaseUrl).pathname === '/';
  if (!shortUrlOk) problems.push('SHORT_BASE_URL must be an absolute http(s) URL without a path');
  const shortHost = shortUrlOk ? new URL(shortBaseUrl).hostname.toLowerCase() : 'localhost';
  const dnsTarget = (optional('DNS_TARGET') ?? shortHost).toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9.-]+$/.test(dnsTarget)) problems.push('DNS_TARGET must be a host name');
  const dnsServers = (optional('DNS_SERVERS') ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  const domainRecheckSeconds = integer('DOMAIN_RECHECK_INTERVAL', 0, 7 * 86_400);
  for (const server of dnsServers) {
    if (!/^[0-9a-zA-Z.:[\]-]+:\d{1,5}$/.test(server) && !/^[0-9a-zA-Z.-]+$/.test(server)) problems.push(`DNS_SERVERS entry "${server}" must be host or host:port`);
  }
  const publicHost = URL.canParse(publicBaseUrl) ? new URL(publicBaseUrl).hostname.toLowerCase() : '';
  const notFoundRedirectUrl = optional('NOT_FOUND_REDIRECT_URL');
  if (notFoundRedirectUrl !== null && !(URL.canParse(notFoundRedirectUrl) && /^https?:$/.test(new URL(notFoundRedirectUrl).protocol) && /^[\x21-\x7e]+$/.test(notFoundRedirectUrl))) {
    problems.push('NOT_FOUND_REDIRECT_URL must be an absolute http(s) URL');
  }
  const ownHosts = [...new Set([shortHost, publicHost, dnsTarget].filter(Boolean))];

  const dataDir = resolve(read('DATA_DIR'));
  let database: DatabaseConfig = { kind: 'pglite', dataDir };
  const url = env['DATABASE_URL'];
  if (url) {
    const parsed = URL.canParse(url) ? new URL(url) : null;
    if (!parsed || !['postgres:', 'postgresql:'].includes(parsed.protocol)) {
      problems.push('DATABASE_URL must be a postgres:// or postgresql:// URL');
    } else {
      database = { kind: 'postgres', url, poolSize };
    }
  }

  if (problems.length) throw new ConfigError(problems);
  return {
    production,
    port,
    host: read('HOST'),
    database,
    logLevel,
    logRequests,
    bcryptCost,
    bodyLimitBytes,
    publicBaseUrl,
    accessTokenSeconds,
    refreshTokenSeconds,
    secretKey,
    dataDir,
    smtpUrl,
    mailFrom: read('MAIL_FROM'),
    idpProviders,
    plans,
    stripe,
    rateLimits,
    trustProxy,
    corsOrigins,
    metricsToken,
    shortBaseUrl,
    dnsTarget,
    dnsServers,
    domainRecheckSeconds,
    serveShortUrls,
    notFoundRedirectUrl: notFoundRedirectUrl === null ? null : new URL(notFoundRedirectUrl).href,
    ownHosts,
    redisUrl,
  };
}

function readPlans(raw: string | null, problems: string[]): Plan[] {
  if (raw === null) return DEFAULT_PLANS.map((p) => ({ ...p }));
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    problems.push('PLANS must be a JSON array of plans');
    return [];
  }
  if (!Array.isArray(parsed) || parsed.some((p) => typeof p !== 'object' || p === null || Array.isArray(p))) {
    problems.push('PLANS must be a JSON array of plan objects');
    return [];
  }
  const plans = (parsed as Record<string, unknown>[]).map((p) => ({ currency: 'USD', billingCycle: 'monthly', ...p }) as Plan);
  try {
    new PlanCatalog(plans);
  } catch (error) {
    problems.push(`PLANS: ${(error as Error).message}`);
  }
  return plans;
}

function readStripe(optional: (name: keyof typeof CONFIG_VARIABLES) => string | null, plans: Plan[], problems: string[]): AppConfig['stripe'] {
  const secretKey = optional('STRIPE_SECRET_KEY');
  if (!secretKey) return null;
  const webhookSecret = optional('STRIPE_WEBHOOK_SECRET');
  if (!webhookSecret) problems.push('STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  const priceIds: Record<string, string> = {};
  for (const pair of (optional('STRIPE_PRICES') ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
    const [planId, priceId] = pair.split('=').map((s) => s.trim());
    if (!planId || !priceId) problems.push(`STRIPE_PRICES entry "${pair}" must be planId=price_id`);
    else priceIds[planId] = priceId;
  }
  for (const plan of plans.filter((p) => p.price > 0)) {
    if (!priceIds[plan.id]) problems.push(`STRIPE_PRICES has no price id for plan "${plan.id}"`);
  }
  const apiUrl = optional('STRIPE_API_URL');
  if (apiUrl && !(URL.canParse(apiUrl) && /^https?:$/.test(new URL(apiUrl).protocol))) problems.push('STRIPE_API_URL must be an absolute http(s) URL');
  return { secretKey, webhookSecret: webhookSecret ?? '', priceIds, apiUrl: apiUrl?.replace(/\/+$/, '') ?? null };
}
