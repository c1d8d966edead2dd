import { createHash } from 'node:crypto';
import { createTestDatabase, TestDatabase } from '@lnk/shared/testing';
import { SCOPES } from '@lnk/identity/domain';
import { runCli } from '../src/cli/run-cli';
import { AppDatabase, appDatabase } from './support/built-app';

describe('operator CLI', () => {
  let database: TestDatabase;
  let db: AppDatabase;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await createTestDatabase();
    db = appDatabase(database);
    env = { ...db.env, BCRYPT_COST: '4' };
  });

  afterAll(async () => {
    await database.drop();
    db.remove();
  });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env, { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
    return { code, json: out.length ? JSON.parse(out[out.length - 1]) : undefined, stderr: err.join('\n') };
  }

  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => db.query<T>(sql, params);

  // The operator vouches for the address: the account is verified (so its owner's identity-provider
  // sign-in enters it, and no one can take the address from it) and no verification mail goes out.
  it('creates a verified user and prints it as the API shows users', async () => {
    const { code, json } = await cli('user:create', '--email', 'Grace@Example.com', '--password', 'long-enough-pw', '--name', 'Grace');
    expect(code).toBe(0);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      email: 'grace@example.com',
      name: 'Grace',
      isVerified: true,
      isActive: true,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    const [row] = await query<{ password_hash: string }>('SELECT password_hash FROM users WHERE id = $1', [json.id]);
    expect(row.password_hash).toMatch(/^\$2[aby]\$04\$/);
    expect(row.password_hash).not.toContain('long-enough-pw');
    expect(await query('SELECT id FROM email_verifications WHERE user_id = $1', [json.id])).toEqual([]);
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
    const [row] = await query<{ secret_hash: string; is_first_party: boolean; owner_id: string | null; requested_by: string | null }>('SELECT secret_hash, is_first_party, owner_id, requested_by FROM oauth_clients WHERE id = $1', [json.id]);
    expect(row.secret_hash).toBe(createHash('sha256').update(json.clientSecret).digest('hex'));
    expect(row.is_first_party).toBe(true);
    // It belongs to the service: --owner only records who asked, so that account cannot manage or delete it.
    const [grace] = await query<{ id: string }>(`SELECT id FROM users WHERE email = 'grace@example.com'`);
    expect(row.owner_id).toBeNull();
    expect(row.requested_by).toBe(grace.id);
  });

  it('creates a first-party client without --owner, and a public one (no secret) with --public', async () => {
    const confidential = await cli('client:create', '--name', 'Mobile backend');
    expect(confidential.code).toBe(0);
    expect(confidential.json.clientSecret).toEqual(expect.any(String));
    const [row] = await query<{ owner_id: string | null; requested_by: string | null }>('SELECT owner_id, requested_by FROM oauth_clients WHERE id = $1', [confidential.json.id]);
    expect(row).toEqual({ owner_id: null, requested_by: null });
    const spa = await cli('client:create', '--name', 'Web app', '--public', '--redirect-uri', 'https://app.example.com/cb');
    expect(spa.code).toBe(0);
    expect(spa.json).not.toHaveProperty('clientSecret');
    const [publicRow] = await query<{ secret_hash: string | null }>('SELECT secret_hash FROM oauth_clients WHERE id = $1', [spa.json.id]);
    expect(publicRow.secret_hash).toBeNull();
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
