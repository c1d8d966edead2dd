import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Client } from 'pg';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { SCOPES } from '@lnk/identity/domain';
import { runCli } from '../src/cli/run-cli';
import { PERSISTENCE_MODULES } from '../src/database/persistence-modules';

describe('operator CLI', () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let dataDir: string | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    if (database.config.kind === 'postgres') {
      env = { DATABASE_URL: database.config.url, BCRYPT_COST: '4' };
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'lnk-cli-'));
      env = { DATA_DIR: dataDir, BCRYPT_COST: '4' };
    }
  });

  afterAll(async () => {
    await database.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env, { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
    return { code, json: out.length ? JSON.parse(out[out.length - 1]) : undefined, stderr: err.join('\n') };
  }

  async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    if (database.config.kind === 'postgres') {
      const client = new Client({ connectionString: database.config.url });
      await client.connect();
      try {
        return (await client.query(sql, params)).rows as T[];
      } finally {
        await client.end();
      }
    }
    const dataSource = await openDatabase(createDataSource({ kind: 'pglite', dataDir: dataDir ?? null }, PERSISTENCE_MODULES));
    try {
      return await dataSource.query(sql, params);
    } finally {
      await dataSource.destroy();
    }
  }

  it('creates a user and prints it as the API shows users', async () => {
    const { code, json } = await cli('user:create', '--email', 'Grace@Example.com', '--password', 'long-enough-pw', '--name', 'Grace');
    expect(code).toBe(0);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'grace@example.com',
      name: 'Grace',
      isVerified: false,
      isActive: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const [row] = await query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [json.id]);
    expect(row.password_hash).toMatch(/^\$2[aby]\$04\$/);
    expect(row.password_hash).not.toContain('long-enough-pw');
  });

  it('refuses a duplicate e-mail, whatever its case', async () => {
    const { code, json, stderr } = await cli('user:create', '--email', 'GRACE@example.com', '--password', 'long-enough-pw');
    expect(code).toBe(2);
    expect(json).toBeUndefined();
    expect(stderr).toContain('email is already registered');
  });

  it.each([
    [['user:create', '--email', 'not-an-email', '--password', 'long-enough-pw'], 'valid e-mail address'],
    [['user:create', '--password', 'long-enough-pw'], 'missing --email'],
    [['user:create', '--email', 'x@example.com'], 'missing --password'],
    [['user:create', '--email', 'x@example.com', '--password', 'short'], 'at least 8 characters'],
    [['user:create', '--email', 'x@example.com', '--password', 'long-enough-pw', '--admin', 'yes'], "Unknown option '--admin'"],
    [['client:create', '--owner', 'nobody@example.com', '--name', 'App'], 'not found'],
    [['client:create', '--owner', 'grace@example.com'], 'missing --name'],
    [['client:create', '--owner', 'grace@example.com', '--name', 'App', '--scopes', 'links:read root'], 'unknown scope: root'],
    [['client:create', '--owner', 'grace@example.com', '--name', 'App', '--redirect-uri', 'http://example.com/cb'], 'https'],
    [['user:delete'], 'unknown command'],
  ])('exits 2 with a clear message for %j', async (argv, message) => {
    const { code, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('creates a first-party client with every scope by default, storing only a hash of its secret', async () => {
    const { code, json } = await cli('client:create', '--owner', 'grace@example.com', '--name', 'Dashboard', '--redirect-uri', 'https://app.example.com/cb', '--redirect-uri', 'http://localhost:8080/cb');
    expect(code).toBe(0);
    expect(json).toMatchObject({ name: 'Dashboard', scopes: [...SCOPES], redirectUris: ['https://app.example.com/cb', 'http://localhost:8080/cb'], isActive: true });
    expect(json.clientId).toMatch(/^cl_[A-Za-z0-9_-]{22}$/);
    expect(json.clientSecret.length).toBeGreaterThanOrEqual(43);
    const [row] = await query<{ secret_hash: string; is_first_party: boolean }>('SELECT secret_hash, is_first_party FROM oauth_clients WHERE id = $1', [json.id]);
    expect(row.secret_hash).toBe(createHash('sha256').update(json.clientSecret).digest('hex'));
    expect(row.is_first_party).toBe(true);
  });

  it('creates a client with the scopes asked for', async () => {
    const { code, json } = await cli('client:create', '--owner', 'grace@example.com', '--name', 'Reader', '--scopes', 'links:read stats:read');
    expect(code).toBe(0);
    expect(json.scopes).toEqual(['links:read', 'stats:read']);
  });

  it('reports the applied migrations', async () => {
    const { code, json } = await cli('migrate');
    expect(code).toBe(0);
    expect(json.migrations).toContain('IdentityAccounts1763800000000');
  });
});
