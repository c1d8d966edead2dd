import { AppMetrics } from '../metrics/app-metrics';
import { parseArgs } from 'node:util';
import { DataSource } from 'typeorm';
import { normalizeEmail } from '@lnk/identity/domain';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { DomainError, NotFoundError, ValidationError } from '@lnk/shared/kernel';
import { AppConfig, ConfigError, loadConfig } from '../config/app-config';
import { composeContexts } from '../composition/contexts.composition';
import { createLogger } from '../logging/logger';
import { PERSISTENCE_MODULES } from '../database/persistence-modules';
import { presentClient, presentUser } from '../http/identity/identity.presenter';

export interface CliIo {
  stdout(line: string): void;
  stderr(line: string): void;
}

class UsageError extends Error {}

const USAGE = `usage: npm run cli -- <command> [options]

commands:
  user:create   --email E --password P [--name N]
  client:create --name N [--owner E] [--scopes "s1 s2"] [--redirect-uri U]... [--public]
                a first-party client: it belongs to the service, not to any account (--owner only
                records who asked); --public makes one without a secret, for browser or native apps (PKCE)
  migrate       apply pending database migrations

Each command prints one JSON object as its last line.`;

type Command = (args: string[], dataSource: DataSource, config: AppConfig) => Promise<unknown>;

function options<T extends Record<string, { type: 'string' | 'boolean'; multiple?: boolean }>>(args: string[], spec: T, required: (keyof T & string)[]) {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({ args, options: spec, strict: true, allowPositionals: false }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const missing = required.filter((name) => values[name] === undefined || values[name] === '');
  if (missing.length) throw new UsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
  return values;
}

const COMMANDS: Record<string, Command> = {
  'user:create': async (args, dataSource, config) => {
    const v = options(args, { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } }, ['email', 'password']);
    const user = await composeContexts(dataSource, config, createLogger(config.logLevel, 2), new AppMetrics()).identity.registerUser.execute({
      email: v['email'] as string,
      password: v['password'] as string,
      name: v['name'] as string | undefined,
      // The operator vouches for the address: no verification mail, and the account can use an identity provider.
      verified: true,
    });
    return presentUser(user);
  },
  'client:create': async (args, dataSource, config) => {
    const v = options(
      args,
      { owner: { type: 'string' }, name: { type: 'string' }, scopes: { type: 'string' }, 'redirect-uri': { type: 'string', multiple: true }, public: { type: 'boolean' } },
      ['name'],
    );
    const identity = composeContexts(dataSource, config, createLogger(config.logLevel, 2), new AppMetrics()).identity;
    let requestedBy: string | null = null;
    if (v['owner'] !== undefined) {
      const owner = await identity.users.findByEmail(normalizeEmail(v['owner'], 'owner'));
      if (!owner) throw new NotFoundError(`User ${v['owner']}`);
      requestedBy = owner.id;
    }
    const scopes = typeof v['scopes'] === 'string' ? v['scopes'].split(/[\s,]+/).filter(Boolean) : undefined;
    const { client, clientSecret } = await identity.createOAuthClient.execute({
      requestedBy,
      name: v['name'] as string,
      scopes,
      redirectUris: (v['redirect-uri'] as string[] | undefined) ?? [],
      isFirstParty: true,
      isPublic: v['public'] === true,
    });
    return presentClient(client, clientSecret);
  },
  migrate: async (args, dataSource) => {
    options(args, {}, []);
    // openDatabase has applied pending migrations already; report what the database now has.
    const rows: { name: string }[] = await dataSource.query('SELECT name FROM migrations ORDER BY id');
    return { migrations: rows.map((r) => r.name) };
  },
};

function describe(error: unknown): string {
  if (error instanceof ValidationError) return error.errors.map((e) => `${e.name}: ${e.error}`).join('; ');
  if (error instanceof DomainError || error instanceof UsageError || error instanceof ConfigError) return error.message;
  return `unexpected error: ${(error as Error)?.message ?? String(error)}`;
}

/** Runs one operator command; returns the exit code (0 done, 2 bad input, 1 anything else). */
export async function runCli(argv: string[], env: Record<string, string | undefined>, io: CliIo): Promise<number> {
  const [name, ...args] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr(name && name !== '--help' ? `unknown command: ${name}\n\n${USAGE}` : USAGE);
    return name === '--help' ? 0 : 2;
  }
  let dataSource: DataSource | undefined;
  try {
    const config = loadConfig(env);
    dataSource = await openDatabase(createDataSource(config.database, PERSISTENCE_MODULES));
    const result = await command(args, dataSource, config);
    io.stdout(JSON.stringify(result));
    return 0;
  } catch (error) {
    io.stderr(`error: ${describe(error)}`);
    const badInput = error instanceof UsageError || error instanceof DomainError || error instanceof ConfigError;
    return badInput ? 2 : 1;
  } finally {
    if (dataSource?.isInitialized) await dataSource.destroy();
  }
}
