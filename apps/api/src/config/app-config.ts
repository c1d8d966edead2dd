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
} as const;

export function loadConfig(env: Env): AppConfig {
  const problems: string[] = [];
  const read = (name: keyof typeof CONFIG_VARIABLES): string => {
    const value = env[name];
    return value === undefined || value === '' ? CONFIG_VARIABLES[name].default : value;
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

  let database: DatabaseConfig = { kind: 'pglite', dataDir: resolve(read('DATA_DIR')) };
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
  return { port, host: read('HOST'), database, logLevel, bcryptCost, bodyLimitBytes };
}
