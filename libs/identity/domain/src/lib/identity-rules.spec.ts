import { Clock, NotFoundError, Page, PageRequest, pageOf, UnauthorizedError } from '@lnk/shared/kernel';
import { OAuthClient } from './model/oauth-client.entity';
import { OAuthError } from './model/oauth-error';
import { AuthorizationCode, OAuthToken, PersonalAccessToken, Principal } from './model/tokens';
import { User } from './model/user.entity';
import { BackupCodeRepository } from './ports/account.repositories';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { PkceVerifier } from './ports/pkce-verifier';
import { RevocationListener } from './ports/revocation-listener';
import { SecretBox } from './ports/secret-box';
import { SecretGenerator } from './ports/secret-generator';
import { SecretHasher } from './ports/secret-hasher';
import { AuthorizationCodeRepository, OAuthTokenRepository, PersonalAccessTokenRepository } from './ports/token.repositories';
import { TotpService, TwoFactorStateRepository } from './ports/two-factor';
import { UserRepository } from './ports/user.repository';
import { AuthenticateUseCase } from './use-cases/authenticate.use-case';
import { AuthorizationCodeGrantUseCase } from './use-cases/authorization-code.use-cases';
import { ClientAuthenticator } from './use-cases/client-authenticator';
import { CreatePersonalAccessTokenUseCase, RevokePersonalAccessTokenUseCase } from './use-cases/personal-access-tokens.use-cases';
import { RefreshGrantUseCase } from './use-cases/refresh-grant.use-case';
import { SecondFactor } from './use-cases/second-factor';
import { TokenIssuer } from './use-cases/token-issuer';

