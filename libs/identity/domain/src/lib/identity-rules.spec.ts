import { FixedClock } from '@lnk/shared/testing';
import { MemoryAuthorizationCodeRepository, MemoryOAuthTokenRepository, MemoryPersonalAccessTokenRepository } from '@lnk/identity/testing';
import { NotFoundError, UnauthorizedError, UnitOfWork } from '@lnk/shared/kernel';
import { OAuthClient } from './model/oauth-client.entity';
import { OAuthError } from './model/oauth-error';
import { AuthorizationCode, Principal } from './model/tokens';
import { User } from './model/user.entity';
import { AccountDataEraser, AfterAccountDeleted } from './ports/account-data-eraser';
import { AccountLimits, AccountLimitsReader } from './ports/account-limits-reader';
import { BackupCodeRepository } from './ports/account.repositories';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { PkceVerifier } from './ports/pkce-verifier';
import { RevocationListener } from './ports/revocation-listener';
import { SecretBox } from './ports/secret-box';
import { SecretGenerator } from './ports/secret-generator';
import { SecretHasher } from './ports/secret-hasher';
import { TotpService, TwoFactorStateRepository } from './ports/two-factor';
import { UserRepository } from './ports/user.repository';
import { AuthenticateUseCase } from './use-cases/authenticate.use-case';
import { DeleteAccountUseCase } from './use-cases/delete-account.use-case';
import { AuthorizationCodeGrantUseCase } from './use-cases/authorization-code-grant.use-case';
import { DecideAuthorizationUseCase } from './use-cases/decide-authorization.use-case';
import { ValidateAuthorizationRequestUseCase } from './use-cases/validate-authorization-request.use-case';
import { CredentialsChecker } from './services/credentials-checker';
import { RepositoryBearerPrincipals } from './services/repository-bearer-principals';
import { GrantTokensUseCase } from './use-cases/grant-tokens.use-case';
import { PasswordGrantUseCase } from './use-cases/password-grant.use-case';
import { Reauthentication } from './services/reauthentication';
import { ClientAuthenticator } from './services/client-authenticator';
import { RevokePersonalAccessTokenUseCase } from './use-cases/revoke-personal-access-token.use-case';
import { RefreshGrantUseCase } from './use-cases/refresh-grant.use-case';
import { SecondFactor } from './services/second-factor';
import { TokenIssuer } from './services/token-issuer';

// Small in-memory fakes of the ports, honouring their contracts.
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const secrets: SecretGenerator = { generate: () => `r${++n}` };

const user = new User({
  id: 'u1',
  email: 'ada@example.com',
  name: '',
  passwordHash: null,
  isVerified: true,
  isActive: true,
  twoFactorSecret: 'sealed:SECRET',
  createdAt: new Date(),
  updatedAt: new Date(),
});
const client = new OAuthClient({
  id: 'c1',
  clientId: 'cl_1',
  secretHash: 'h:secret',
  ownerId: null,
  requestedBy: 'u1',
  name: 'App',
  description: '',
  scopes: ['user:read', 'links:read'],
  redirectUris: ['https://app.example.com/cb'],
  isFirstParty: true,
  isActive: true,
  createdAt: new Date(),
  updatedAt: new Date(),
});
const users: UserRepository = {
  findById: async (id) => (id === 'u1' ? user : null),
  findByEmail: async () => user,
  insert: async () => undefined,
  update: async () => undefined,
  delete: async () => true,
};
const publicClient = new OAuthClient({ ...client.toProps(), id: 'c2', clientId: 'cl_public', secretHash: null });
const clients = {
  findByClientId: async (id: string) => ({ cl_1: client, cl_public: publicClient })[id] ?? null,
} as unknown as OAuthClientRepository;

