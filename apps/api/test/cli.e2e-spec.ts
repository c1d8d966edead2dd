import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import bcrypt from 'bcrypt';
import type { TestDatabase } from '@lnk/shared/testing';
import { SCOPES } from '@lnk/identity/domain';
import { UNLIMITED } from '@lnk/shared/kernel';
import { runCli } from '@lnk/cli';
import { useAppDatabase, useBuiltApp } from './support/built-app';
import { freePlanLimits, startTestApp, TestApp } from './support/test-app';

describe('operator CLI', () => {
  const fixture = useAppDatabase();
  const db = () => fixture().db;
  const env = () => ({ ...db().env, BCRYPT_COST: '4' });

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(argv, env(), { stdout: (l) => out.push(l), stderr: (l) => err.push(l) });
    return { code, json: out.length ? JSON.parse(out[out.length - 1]) : undefined, stderr: err.join('\n') };
  }

  const query = <T>(sql: string, params: unknown[] = []): Promise<T[]> => db().query<T>(sql, params);

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
    const { code, json } = await cli(
      'client:create',
      '--owner',
      'grace@example.com',
      '--name',
      'Dashboard',
      '--redirect-uri',
      'https://app.example.com/cb',
      '--redirect-uri',
      'http://localhost:8080/cb',
    );
    expect(code).toBe(0);
    expect(json).toMatchObject({
      name: 'Dashboard',
      scopes: [...SCOPES],
      redirectUris: ['https://app.example.com/cb', 'http://localhost:8080/cb'],
      isActive: true,
    });
    expect(json.clientId).toMatch(/^cl_[A-Za-z0-9_-]{22}$/);
    expect(json.clientSecret.length).toBeGreaterThanOrEqual(43);
    const [row] = await query<{ secret_hash: string; is_first_party: boolean; owner_id: string | null; requested_by: string | null }>(
      'SELECT secret_hash, is_first_party, owner_id, requested_by FROM oauth_clients WHERE id = $1',
      [json.id],
    );
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
    const [row] = await query<{ owner_id: string | null; requested_by: string | null }>(
      'SELECT owner_id, requested_by FROM oauth_clients WHERE id = $1',
      [confidential.json.id],
    );
    expect(row).toEqual({ owner_id: null, requested_by: null });
    const spa = await cli('client:create', '--name', 'Web app', '--public', '--redirect-uri', 'https://app.example.com/cb');
    expect(spa.code).toBe(0);
    expect(spa.json).not.toHaveProperty('clientSecret');
    const [publicRow] = await query<{ secret_hash: string | null }>('SELECT secret_hash FROM oauth_clients WHERE id = $1', [spa.json.id]);
    expect(publicRow.secret_hash).toBeNull();
  });

  it('creates a client with the scopes asked for', async () => {
    const { code, json } = await cli(
      'client:create',
      '--owner',
      'grace@example.com',
      '--name',
      'Reader',
      '--scopes',
      'links:read stats:read',
    );
    expect(code).toBe(0);
    expect(json.scopes).toEqual(['links:read', 'stats:read']);
  });

  it('reports the applied migrations', async () => {
    const { code, json } = await cli('migrate');
    expect(code).toBe(0);
    expect(json.migrations).toContain('IdentityAccounts1763800000000');
  });
});