// Small in-memory fakes of the ports, honouring their contracts.
class MovableClock extends Clock {
  current = new Date('2026-03-01T00:00:00.000Z');
  now() {
    return new Date(this.current);
  }
  advance(seconds: number) {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
}
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const secrets: SecretGenerator = { generate: () => `r${++n}` };

class Tokens extends OAuthTokenRepository {
  rows: OAuthToken[] = [];
  async insert(t: OAuthToken) {
    this.rows.push(t);
  }
  async findByAccessHash(h: string) {
    return this.rows.find((t) => t.props.accessHash === h) ?? null;
  }
  async findByRefreshHash(h: string) {
    return this.rows.find((t) => t.props.refreshHash === h) ?? null;
  }
  private set(pred: (t: OAuthToken) => boolean, field: 'revokedAt' | 'rotatedAt', at: Date) {
    this.rows = this.rows.map((t) => (pred(t) && !t.props[field] ? new OAuthToken({ ...t.props, [field]: at }) : t));
  }
  async markRotated(id: string, at: Date) {
    const t = this.rows.find((x) => x.props.id === id);
    if (!t || t.props.rotatedAt || t.props.revokedAt) return false;
    this.set((x) => x.props.id === id, 'rotatedAt', at);
    return true;
  }
  async revoke(id: string, at: Date) {
    this.set((t) => t.props.id === id, 'revokedAt', at);
  }
  async revokeFamily(familyId: string, at: Date) {
    this.set((t) => t.props.familyId === familyId, 'revokedAt', at);
  }
  async revokeIssuedByCode(codeId: string, at: Date) {
    const families = new Set(this.rows.filter((t) => t.props.authorizationCodeId === codeId).map((t) => t.props.familyId));
    this.set((t) => families.has(t.props.familyId), 'revokedAt', at);
  }
  async revokeAllOfUser(userId: string, at: Date, except?: string) {
    this.set((t) => t.props.userId === userId && t.props.id !== except, 'revokedAt', at);
  }
  async revokeAllOfClient(clientId: string, at: Date) {
    this.set((t) => t.props.clientId === clientId, 'revokedAt', at);
  }
}

class Pats extends PersonalAccessTokenRepository {
  rows: PersonalAccessToken[] = [];
  async insert(t: PersonalAccessToken) {
    this.rows.push(t);
  }
  async findByHash(h: string) {
    return this.rows.find((t) => t.props.tokenHash === h) ?? null;
  }
  async findOfUser(userId: string, id: string) {
    return this.rows.find((t) => t.props.userId === userId && t.props.id === id) ?? null;
  }
  async listOfUser(userId: string, page: PageRequest): Promise<Page<PersonalAccessToken>> {
    const mine = this.rows.filter((t) => t.props.userId === userId);
    return pageOf(mine, mine.length, page);
  }
  async deleteOfUser(userId: string, id: string) {
    const before = this.rows.length;
    this.rows = this.rows.filter((t) => !(t.props.userId === userId && t.props.id === id));
    return this.rows.length < before;
  }
  async deleteAllOfUser(userId: string) {
    this.rows = this.rows.filter((t) => t.props.userId !== userId);
  }
  async touch() {
    // lastUsedAt is not under test here.
  }
}

class Codes extends AuthorizationCodeRepository {
  rows: AuthorizationCode[] = [];
  async insert(c: AuthorizationCode) {
    this.rows.push(c);
  }
  async findByHash(h: string) {
    return this.rows.find((c) => c.props.codeHash === h) ?? null;
  }
  async consume(id: string, at: Date) {
    const c = this.rows.find((x) => x.props.id === id);
    if (!c || c.props.consumedAt) return false;
    this.rows = this.rows.map((x) => (x === c ? new AuthorizationCode({ ...x.props, consumedAt: at }) : x));
    return true;
  }
}

const user = new User({ id: 'u1', email: 'ada@example.com', name: '', passwordHash: null, isVerified: true, isActive: true, twoFactorSecret: 'sealed:SECRET', createdAt: new Date(), updatedAt: new Date() });
const client = new OAuthClient({ id: 'c1', clientId: 'cl_1', secretHash: 'h:secret', ownerId: null, requestedBy: 'u1', name: 'App', description: '', scopes: ['user:read', 'links:read'], redirectUris: ['https://app.example.com/cb'], isFirstParty: true, isActive: true, createdAt: new Date(), updatedAt: new Date() });
const users: UserRepository = { findById: async (id) => (id === 'u1' ? user : null), findByEmail: async () => user, insert: async () => undefined, update: async () => undefined, delete: async () => true };
const clients = { findByClientId: async (id: string) => (id === 'cl_1' ? client : null) } as unknown as OAuthClientRepository;

describe('identity domain rules', () => {
  let clock: MovableClock;
  let tokens: Tokens;
  let revoked: number;
  let listener: RevocationListener;
  let issuer: TokenIssuer;

  beforeEach(() => {
    clock = new MovableClock();
    tokens = new Tokens();
    revoked = 0;
    listener = { tokensRevoked: () => void revoked++ };
    issuer = new TokenIssuer(tokens, secrets, hasher, ids, clock, { accessSeconds: 3600, refreshSeconds: 86400 });
  });

  describe('personal access tokens', () => {
    const principal: Principal = { userId: 'u1', scopes: ['tokens:write', 'links:read'], via: 'pat', tokenId: 'p0', clientId: null, grantExpiresAt: null, authTime: null };

    it('grants no scope beyond those of the token creating it', async () => {
      const create = new CreatePersonalAccessTokenUseCase(clients, new Pats(), secrets, hasher, ids, clock);
      await expect(create.execute(principal, { name: 'x', scopes: ['links:write'] })).rejects.toMatchObject({ errors: [{ name: 'scopes' }] });
      await expect(create.execute(principal, { name: 'x', scopes: ['nope'] })).rejects.toMatchObject({ errors: [{ name: 'scopes' }] });
      await expect(create.execute(principal, { name: 'x', scopes: [] })).rejects.toMatchObject({ errors: [{ name: 'scopes' }] });
      const { token, value } = await create.execute(principal, { name: 'x', scopes: ['links:read'] });
      expect(value.startsWith('tkn_')).toBe(true);
      expect(token.props.tokenHash).toBe(`h:${value}`);
    });

    it('refuses an expiry in the past, and expires when its time comes', async () => {
      const create = new CreatePersonalAccessTokenUseCase(clients, new Pats(), secrets, hasher, ids, clock);
      await expect(create.execute(principal, { name: 'x', scopes: ['links:read'], expiresAt: clock.now() })).rejects.toMatchObject({ errors: [{ name: 'expiresAt' }] });
      const { token } = await create.execute(principal, { name: 'x', scopes: ['links:read'], expiresAt: new Date(clock.now().getTime() + 1000) });
      expect(token.isExpired(clock.now())).toBe(false);
      clock.advance(1);
      expect(token.isExpired(clock.now())).toBe(true);
      expect(token.isActive(clock.now())).toBe(false);
    });

    it('cannot revoke the PAT that authenticates the request', async () => {
      const revoke = new RevokePersonalAccessTokenUseCase(new Pats(), listener);
      await expect(revoke.execute({ ...principal, tokenId: 'p0' }, 'p0')).rejects.toMatchObject({ errors: [{ name: 'id' }] });
      await expect(revoke.execute(principal, 'other')).rejects.toBeInstanceOf(NotFoundError);
    });
  });

  describe('authentication', () => {
    it('accepts an access token until it expires, caches it, and forgets it the moment tokens are revoked', async () => {
      const authenticate = new AuthenticateUseCase(tokens, new Pats(), hasher, clock, { cacheTtlMs: 60_000, cacheSize: 10, touchIntervalMs: 60_000 });
      const issued = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      expect(await authenticate.execute(issued.accessToken)).toMatchObject({ userId: 'u1', scopes: ['user:read'], via: 'oauth' });
      await tokens.revoke(issued.token.props.id, clock.now());
      expect((await authenticate.execute(issued.accessToken)).userId).toBe('u1'); // served from the cache
      authenticate.tokensRevoked();
      await expect(authenticate.execute(issued.accessToken)).rejects.toBeInstanceOf(UnauthorizedError);
      const second = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      clock.advance(3600);
      await expect(authenticate.execute(second.accessToken)).rejects.toBeInstanceOf(UnauthorizedError);
      await expect(authenticate.execute(second.refreshToken)).rejects.toBeInstanceOf(UnauthorizedError);
    });
  });

  describe('refresh rotation', () => {
    it('rotates, and a replayed refresh token revokes the whole family', async () => {
      const refresh = new RefreshGrantUseCase(new ClientAuthenticator(clients, hasher), tokens, users, hasher, issuer, listener, clock);
      const first = await issuer.issue({ userId: 'u1', clientId: 'c1', scopes: ['user:read'] });
      const second = await refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: first.refreshToken });
      expect(second.tokens.token.props.familyId).toBe(first.token.props.familyId);
      await expect(refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: first.refreshToken })).rejects.toMatchObject({ error: 'invalid_grant' });
      expect(revoked).toBe(1);
      expect(tokens.rows.every((t) => t.props.revokedAt)).toBe(true);
      await expect(refresh.execute({ clientId: 'cl_1', clientSecret: 'secret', refreshToken: second.tokens.refreshToken })).rejects.toBeInstanceOf(OAuthError);
    });
  });

  describe('authorization codes', () => {
    const pkce: PkceVerifier = { matches: (v, c) => c === `c:${v}` };
    let codes: Codes;
    let grant: AuthorizationCodeGrantUseCase;
    const verifier = 'v'.repeat(43);

    beforeEach(async () => {
      codes = new Codes();
      grant = new AuthorizationCodeGrantUseCase(new ClientAuthenticator(clients, hasher), codes, tokens, users, hasher, pkce, issuer, listener, clock);
      await codes.insert(new AuthorizationCode({ id: 'code1', codeHash: 'h:ac_one', clientId: 'c1', userId: 'u1', redirectUri: 'https://app.example.com/cb', scopes: ['user:read'], codeChallenge: `c:${verifier}`, codeChallengeMethod: 'S256', expiresAt: new Date(clock.now().getTime() + 60_000), consumedAt: null, createdAt: clock.now() }));
    });

    const exchange = (over: Record<string, string> = {}) => grant.execute({ clientId: 'cl_1', clientSecret: 'secret', code: 'ac_one', redirectUri: 'https://app.example.com/cb', codeVerifier: verifier, ...over });

    it('is single-use: using it again revokes what it issued', async () => {
      const { tokens: issued } = await exchange();
      await expect(exchange()).rejects.toMatchObject({ error: 'invalid_grant' });
      expect(tokens.rows.find((t) => t.props.id === issued.token.props.id)?.props.revokedAt).not.toBeNull();
      expect(revoked).toBe(1);
    });

    it('expires after 60 seconds', async () => {
      clock.advance(60);
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
      const totp: TotpService = { enrol: async () => ({ secret: '', otpauthUrl: '', qrCodeDataUri: '' }), verify: (secret, code) => (secret === 'SECRET' && code === '123456' ? 100 : null) };
      const box: SecretBox = { seal: (s) => `sealed:${s}`, open: (s) => (s.startsWith('sealed:') ? s.slice(7) : null) };
      let lastStep = 0;
      const states = { useStep: async (_u: string, step: number) => (step > lastStep ? ((lastStep = step), true) : false) } as unknown as TwoFactorStateRepository;
      const factor = new SecondFactor(totp, box, backupCodes, hasher, clock, states);
      expect(await factor.verify(user, '123456')).toBe(true);
      expect(await factor.verify(user, '123456')).toBe(false); // the same code again: a replay
      expect(await factor.verify(user, '654321')).toBe(false);
      expect(await factor.verify(user, 'abcd-efgh-jkmn-pqrs')).toBe(true);
      expect(await factor.verify(user, 'ABCD-EFGH-JKMN-PQRS')).toBe(false);
      expect(await factor.verify(user, undefined)).toBe(false);
    });
  });
});
