import { resolve } from 'node:path';
import type { DatabaseConfig } from '@lnk/shared/database';

/** Everything the service reads from its environment, validated once at start-up. */
export interface AppConfig {
  port: number;
  host: string;
  database: DatabaseConfig;
  logLevel: LogLevel;
  bcryptCost: number;
  bodyLimitBytes: number;
  /** Where the service is reached from outside: links in mails, the authorization page. */
  publicBaseUrl: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  /** 32-byte key sealing TOTP secrets; null means a key file under DATA_DIR. */
  secretKey: Buffer | null;
  dataDir: string;
  smtpUrl: string | null;
  mailFrom: string;
  /** Raw IDP_PROVIDERS JSON, parsed by the IdP adapter. */
  idpProviders: string | null;
  defaultQuota: { domains: number; links: number; tags: number };
  /** Base of short URLs on the default short domain, e.g. https://lnk.example. */
  shortBaseUrl: string;
  /** The host custom domains must CNAME to. */
  dnsTarget: string;
  /** DNS servers asked when verifying domains (host:port); empty means the system's. */
  dnsServers: string[];
  /** Host names of the service itself: no destination may point at them, no custom domain may be one. */
  ownHosts: string[];
  /** Shared by every instance: cache invalidations travel through it. Null: one instance, no Redis. */
  redisUrl: string | null;
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
  PORT: { default: '3000', description: 'HTTP port' },
  HOST: { default: '0.0.0.0', description: 'interface to listen on' },
  DATABASE_URL: { default: '(unset)', description: 'PostgreSQL URL; unset means the embedded PGlite database' },
  DATABASE_POOL_SIZE: { default: '10', description: 'connections in the PostgreSQL pool' },
  DATA_DIR: { default: './.data', description: 'where the embedded database keeps its files' },
  LOG_LEVEL: { default: 'info', description: `one of ${LOG_LEVELS.join(', ')}` },
  BCRYPT_COST: { default: '12', description: 'bcrypt cost factor for passwords (4-15)' },
  BODY_LIMIT: { default: '1048576', description: 'largest request body in bytes' },
  PUBLIC_BASE_URL: { default: 'http://localhost:<PORT>', description: 'the address clients reach the service at' },
  ACCESS_TOKEN_TTL: { default: '3600', description: 'OAuth access token lifetime in seconds' },
  REFRESH_TOKEN_TTL: { default: '2592000', description: 'OAuth refresh token lifetime in seconds (30 days)' },
  SECRET_KEY: { default: '(unset)', description: '32 bytes, base64 or hex, sealing TOTP secrets; unset: a key file made once under DATA_DIR' },
  SMTP_URL: { default: '(unset)', description: 'smtp:// or smtps:// URL for outgoing mail; unset: messages are written to the log' },
  MAIL_FROM: { default: 'lnk <no-reply@localhost>', description: 'sender of outgoing mail' },
  IDP_PROVIDERS: { default: '(unset)', description: 'JSON array of {issuer, jwksUri, audience} accepted by POST /oauth/idp' },
  DEFAULT_MAX_DOMAINS: { default: '1', description: 'custom domains per account on the default plan' },
  DEFAULT_MAX_LINKS: { default: '100', description: 'links per account on the default plan' },
  DEFAULT_MAX_TAGS: { default: '10', description: 'tags per account on the default plan' },
  SHORT_BASE_URL: { default: 'http://localhost:<PORT>', description: 'base of short URLs on the default short domain' },
  DNS_TARGET: { default: '(host of SHORT_BASE_URL)', description: 'host a custom domain must have a CNAME to' },
  REDIS_URL: { default: '(unset)', description: 'redis:// URL shared by all instances (cache invalidation); unset: a single instance' },
  DNS_SERVERS: { default: '(unset)', description: 'comma-separated host:port DNS servers for domain verification; unset: the system resolver' },
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

  const port = integer('PORT', 0, 65535);
  const poolSize = integer('DATABASE_POOL_SIZE', 1, 1000);
  const bcryptCost = integer('BCRYPT_COST', 4, 15);
  const bodyLimitBytes = integer('BODY_LIMIT', 1024, 100 * 1024 * 1024);
  const logLevel = read('LOG_LEVEL') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);

  const accessTokenSeconds = integer('ACCESS_TOKEN_TTL', 60, 86_400);
  const refreshTokenSeconds = integer('REFRESH_TOKEN_TTL', 300, 365 * 86_400);
  const defaultQuota = { domains: integer('DEFAULT_MAX_DOMAINS', 0, 1_000_000), links: integer('DEFAULT_MAX_LINKS', 0, 100_000_000), tags: integer('DEFAULT_MAX_TAGS', 0, 1_000_000) };

  const publicBaseUrl = (optional('PUBLIC_BASE_URL') ?? `http://localhost:${port}`).replace(/\/+$/, '');
  if (!URL.canParse(publicBaseUrl) || !/^https?:$/.test(new URL(publicBaseUrl).protocol)) problems.push('PUBLIC_BASE_URL must be an absolute http(s) URL');

  let secretKey: Buffer | null = null;
  const rawKey = optional('SECRET_KEY');
  if (rawKey) {
    secretKey = /^[0-9a-f]{64}$/i.test(rawKey) ? Buffer.from(rawKey, 'hex') : Buffer.from(rawKey, 'base64');
    if (secretKey.length !== 32) problems.push('SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
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
  for (const server of dnsServers) {
    if (!/^[0-9a-zA-Z.:[\]-]+:\d{1,5}$/.test(server) && !/^[0-9a-zA-Z.-]+$/.test(server)) problems.push(`DNS_SERVERS entry "${server}" must be host or host:port`);
  }
  const publicHost = URL.canParse(publicBaseUrl) ? new URL(publicBaseUrl).hostname.toLowerCase() : '';
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
    port,
    host: read('HOST'),
    database,
    logLevel,
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
    defaultQuota,
    shortBaseUrl,
    dnsTarget,
    dnsServers,
    ownHosts,
    redisUrl,
  };
}