describe('operator CLI: the commands a self-hoster needs for a first token', () => {
  const fixture = useAppDatabase();
  const db = () => fixture().db;
  const env = () => ({ ...db().env, BCRYPT_COST: '4' });

  /** Runs a command in process; `stdin` stands for what is piped in (no terminal: nothing can be prompted). */
  async function cli(argv: string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { ...env(), ...options.env },
      {
        stdout: (l) => out.push(l),
        stderr: (l) => err.push(l),
        readStdin: async () => options.stdin ?? '',
      },
    );
    const last = out[out.length - 1];
    let json: any;
    try {
      json = last === undefined ? undefined : JSON.parse(last);
    } catch {
      json = undefined;
    }
    return { code, json, stdout: out.join('\n'), stderr: err.join('\n') };
  }

  /** The app over HTTP on the database the CLI wrote (the embedded one only once the CLI has closed it). */
  async function withApp<T>(work: (t: TestApp) => Promise<T>): Promise<T> {
    const same: TestDatabase =
      db().kind === 'pglite'
        ? { config: { kind: 'pglite', dataDir: db().env['DATA_DIR'] }, drop: async () => undefined }
        : fixture().database;
    const t = await startTestApp({ database: same });
    try {
      return await work(t);
    } finally {
      await t.close();
    }
  }

  const passwordHash = async (email: string) =>
    (await db().query<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = $1', [email]))[0].password_hash;

  const COMMAND_NAMES = [
    'user:create',
    'user:list',
    'user:set-password',
    'token:create',
    'link:create',
    'link:list',
    'client:create',
    'client:list',
    'plan:list',
    'account:set-plan',
    'account:set-limits',
    'migrate',
  ];

  it('lists every command under --help, on stdout, with exit 0', async () => {
    const { code, stdout } = await cli(['--help']);
    expect(code).toBe(0);
    for (const name of COMMAND_NAMES) expect(stdout).toMatch(new RegExp(`^  ${name} +\\S`, 'm'));
    expect(stdout).toContain('<command> --help');
  });

  it.each(COMMAND_NAMES)('gives %s its own help, naming each of its options', async (name) => {
    const own = await cli([name, '--help']);
    expect(own.code).toBe(0);
    expect(own.stdout.startsWith(`usage: npm run -s cli -- ${name}`)).toBe(true);
    expect(own.json).toBeUndefined();
    // `help <command>` is the same text.
    expect((await cli(['help', name])).stdout).toBe(own.stdout);
  });

  it('documents each option in the command help, and warns that --password is visible to others', async () => {
    const token = (await cli(['token:create', '--help'])).stdout;
    for (const flag of ['--owner E', '--name N', '--scopes', '--expires-at ISO']) expect(token).toContain(flag);
    const setPassword = (await cli(['user:set-password', '-h'])).stdout;
    expect(setPassword).toContain('--password-stdin');
    expect(setPassword).toMatch(/--password P +.*process list/);
  });

  it('creates an account from a password piped to --password-stdin, dropping one trailing newline, and never prints it', async () => {
    const password = 'piped-password-7781';
    const { code, json, stdout, stderr } = await cli(['user:create', '--email', 'ada@example.com', '--password-stdin', '--name', 'Ada'], {
      stdin: `${password}\n`,
    });
    expect(code).toBe(0);
    expect(json).toMatchObject({ email: 'ada@example.com', name: 'Ada', isVerified: true });
    // A password printed back would land in terminal scrollback and CI logs.
    expect(stdout + stderr).not.toContain(password);
    expect(await bcrypt.compare(password, await passwordHash('ada@example.com'))).toBe(true);
  });

  it('asks on the terminal, twice, when no password option is given, and refuses two different answers', async () => {
    const asked: string[] = [];
    const io = (answers: string[]) => ({
      stdout: () => undefined,
      stderr: () => undefined,
      promptSecret: async (question: string) => {
        asked.push(question);
        return answers.shift() as string;
      },
    });
    expect(await runCli(['user:create', '--email', 'typed@example.com'], env(), io(['typed-password-1', 'typed-password-1']))).toBe(0);
    expect(asked).toEqual(['Password: ', 'Password again: ']);
    expect(await bcrypt.compare('typed-password-1', await passwordHash('typed@example.com'))).toBe(true);
    // A typo no one can see would lock the account's owner out.
    expect(await runCli(['user:set-password', '--email', 'typed@example.com'], env(), io(['typed-password-2', 'typed-password-3']))).toBe(
      2,
    );
    expect(await bcrypt.compare('typed-password-1', await passwordHash('typed@example.com'))).toBe(true);
  });

  it.each([
    // A pipe (or /dev/null) is no terminal: the CLI says how to give the password instead of hanging on a prompt nobody sees.
    [['user:create', '--email', 'nopw@example.com'], '', 'standard input is no terminal'],
    [['user:set-password', '--email', 'ada@example.com'], '', 'standard input is no terminal'],
    [['user:create', '--email', 'nopw@example.com', '--password-stdin'], '', 'standard input held no password'],
    [['user:create', '--email', 'nopw@example.com', '--password-stdin'], '\n', 'standard input held no password'],
    [['user:create', '--email', 'nopw@example.com', '--password-stdin', '--password', 'long-enough-pw'], 'long-enough-pw', 'not both'],
    [['user:set-password', '--email', 'ada@example.com', '--password-stdin'], 'short\n', 'at least 8 characters'],
    [['user:set-password', '--email', 'nobody@example.com', '--password-stdin'], 'long-enough-pw', 'not found'],
  ])('exits 2 for %j with stdin %j', async (argv, stdin, message) => {
    const { code, stderr, stdout } = await cli(argv, { stdin });
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(stdout).toBe('');
  });

  it('makes a personal access token whose value, printed once, works over HTTP with exactly the scopes named', async () => {
    const { code, json } = await cli([
      'token:create',
      '--owner',
      'ADA@example.com',
      '--name',
      'laptop',
      '--scopes',
      'user:read links:read',
    ]);
    expect(code).toBe(0);
    expect(json).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      name: 'laptop',
      description: '',
      scopes: ['user:read', 'links:read'],
      token: expect.stringMatching(/^tkn_/),
      // Made by the operator, not by a token: no token's lifetime bounds it, and none was asked for.
      expiresAt: null,
      createdAt: expect.any(String),
    });
    // Only a hash is kept: a copy of the database gives no usable token.
    const rows = await db().query<{ token_hash: string }>('SELECT token_hash FROM personal_access_tokens WHERE id = $1', [json.id]);
    expect(rows).toEqual([{ token_hash: createHash('sha256').update(json.token).digest('hex') }]);
    await withApp(async (t) => {
      const me = await t.request('GET', '/user/me', { token: json.token });
      expect(me.status).toBe(200);
      expect(me.body.data.email).toBe('ada@example.com');
      // Scopes not named are not granted.
      expect((await t.request('POST', '/user/link', { token: json.token, body: { url: 'https://example.com/' } })).status).toBe(403);
    });
  });

  it('gives a token the expiry asked for', async () => {
    const expiresAt = new Date(Date.now() + 30 * 86_400_000);
    expiresAt.setUTCMilliseconds(0);
    const { code, json } = await cli([
      'token:create',
      '--owner',
      'ada@example.com',
      '--name',
      'ci',
      '--scopes',
      'links:read,stats:read',
      '--expires-at',
      expiresAt.toISOString(),
    ]);
    expect(code).toBe(0);
    expect(json).toMatchObject({ scopes: ['links:read', 'stats:read'], expiresAt: expiresAt.toISOString() });
  });

  it.each([
    [['token:create', '--owner', 'ada@example.com', '--name', 'x'], 'missing --scopes'],
    [['token:create', '--owner', 'ada@example.com', '--name', 'x', '--scopes', 'links:read root'], 'unknown scope: root'],
    [['token:create', '--owner', 'ada@example.com', '--name', 'x', '--scopes', 'links:read', '--expires-at', 'next week'], 'ISO 8601'],
    [
      ['token:create', '--owner', 'ada@example.com', '--name', 'x', '--scopes', 'links:read', '--expires-at', '2027-01-31T12:00'],
      'ISO 8601',
    ],
    [
      ['token:create', '--owner', 'ada@example.com', '--name', 'x', '--scopes', 'links:read', '--expires-at', '2001-01-01T00:00:00Z'],
      'in the future',
    ],
    [['token:create', '--owner', 'nobody@example.com', '--name', 'x', '--scopes', 'links:read'], 'not found'],
    [['token:create', '--owner', 'ada@example.com', '--name', ' ', '--scopes', 'links:read'], 'name must be 1 to 100 characters'],
  ])('refuses %j with exit 2', async (argv, message) => {
    const { code, stderr } = await cli(argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
  });

  it('lists accounts, oldest first, a page at a time', async () => {
    expect((await cli(['user:create', '--email', 'bob@example.com', '--password', 'long-enough-pw'])).code).toBe(0);
    const all = await cli(['user:list']);
    expect(all.code).toBe(0);
    expect(all.json).toMatchObject({ total: 3, start: 0, limit: 10 });
    expect(all.json.items.map((u: { email: string }) => u.email)).toEqual(['ada@example.com', 'typed@example.com', 'bob@example.com']);
    expect(Object.keys(all.json.items[0]).sort()).toEqual(['createdAt', 'email', 'id', 'isActive', 'isVerified', 'name']);
    const last = await cli(['user:list', '--limit', '1', '--start', '2']);
    expect(last.json).toMatchObject({ total: 3, start: 2, limit: 1, items: [{ email: 'bob@example.com' }] });
    const bad = await cli(['user:list', '--limit', 'ten']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--limit must be a whole number');
  });

  it('creates and lists links through the same rules as the API: validation, taken slugs and the plan quota', async () => {
    const created = await cli([
      'link:create',
      '--owner',
      'ada@example.com',
      '--url',
      'https://example.com/manual',
      '--slug',
      'manual',
      '--title',
      'Manual',
    ]);
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({
      slug: 'manual',
      url: 'https://example.com/manual',
      title: 'Manual',
      shortUrl: expect.stringMatching(/\/manual$/),
      clicks: 0,
      tags: [],
    });
    const random = await cli(['link:create', '--owner', 'ada@example.com', '--url', 'https://example.org/']);
    expect(random.code).toBe(0);
    expect(random.json.slug).toMatch(/^[A-Za-z0-9_-]+$/);

    // The same checks as POST /user/link: a script URL, a taken slug.
    const script = await cli(['link:create', '--owner', 'ada@example.com', '--url', 'javascript:alert(1)']);
    expect(script.code).toBe(2);
    expect(script.stderr).toContain('url:');
    const taken = await cli(['link:create', '--owner', 'ada@example.com', '--url', 'https://example.net/', '--slug', 'manual']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toContain('slug:');
    // The plan's quota holds for the operator too: the CLI is no way around billing.
    const capped = await cli(['link:create', '--owner', 'ada@example.com', '--url', 'https://example.net/'], {
      env: { PLANS: freePlanLimits({ maxLinks: 2 }) },
    });
    expect(capped.code).toBe(2);
    expect(capped.stderr).toContain('quota');

    const listed = await cli(['link:list', '--owner', 'ada@example.com']);
    expect(listed.code).toBe(0);
    expect(listed.json).toMatchObject({ total: 2 });
    expect(listed.json.items.map((l: { slug: string }) => l.slug).sort()).toEqual(['manual', random.json.slug].sort());
    const found = await cli(['link:list', '--owner', 'ada@example.com', '--q', 'manual', '--limit', '5']);
    expect(found.json).toMatchObject({ total: 1, limit: 5, items: [{ slug: 'manual' }] });
    // Another account's links are not listed under this one.
    expect((await cli(['link:list', '--owner', 'bob@example.com'])).json).toMatchObject({ total: 0, items: [] });
  });

  it('lists first-party clients with their client ids, never their secrets', async () => {
    const made = await cli(['client:create', '--name', 'Dashboard', '--owner', 'ada@example.com']);
    const spa = await cli(['client:create', '--name', 'Web app', '--public', '--redirect-uri', 'https://app.example.com/cb']);
    expect([made.code, spa.code]).toEqual([0, 0]);
    const { code, json, stdout } = await cli(['client:list']);
    expect(code).toBe(0);
    // The service's own dashboard client (a migration's) is listed too.
    expect(json).toMatchObject({
      total: 3,
      items: [
        { clientId: 'lnk-dashboard', name: 'lnk dashboard' },
        { clientId: made.json.clientId, name: 'Dashboard' },
        { clientId: spa.json.clientId, name: 'Web app' },
      ],
    });
    // Only a hash of a secret is stored, and the list shows nothing of it.
    expect(stdout).not.toContain(made.json.clientSecret);
    for (const item of json.items) expect(item).not.toHaveProperty('clientSecret');
  });

  it('sets a password as a change does: sessions end, tokens are revoked, the new password signs in and the old does not', async () => {
    const pat = await cli(['token:create', '--owner', 'ada@example.com', '--name', 'before', '--scopes', 'user:read']);
    const client = await cli(['client:create', '--name', 'Sign-in']);
    const clientId: string = client.json.clientId;
    const clientSecret: string = client.json.clientSecret;
    const session = await withApp(async (t) => {
      const grant = await t.request('POST', '/oauth/token', {
        body: {
          grant_type: 'password',
          client_id: clientId,
          client_secret: clientSecret,
          username: 'ada@example.com',
          password: 'piped-password-7781',
        },
      });
      expect(grant.status).toBe(200);
      return grant.body.data.access_token as string;
    });

    const newPassword = 'operator-set-4410';
    const set = await cli(['user:set-password', '--email', 'ada@example.com', '--password-stdin'], { stdin: `${newPassword}\r\n` });
    expect(set.code).toBe(0);
    expect(set.json).toMatchObject({ email: 'ada@example.com' });
    expect(set.stdout + set.stderr).not.toContain(newPassword);

    await withApp(async (t) => {
      // Whoever had the old password may have made tokens with it: they stop working.
      expect((await t.request('GET', '/user/me', { token: pat.json.token })).status).toBe(401);
      expect((await t.request('GET', '/user/me', { token: session })).status).toBe(401);
      const signIn = (password: string) =>
        t.request('POST', '/oauth/token', {
          body: { grant_type: 'password', client_id: clientId, client_secret: clientSecret, username: 'ada@example.com', password },
        });
      expect((await signIn('piped-password-7781')).status).not.toBe(200);
      expect((await signIn(newPassword)).status).toBe(200);
    });
  });

  it('keeps the flags of the commands it had: --password on user:create', async () => {
    const { code, json } = await cli(['user:create', '--email', 'old-style@example.com', '--password', 'long-enough-pw', '--name', 'Old']);
    expect(code).toBe(0);
    expect(json).toMatchObject({ email: 'old-style@example.com', name: 'Old' });
  });
});

describe('operator CLI: plans and limits, held at once by a running server', () => {
  const fixture = useAppDatabase();
  const db = () => fixture().db;
  // The server and the CLI read the same settings, as a deployment's do: billing off, the operator's own catalogue.
  const settings = { PLANS: freePlanLimits({ maxLinks: 3 }), DEFAULT_MAX_TAGS: '2' };
  let t: TestApp;
  let ada: { email: string; token: string };

  async function cli(...argv: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runCli(
      argv,
      { ...db().env, BCRYPT_COST: '4', ...settings },
      { stdout: (l) => out.push(l), stderr: (l) => err.push(l) },
    );
    return { code, json: out.length ? JSON.parse(out[out.length - 1]) : undefined, stderr: err.join('\n') };
  }

  beforeAll(async () => {
    // The embedded database on disk is served by the running app on its socket, which the CLI goes through.
    const database: TestDatabase =
      db().kind === 'pglite'
        ? { config: { kind: 'pglite', dataDir: db().env['DATA_DIR'] }, drop: async () => undefined }
        : fixture().database;
    t = await startTestApp({ database, env: settings });
    expect((await cli('user:create', '--email', 'ada@example.com', '--password', 'long-enough-pw')).code).toBe(0);
    ada = {
      email: 'ada@example.com',
      token: (
        await cli(
          'token:create',
          '--owner',
          'ada@example.com',
          '--name',
          'ops',
          '--scopes',
          'links:write user:read subscription:read tags:write',
        )
      ).json.token,
    };
  });
  afterAll(() => t?.close());

  const createLink = (n: number) => t.request('POST', '/user/link', { token: ada.token, body: { url: `https://example.com/${n}` } });
  const limits = async () => (await t.request('GET', '/user/me/limits', { token: ada.token })).body.data;

  it('lists the plans with the billing mode, the default plan first', async () => {
    const { code, json } = await cli('plan:list');
    expect(code).toBe(0);
    expect(json).toMatchObject({ billing: 'off', defaultPlan: 'free' });
    expect(json.items.map((p: { id: string; maxLinks: number }) => [p.id, p.maxLinks])).toEqual([
      ['free', 3],
      ['pro', 5000],
      ['business', 50000],
    ]);
  });

  it("sets an account's limits, which the running server holds from the next request, and gives the plan's back", async () => {
    for (const n of [1, 2, 3]) expect((await createLink(n)).status).toBe(200);
    expect((await createLink(4)).body.code).toBe('QUOTA_EXCEEDED');

    const raised = await cli('account:set-limits', '--email', 'ADA@example.com', '--links', '4', '--tags', 'unlimited');
    expect(raised.code).toBe(0);
    expect(raised.json).toEqual({
      email: 'ada@example.com',
      custom: { links: 4, domains: null, tags: UNLIMITED },
      limits: { links: { used: 3, limit: 4 }, domains: { used: 0, limit: 1 }, tags: { used: 0, limit: UNLIMITED } },
    });
    expect((await createLink(4)).status).toBe(200);
    const over = await createLink(5);
    expect([over.status, over.body.meta]).toEqual([403, { limit: { resource: 'links', used: 4, limit: 4 } }]);
    expect((await t.request('GET', '/user/subscription/current', { token: ada.token })).body.data).toMatchObject({
      planId: 'free',
      maxLinks: 4,
      maxTags: UNLIMITED,
      maxDomains: 1,
    });

    // Lowered below what it holds: nothing is deleted, nothing more is created.
    expect((await cli('account:set-limits', '--email', 'ada@example.com', '--links', '0')).json.limits.links).toEqual({
      used: 4,
      limit: 0,
    });
    expect((await createLink(6)).body.code).toBe('QUOTA_EXCEEDED');
    expect((await cli('account:set-limits', '--email', 'ada@example.com', '--links', 'unlimited')).code).toBe(0);
    expect((await createLink(6)).status).toBe(200);
    // `plan` gives one limit back to the plan, --clear all of them.
    expect((await cli('account:set-limits', '--email', 'ada@example.com', '--links', 'plan')).json.custom).toEqual({
      links: null,
      domains: null,
      tags: UNLIMITED,
    });
    const cleared = await cli('account:set-limits', '--email', 'ada@example.com', '--clear');
    expect(cleared.json.custom).toEqual({ links: null, domains: null, tags: null });
    expect(await limits()).toEqual({ links: { used: 5, limit: 3 }, domains: { used: 0, limit: 1 }, tags: { used: 0, limit: 2 } });
  });

  it('puts an account on another plan without a checkout; its custom limits still win', async () => {
    const moved = await cli('account:set-plan', '--email', 'ada@example.com', '--plan', 'pro');
    expect(moved.code).toBe(0);
    expect(moved.json).toMatchObject({
      planId: 'pro',
      planName: 'Pro',
      status: 'active',
      isActive: true,
      maxLinks: 5000,
      maxDomains: 5,
      maxTags: 100,
    });
    expect((await t.request('GET', '/user/subscription/current', { token: ada.token })).body.data).toMatchObject({
      id: moved.json.id,
      planId: 'pro',
    });
    expect((await createLink(7)).status).toBe(200);
    await cli('account:set-limits', '--email', 'ada@example.com', '--domains', '0');
    expect((await limits()).domains).toEqual({ used: 0, limit: 0 });
    // Assigning the plan it is on changes nothing.
    expect((await cli('account:set-plan', '--email', 'ada@example.com', '--plan', 'pro')).json.id).toBe(moved.json.id);
    expect((await cli('account:set-plan', '--email', 'ada@example.com', '--plan', 'free')).json).toMatchObject({
      planId: 'free',
      maxLinks: 3,
      maxDomains: 0,
    });
  });

  it.each([
    [['account:set-plan', '--email', 'ada@example.com', '--plan', 'gold'], 'plan: unknown plan; one of free, pro, business'],
    [['account:set-plan', '--email', 'ada@example.com'], 'missing --plan'],
    [['account:set-plan', '--email', 'nobody@example.com', '--plan', 'pro'], 'not found'],
    [['account:set-limits', '--email', 'ada@example.com'], 'give at least one of --links, --domains, --tags, or --clear'],
    [
      ['account:set-limits', '--email', 'ada@example.com', '--links=-3'],
      '--links must be a whole number from 0 to 2147483647, unlimited, or plan',
    ],
    [['account:set-limits', '--email', 'ada@example.com', '--tags', 'lots'], '--tags must be a whole number'],
    [['account:set-limits', '--email', 'ada@example.com', '--domains', '2147483648'], '--domains must be a whole number'],
    [['account:set-limits', '--email', 'nobody@example.com', '--links', '5'], 'not found'],
  ])('exits 2 for %j, saying why, and changes nothing', async (argv, message) => {
    const before = await limits();
    const { code, stderr } = await cli(...argv);
    expect(code).toBe(2);
    expect(stderr).toContain(message);
    expect(await limits()).toEqual(before);
  });
});

describe('operator CLI as a process: passwords from standard input', () => {
  const fixture = useBuiltApp();

  /**
   * `node cli/main.js ...` with `input` written to its stdin, or stdin at end of file at once. The
   * embedded database takes seconds to create on disk, hence the long timeouts below.
   */
  function run(args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [join(fixture().dist.dir, 'apps/cli/src/main.js'), ...args], {
        env: { PATH: process.env['PATH'] ?? '', ...fixture().db.env, BCRYPT_COST: '4', LOG_LEVEL: 'warn' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.once('error', reject);
      child.once('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });
  }

  it('reads the password piped to --password-stdin and never writes it out', async () => {
    const password = 'from-a-pipe-5521';
    const { code, stdout, stderr } = await run(['user:create', '--email', 'pipe@example.com', '--password-stdin'], `${password}\n`);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(JSON.parse(stdout.trim().split('\n').pop() as string)).toMatchObject({ email: 'pipe@example.com' });
    expect(stdout).not.toContain(password);
    expect(
      await bcrypt.compare(
        password,
        (await fixture().db.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE email = 'pipe@example.com'`))[0]
          .password_hash,
      ),
    ).toBe(true);
  }, 120_000);

  it('without a password option and with no terminal to ask on, exits 2 saying how to give one', async () => {
    const { code, stdout, stderr } = await run(['user:create', '--email', 'nopw@example.com'], '');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toContain('--password-stdin');
  }, 120_000);
});