describe('identity domain rules', () => {
  let clock: FixedClock;
  let tokens: MemoryOAuthTokenRepository;
  let revoked: number;
  let listener: RevocationListener;
  let issuer: TokenIssuer;

  beforeEach(() => {
    clock = new FixedClock(new Date('2026-03-01T00:00:00.000Z'));
    tokens = new MemoryOAuthTokenRepository();
    revoked = 0;
    listener = { tokensRevoked: () => void revoked++ };
    issuer = new TokenIssuer({ tokens, secrets, hasher, ids, clock, lifetimes: { accessSeconds: 3600, refreshSeconds: 86400 } });
  });

  describe('personal access tokens', () => {
    const principal: Principal = {
      userId: 'u1',
      scopes: ['tokens:write', 'links:read'],
      via: 'pat',
      tokenId: 'p0',
      clientId: null,
      grantExpiresAt: null,
      authTime: null,
    };

    it('cannot revoke the PAT that authenticates the request', async () => {
      const revoke = new RevokePersonalAccessTokenUseCase(new MemoryPersonalAccessTokenRepository(), listener);
      await expect(revoke.execute({ ...principal, tokenId: 'p0' }, 'p0')).rejects.toMatchObject({ errors: [{ name: 'id' }] });
      await expect(revoke.execute(principal, 'other')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('authentication', () => {
    // The cache in front (and its forgetting on revocation) is the identity cache adapter's, tested there.
    it('accepts an access token until it expires or is revoked, never its refresh token', async () => {
      const pats = new MemoryPersonalAccessTokenRepository();
      const authenticate = new AuthenticateUseCase(new RepositoryBearerPrincipals(tokens, pats), pats, hasher, clock);
      const issued = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      expect(await authenticate.execute(issued.accessToken)).toMatchObject({ userId: 'u1', scopes: ['user:read'], via: 'oauth' });
      await tokens.revoke(issued.token.props.id, clock.now());
      await expect(authenticate.execute(issued.accessToken)).rejects.toBeInstanceOf(UnauthorizedError);
      const second = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      clock.advance(3_600_000);
      await expect(authenticate.execute(second.accessToken)).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(authenticate.execute(second.refreshToken)).rejects.toBeInstanceOf(UnauthorizedError);
    });
  });

  describe('refresh rotation', () => {
    it('rotates, and a replayed refresh token revokes the whole family', async () => {
      const refresh = new RefreshGrantUseCase({
        clients: new ClientAuthenticator(clients, hasher),
        tokens,
        users,
        hasher,
        issuer,
        revocations: listener,
        clock,
      });
      const first = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      const second = await refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: first.refreshToken });
      expect(second.tokens.token.props.familyId).toBe(first.token.props.familyId);
      await expect(refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: first.refreshToken })).rejects.toMatchObject({
        error: 'invalid_grant',
      });
      expect(revoked).toBe(1);
      expect(tokens.rows.every((t) => t.props.revokedAt)).toBe(true);
      await expect(
        refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: second.tokens.refreshToken }),
      ).rejects.toBeInstanceOf(OAuthError);
    });
  });

  describe('authorization codes', () => {
    const pkce: PkceVerifier = { matches: (v, c) => c === `c:${v}` };
    let codes: MemoryAuthorizationCodeRepository;
    let grant: AuthorizationCodeGrantUseCase;
    const verifier = 'v'.repeat(43);

    beforeEach(async () => {
      codes = new MemoryAuthorizationCodeRepository();
      grant = new AuthorizationCodeGrantUseCase({
        clients: new ClientAuthenticator(clients, hasher),
        codes,
        tokens,
        users,
        hasher,
        pkce,
        issuer,
        revocations: listener,
        clock,
      });
      await codes.insert(
        new AuthorizationCode({
          id: 'code1',
          codeHash: 'h:ac_one',
          clientId: 'c1',
          userId: 'u1',
          redirectUri: 'https://app.example.com/cb',
          scopes: ['user:read'],
          codeChallenge: `c:${verifier}`,
          codeChallengeMethod: 'S256',
          expiresAt: new Date(clock.now().getTime() + 60_000),
          consumedAt: null,
          createdAt: clock.now(),
        }),
      );
    });

    const exchange = (over: Record<string, string> = {}) =>
      grant.execute({
        clientId: 'cl_1',
        clientSecret: 'secret',
        code: 'ac_one',
        redirectUri: 'https://app.example.com/cb',
        codeVerifier: verifier,
        ...over,
      });

    it('is single-use: using it again revokes what it issued', async () => {
      const { tokens: issued } = await exchange();
      await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
      expect(tokens.rows.find((t) => t.props.id === issued.token.props.id)?.props.revokedAt).not.toBeNull();
      expect(revoked).toBe(1);
    });

    it('expires after 60 seconds', async () => {
      clock.advance(60_000);
      await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
    });

    it('checks the redirect URI and the PKCE verifier', async () => {
      await expect(exchange({ redirectUri: 'https://app.example.com/other' })).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(exchange({ codeVerifier: 'w'.repeat(43) })).rejects.toMatchObject({ error: 'invalid_grant' });
      await expect(exchange()).resolves.toBeDefined();
    });
  });

  describe('second factor', () => {
    it('takes a current TOTP code, or a backup code exactly once', async () => {
      const used = new Set<string>();
      const backupCodes: BackupCodeRepository = {
        replace: async () => undefined,
        deleteAll: async () => undefined,
        consume: async (_u, h) => (h === 'h:ABCDEFGHJKMNPQRS' && !used.has(h) ? (used.add(h), true) : false),
      };
      const totp: TotpService = {
        enrol: async () => ({ secret: '', otpauthUrl: '', qrCodeDataUri: '' }),
        verify: (secret, code) => (secret === 'SECRET' && code === '123456' ? 100 : null),
      };
      const box: SecretBox = { seal: (s) => `sealed:${s}`, open: (s) => (s.startsWith('sealed:') ? s.slice(7) : null) };
      let lastStep = 0;
      const states = {
        useStep: async (_u: string, step: number) => (step > lastStep ? ((lastStep = step), true) : false),
      } as unknown as TwoFactorStateRepository;
      const factor = new SecondFactor({ totp, box, backupCodes, hasher, clock, states });
      expect(await factor.verify(user, '123456')).toBe(true);
      expect(await factor.verify(user, '123456')).toBe(false); // the same code again: a replay
      expect(await factor.verify(user, '654321')).toBe(false);
      expect(await factor.verify(user, 'abcd-efgh-jkmn-pqrs')).toBe(true);
      expect(await factor.verify(user, 'ABCD-EFGH-JKMN-PQRS')).toBe(false);
      expect(await factor.verify(user, undefined)).toBe(false);
    });
  });
  describe('the token endpoint', () => {
    const limitsOfAda: AccountLimits = { domains: { used: 0, limit: 1 }, links: { used: 2, limit: 100 }, tags: { used: 0, limit: 10 } };
    let limitReads: string[];
    let passwordChecks: number;
    let codes: MemoryAuthorizationCodeRepository;
    let grantTokens: GrantTokensUseCase;

    beforeEach(() => {
      limitReads = [];
      passwordChecks = 0;
      codes = new MemoryAuthorizationCodeRepository();
      const limits: AccountLimitsReader = { limitsOf: async (userId) => (limitReads.push(userId), limitsOfAda) };
      // The password and its throttle are CredentialsChecker's own tests; here it signs Ada in.
      const credentials = { check: async () => (passwordChecks++, user) } as unknown as CredentialsChecker;
      const clientAuth = new ClientAuthenticator(clients, hasher);
      grantTokens = new GrantTokensUseCase(
        new PasswordGrantUseCase(clientAuth, credentials, issuer),
        new RefreshGrantUseCase({ clients: clientAuth, tokens, users, hasher, issuer, revocations: listener, clock }),
        new AuthorizationCodeGrantUseCase({
          clients: clientAuth,
          codes,
          tokens,
          users,
          hasher,
          pkce: { matches: () => true },
          issuer,
          revocations: listener,
          clock,
        }),
        limits,
      );
    });

    // Spec 2.6: a password sign-in answers the user and the account limits, read through identity's own port.
    it('answers a password sign-in with the user and the account limits, and reads no limits for a tokens-only answer', async () => {
      const signIn = await grantTokens.execute({
        grantType: 'password',
        clientId: 'cl_1',
        clientSecret: 'secret',
        username: 'ada@example.com',
        password: 'pw',
        ip: '192.0.2.1',
      });
      expect(signIn).toMatchObject({ grantType: 'password', user: { id: 'u1' }, limits: limitsOfAda });
      expect(signIn.tokens.accessToken).toBeTruthy();
      expect(limitReads).toEqual(['u1']);
      const plain = await grantTokens.execute({
        grantType: 'password',
        clientId: 'cl_1',
        clientSecret: 'secret',
        username: 'ada@example.com',
        password: 'pw',
        ip: '192.0.2.1',
        tokensOnly: true,
      });
      expect(plain.limits).toBeUndefined();
      expect(limitReads).toEqual(['u1']);
    });

    // Defends against anyone who knows a confidential client's id (it is no secret) signing people in as that client (RFC 6749 4.3.2).
    it(
      'makes a client with a secret authenticate on the password grant, before any ' +
        'password is checked, while a public client signs in with its id',
      async () => {
        const ada = { grantType: 'password', username: 'ada@example.com', password: 'pw', ip: '192.0.2.1' };
        await expect(grantTokens.execute({ ...ada, clientId: 'cl_1' })).rejects.toMatchObject({ error: 'invalid_client' });
        await expect(grantTokens.execute({ ...ada, clientId: 'cl_1', clientSecret: 'wrong' })).rejects.toMatchObject({
          error: 'invalid_client',
        });
        expect(passwordChecks).toBe(0);
        expect(tokens.rows).toEqual([]);
        expect((await grantTokens.execute({ ...ada, clientId: 'cl_public' })).tokens.token.props.clientId).toBe('c2');
      },
    );

    // The controller presents the grant's user: no second read of the account outside the use case.
    it('answers a refresh and a code exchange with the account the tokens are for, without limits', async () => {
      const first = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      const refreshed = await grantTokens.execute({
        grantType: 'refresh_token',
        clientId: 'cl_1',
        clientSecret: 'secret',
        refreshToken: first.refreshToken,
        ip: '192.0.2.1',
      });
      expect(refreshed).toMatchObject({ grantType: 'refresh_token', user: { id: 'u1' } });
      expect(refreshed.limits).toBeUndefined();
      await codes.insert(
        new AuthorizationCode({
          id: 'code1',
          codeHash: 'h:ac_one',
          clientId: 'c1',
          userId: 'u1',
          redirectUri: 'https://app.example.com/cb',
          scopes: ['user:read'],
          codeChallenge: null,
          codeChallengeMethod: null,
          expiresAt: new Date(clock.now().getTime() + 60_000),
          consumedAt: null,
          createdAt: clock.now(),
        }),
      );
      const exchanged = await grantTokens.execute({
        grantType: 'authorization_code',
        clientId: 'cl_1',
        clientSecret: 'secret',
        code: 'ac_one',
        redirectUri: 'https://app.example.com/cb',
        ip: '192.0.2.1',
      });
      expect(exchanged).toMatchObject({ grantType: 'authorization_code', user: { id: 'u1' } });
      expect(limitReads).toEqual([]);
    });

    it('refuses an unknown grant type with unsupported_grant_type and issues nothing', async () => {
      await expect(
        grantTokens.execute({ grantType: 'client_credentials', clientId: 'cl_1', clientSecret: 'secret', ip: '192.0.2.1' }),
      ).rejects.toMatchObject({ error: 'unsupported_grant_type' });
      expect(tokens.rows).toEqual([]);
    });
  });

  describe('the answer on the authorization page', () => {
    const request = { responseType: 'code', clientId: 'cl_1', redirectUri: 'https://app.example.com/cb', state: 's1' };
    let lookups: number;
    let signIn: () => Promise<User>;
    let decide: DecideAuthorizationUseCase;

    beforeEach(() => {
      lookups = 0;
      signIn = async () => user;
      const counted = { findByClientId: async (id: string) => (lookups++, clients.findByClientId(id)) } as unknown as OAuthClientRepository;
      const credentials = { check: () => signIn() } as unknown as CredentialsChecker;
      decide = new DecideAuthorizationUseCase({
        validate: new ValidateAuthorizationRequestUseCase(new ClientAuthenticator(counted, hasher)),
        credentials,
        codes: new MemoryAuthorizationCodeRepository(),
        secrets,
        hasher,
        ids,
        clock,
        issuer: 'https://lnk.example',
      });
    });

    // The request is checked once per answer, and a refused sign-in carries the checked request for the page.
    it('checks the request once and redirects with a code', async () => {
      const outcome = await decide.execute({ request, decision: 'approve', email: 'ada@example.com', password: 'pw', ip: '192.0.2.1' });
      expect(outcome.kind).toBe('redirect');
      expect(outcome.kind === 'redirect' && new URL(outcome.redirectUrl).searchParams.get('state')).toBe('s1');
      expect(lookups).toBe(1);
    });

    it('answers a request that fails its checks as invalid, with no redirect', async () => {
      const outcome = await decide.execute({
        request: { ...request, redirectUri: 'https://evil.example/cb' },
        decision: 'deny',
        ip: '192.0.2.1',
      });
      expect(outcome).toMatchObject({ kind: 'invalid_request', error: { error: 'invalid_request' } });
    });

    it('answers a refused sign-in with the checked request, and lets other failures through', async () => {
      signIn = async () => {
        throw new OAuthError('invalid_grant', 'Invalid e-mail or password');
      };
      const outcome = await decide.execute({ request, decision: 'approve', email: 'ada@example.com', password: 'wrong', ip: '192.0.2.1' });
      expect(outcome).toMatchObject({
        kind: 'sign_in_refused',
        request: { redirectUri: 'https://app.example.com/cb', client: { id: 'c1' } },
        error: { error: 'invalid_grant' },
      });
      expect(lookups).toBe(1);
      signIn = async () => {
        throw new Error('database unreachable');
      };
      await expect(
        decide.execute({ request, decision: 'approve', email: 'ada@example.com', password: 'pw', ip: '192.0.2.1' }),
      ).rejects.toThrow('database unreachable');
    });
  });

  describe('account deletion', () => {
    /** A transaction: what the work wrote is kept only if it returns; a throw restores the rows as they were. */
    class Transaction extends UnitOfWork {
      constructor(private readonly stores: { rows: Set<string> }[]) {
        super();
      }
      async run<T>(work: () => Promise<T>): Promise<T> {
        const before = this.stores.map((s) => new Set(s.rows));
        try {
          return await work();
        } catch (error) {
          this.stores.forEach((s, i) => (s.rows = before[i]));
          throw error;
        }
      }
    }
    const accounts = { rows: new Set<string>() };
    const links = { rows: new Set<string>() };
    let events: string[];
    let deleteAccount: DeleteAccountUseCase;
    let deletesUser: boolean;

    beforeEach(() => {
      accounts.rows = new Set(['u1']);
      links.rows = new Set(['u1']);
      events = [];
      deletesUser = true;
      const accountRows: UserRepository = {
        findById: users.findById,
        findByEmail: users.findByEmail,
        insert: users.insert,
        update: users.update,
        delete: async (id) => deletesUser && accounts.rows.delete(id),
      };
      const eraser: AccountDataEraser = {
        eraseAccountData: async (userId): Promise<AfterAccountDeleted[]> => {
          links.rows.delete(userId);
          // Like billing's cancellation at the provider: it must see the deletion committed.
          return [async () => void events.push(`cancelled at provider; account ${accounts.rows.has(userId) ? 'still there' : 'gone'}`)];
        },
      };
      const fresh = { confirm: async () => undefined } as unknown as Reauthentication;
      deleteAccount = new DeleteAccountUseCase({
        users: accountRows,
        eraser,
        unitOfWork: new Transaction([accounts, links]),
        revocations: listener,
        clock,
        reauthentication: fresh,
      });
    });
    const principal: Principal = {
      userId: 'u1',
      scopes: ['user:write'],
      via: 'oauth',
      tokenId: 't1',
      clientId: 'c1',
      grantExpiresAt: null,
      authTime: null,
    };

    // What must not happen for an account that still exists (a paid plan cancelled) runs only once the deletion committed.
    it("runs the erasers' follow-ups after the commit", async () => {
      await deleteAccount.execute(principal, { ip: '192.0.2.1' });
      expect(events).toEqual(['cancelled at provider; account gone']);
      expect([accounts.rows.size, links.rows.size]).toEqual([0, 0]);
      expect(revoked).toBe(1);
    });

    it('runs no follow-up when the deletion rolls back', async () => {
      deletesUser = false;
      await expect(deleteAccount.execute(principal, { ip: '192.0.2.1' })).rejects.toBeInstanceOf(NotFoundError);
      expect(events).toEqual([]);
      expect([...accounts.rows, ...links.rows]).toEqual(['u1', 'u1']);
    });
  });
});
