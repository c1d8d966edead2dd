import { clockReading } from '@lnk/shared/testing';
import { MemoryAuthorizationCodeRepository, MemoryOAuthTokenRepository, MemoryPersonalAccessTokenRepository } from '@lnk/identity/testing';
import { Clock, NotFoundError, Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import { OAuthClient, OAuthClientProps } from './model/oauth-client.entity';
import { AuthorizationCode, Principal } from './model/tokens';
import { OAuthClientRepository } from './ports/oauth-client.repository';
import { PkceVerifier } from './ports/pkce-verifier';
import { SecretGenerator } from './ports/secret-generator';
import { SecretHasher } from './ports/secret-hasher';
import { UserRepository } from './ports/user.repository';
import { AuthorizationCodeGrantUseCase } from './use-cases/authorization-code-grant.use-case';
import { ValidateAuthorizationRequestUseCase } from './use-cases/validate-authorization-request.use-case';
import { ClientAuthenticator } from './services/client-authenticator';
import { CreateOAuthClientUseCase } from './use-cases/create-oauth-client.use-case';
import { DeleteOAuthClientUseCase } from './use-cases/delete-oauth-client.use-case';
import { GetOAuthClientUseCase } from './use-cases/get-oauth-client.use-case';
import { ListOAuthClientsUseCase } from './use-cases/list-oauth-clients.use-case';
import { RegenerateClientSecretUseCase } from './use-cases/regenerate-client-secret.use-case';
import { UpdateOAuthClientUseCase } from './use-cases/update-oauth-client.use-case';
import { RefreshGrantUseCase } from './use-cases/refresh-grant.use-case';
import { IntrospectTokenUseCase } from './use-cases/introspect-token.use-case';
import { RevokeTokenUseCase } from './use-cases/revoke-token.use-case';
import { TokenIssuer } from './services/token-issuer';
import { mintPat } from './services/personal-access-token-mint';
import { accountSeenWith } from './model/profile';
import { User } from './model/user.entity';

// Small in-memory fakes that copy on read and write, honouring the ports' contracts.
const now = new Date('2026-03-01T00:00:00.000Z');
const clock: Clock = clockReading(() => new Date(now));
let n = 0;
const ids = { next: () => (++n).toString(16).padStart(24, '0') };
const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };
const secrets: SecretGenerator = { generate: () => `r${++n}` };
const copy = (c: OAuthClient) => new OAuthClient(c.toProps());

class Clients extends OAuthClientRepository {
  rows: OAuthClient[] = [];
  async insert(c: OAuthClient) {
    this.rows.push(copy(c));
  }
  async findByClientId(clientId: string) {
    const c = this.rows.find((x) => x.clientId === clientId);
    return c ? copy(c) : null;
  }
  async findById(id: string) {
    const c = this.rows.find((x) => x.id === id);
    return c ? copy(c) : null;
  }
  async findOfOwner(ownerId: string, id: string) {
    const c = this.rows.find((x) => x.id === id && x.ownerId === ownerId && !x.isFirstParty);
    return c ? copy(c) : null;
  }
  async listOfOwner(ownerId: string, _q: string | undefined, page: PageRequest): Promise<Page<OAuthClient>> {
    const mine = this.rows.filter((x) => x.ownerId === ownerId && !x.isFirstParty).map(copy);
    return pageOf(mine, mine.length, page);
  }
  async update(c: OAuthClient) {
    this.rows = this.rows.map((x) => (x.id === c.id ? copy(c) : x));
    return true;
  }
  async deleteOfOwner(ownerId: string, id: string) {
    const before = this.rows.length;
    this.rows = this.rows.filter((x) => !(x.id === id && x.ownerId === ownerId && !x.isFirstParty));
    return this.rows.length < before;
  }
}

// Only what these use cases read of an account.
const users = {
  findById: async (id: string) => (id === 'u1' || id === 'u2' ? { id, email: `${id}@example.com`, isActive: true } : null),
} as unknown as UserRepository;

function client(over: Partial<OAuthClientProps>): OAuthClient {
  return new OAuthClient({
    id: ids.next(),
    clientId: `cl_${ids.next()}`,
    secretHash: 'h:secret',
    ownerId: null,
    requestedBy: null,
    name: 'App',
    description: '',
    scopes: ['user:read', 'tokens:write'],
    redirectUris: ['https://app.example.com/cb'],
    isFirstParty: true,
    isActive: true,
    createdAt: now,
    updatedAt: now,
    ...over,
  });
}

// Only the fields these use cases read; other fields of Principal are left out on purpose.
function principal(over: Partial<Principal>): Principal {
  return {
    userId: 'u1',
    scopes: ['tokens:write', 'user:read'],
    via: 'pat',
    tokenId: 'p0',
    clientId: null,
    grantExpiresAt: null,
    ...over,
  } as Principal;
}

describe('first-party clients belong to the service', () => {
  // Defends against the account the operator made a client for deactivating it (every user's tokens
  // revoked), deleting it, or adding redirect URIs to it through the user API.
  it('are made without an owner, recording who asked, and no account can find, change or delete them', async () => {
    const clients = new Clients();
    const create = new CreateOAuthClientUseCase({ clients, users, secrets, hasher, ids, clock });
    const { client: made, clientSecret } = await create.execute({ name: 'Web', isFirstParty: true, requestedBy: 'u1' });
    expect(made.toProps()).toMatchObject({ ownerId: null, requestedBy: 'u1', isFirstParty: true });
    expect(clientSecret).toEqual(expect.any(String));
    const asker = principal({});
    expect((await new ListOAuthClientsUseCase(clients).execute(asker, undefined, PageRequest.of(0, 10))).items).toEqual([]);
    await expect(new GetOAuthClientUseCase(clients).execute(asker, made.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(
      new UpdateOAuthClientUseCase(clients, new MemoryOAuthTokenRepository(), { tokensRevoked: () => undefined }, clock).execute(
        asker,
        made.id,
        { isActive: false, redirectUris: ['https://evil.example/cb'] },
      ),
    ).rejects.toBeInstanceOf(NotFoundError);
    await expect(new DeleteOAuthClientUseCase(clients, { tokensRevoked: () => undefined }).execute(asker, made.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    await expect(new RegenerateClientSecretUseCase(clients, secrets, hasher, clock).execute(asker, made.id)).rejects.toBeInstanceOf(
      NotFoundError,
    );
    expect((await clients.findById(made.id))?.toProps()).toEqual(made.toProps());
  });

  it('may be made by nobody in particular, and public ones have no secret', async () => {
    const create = new CreateOAuthClientUseCase({ clients: new Clients(), users, secrets, hasher, ids, clock });
    const { client: made, clientSecret } = await create.execute({ name: 'SPA', isFirstParty: true, isPublic: true });
    expect(clientSecret).toBeNull();
    expect(made.toProps()).toMatchObject({ ownerId: null, requestedBy: null, secretHash: null });
    expect(made.isConfidential).toBe(false);
  });

  it('sign in any account, while a user-made client signs in only its owner', () => {
    expect(client({}).maySignIn('u2')).toBe(true);
    const own = client({ isFirstParty: false, ownerId: 'u1' });
    expect(own.maySignIn('u1')).toBe(true);
    expect(own.maySignIn('u2')).toBe(false);
  });
});

describe('client authentication on refresh and code exchange', () => {
  let clients: Clients;
  let tokens: MemoryOAuthTokenRepository;
  let issuer: TokenIssuer;
  let confidential: OAuthClient;
  let publicClient: OAuthClient;

  beforeEach(async () => {
    clients = new Clients();
    tokens = new MemoryOAuthTokenRepository();
    issuer = new TokenIssuer({ tokens, secrets, hasher, ids, clock, lifetimes: { accessSeconds: 3600, refreshSeconds: 86400 } });
    confidential = client({});
    publicClient = client({ secretHash: null });
    await clients.insert(confidential);
    await clients.insert(publicClient);
  });

  // Defends against a leaked refresh token being enough to mint tokens for a client that has a secret.
  it('refuses a refresh without the secret of a confidential client, and takes it with the secret', async () => {
    const refresh = new RefreshGrantUseCase({
      clients: new ClientAuthenticator(clients, hasher),
      tokens,
      users,
      hasher,
      issuer,
      revocations: { tokensRevoked: () => undefined },
      clock,
    });
    const issued = await issuer.issue({ userId: 'u1', clientId: confidential.id, scopes: ['user:read'] });
    await expect(refresh.execute({ clientId: confidential.clientId, refreshToken: issued.refreshToken })).rejects.toMatchObject({
      error: 'invalid_client',
    });
    await expect(
      refresh.execute({ clientId: confidential.clientId, clientSecret: 'wrong', refreshToken: issued.refreshToken }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(
      refresh.execute({ clientId: confidential.clientId, clientSecret: 'secret', refreshToken: issued.refreshToken }),
    ).resolves.toBeDefined();
  });

  it('lets a public client refresh with its client_id alone, but refuses a secret it cannot have', async () => {
    const refresh = new RefreshGrantUseCase({
      clients: new ClientAuthenticator(clients, hasher),
      tokens,
      users,
      hasher,
      issuer,
      revocations: { tokensRevoked: () => undefined },
      clock,
    });
    const issued = await issuer.issue({ userId: 'u1', clientId: publicClient.id, scopes: ['user:read'] });
    await expect(
      refresh.execute({ clientId: publicClient.clientId, clientSecret: 'anything', refreshToken: issued.refreshToken }),
    ).rejects.toMatchObject({ error: 'invalid_client' });
    await expect(refresh.execute({ clientId: publicClient.clientId, refreshToken: issued.refreshToken })).resolves.toBeDefined();
  });

  describe('code exchange', () => {
    const pkce: PkceVerifier = { matches: (v, c) => c === `c:${v}` };
    const verifier = 'v'.repeat(43);
    let codes: MemoryAuthorizationCodeRepository;
    let grant: AuthorizationCodeGrantUseCase;

    const code = async (owner: OAuthClient, challenge: string | null) => {
      const value = `ac_${ids.next()}`;
      await codes.insert(
        new AuthorizationCode({
          id: ids.next(),
          codeHash: `h:${value}`,
          clientId: owner.id,
          userId: 'u1',
          redirectUri: 'https://app.example.com/cb',
          scopes: ['user:read'],
          codeChallenge: challenge,
          codeChallengeMethod: challenge ? 'S256' : null,
          expiresAt: new Date(now.getTime() + 60_000),
          consumedAt: null,
          createdAt: now,
        }),
      );
      return value;
    };

    beforeEach(() => {
      codes = new MemoryAuthorizationCodeRepository();
      grant = new AuthorizationCodeGrantUseCase({
        clients: new ClientAuthenticator(clients, hasher),
        codes,
        tokens,
        users,
        hasher,
        pkce,
        issuer,
        revocations: { tokensRevoked: () => undefined },
        clock,
      });
    });

    // Defends against a stolen code being redeemed by anyone who knows the public client_id.
    it('refuses an exchange without the secret of a confidential client, even with a valid verifier', async () => {
      const withPkce = await code(confidential, `c:${verifier}`);
      await expect(
        grant.execute({
          clientId: confidential.clientId,
          code: withPkce,
          redirectUri: 'https://app.example.com/cb',
          codeVerifier: verifier,
        }),
      ).rejects.toMatchObject({ error: 'invalid_client' });
      await expect(
        grant.execute({
          clientId: confidential.clientId,
          clientSecret: 'secret',
          code: withPkce,
          redirectUri: 'https://app.example.com/cb',
          codeVerifier: verifier,
        }),
      ).resolves.toBeDefined();
    });

    // Defends against a PKCE downgrade (RFC 9700 section 2.1.1): an attacker who injects a code obtained
    // without a challenge into a client that sends a verifier.
    it('refuses a code_verifier for a code issued without a challenge', async () => {
      const plain = await code(confidential, null);
      await expect(
        grant.execute({
          clientId: confidential.clientId,
          clientSecret: 'secret',
          code: plain,
          redirectUri: 'https://app.example.com/cb',
          codeVerifier: verifier,
        }),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      const other = await code(confidential, null);
      await expect(
        grant.execute({ clientId: confidential.clientId, clientSecret: 'secret', code: other, redirectUri: 'https://app.example.com/cb' }),
      ).resolves.toBeDefined();
    });

    it('requires PKCE of a public client, when asking for a code and when exchanging it', async () => {
      const validate = new ValidateAuthorizationRequestUseCase(new ClientAuthenticator(clients, hasher));
      await expect(
        validate.execute({ responseType: 'code', clientId: publicClient.clientId, redirectUri: 'https://app.example.com/cb' }),
      ).rejects.toMatchObject({ error: 'invalid_request' });
      const plain = await code(publicClient, null);
      await expect(
        grant.execute({ clientId: publicClient.clientId, code: plain, redirectUri: 'https://app.example.com/cb' }),
      ).rejects.toMatchObject({ error: 'invalid_grant' });
      const withPkce = await code(publicClient, `c:${verifier}`);
      await expect(
        grant.execute({
          clientId: publicClient.clientId,
          code: withPkce,
          redirectUri: 'https://app.example.com/cb',
          codeVerifier: verifier,
        }),
      ).resolves.toBeDefined();
    });
  });
});

describe('revocation and introspection', () => {
  let clients: Clients;
  let tokens: MemoryOAuthTokenRepository;
  let pats: MemoryPersonalAccessTokenRepository;
  let issuer: TokenIssuer;
  let introspect: IntrospectTokenUseCase;
  const mine = client({});
  const other = client({});

  beforeEach(async () => {
    clients = new Clients();
    tokens = new MemoryOAuthTokenRepository();
    pats = new MemoryPersonalAccessTokenRepository();
    await clients.insert(mine);
    await clients.insert(other);
    issuer = new TokenIssuer({ tokens, secrets, hasher, ids, clock, lifetimes: { accessSeconds: 3600, refreshSeconds: 86400 } });
    introspect = new IntrospectTokenUseCase({
      oauthTokens: tokens,
      pats,
      clients,
      clientAuth: new ClientAuthenticator(clients, hasher),
      users,
      hasher,
      clock,
    });
  });

  const makePat = async () =>
    (await mintPat({ pats, secrets, hasher, ids, maxActive: 10 }, 'u1', { name: 'x', description: '', scopes: ['user:read'] }, null, now))
      .value;
  const asMine = { clientId: mine.clientId, clientSecret: 'secret' };

  // Defends against /oauth/revoke bypassing the rule that a PAT cannot revoke itself.
  it('leaves a PAT alone when it is sent to the OAuth revocation endpoint', async () => {
    const value = await makePat();
    await new RevokeTokenUseCase(tokens, hasher, { tokensRevoked: () => undefined }, clock).execute(value);
    expect(pats.rows).toHaveLength(1);
    expect(await introspect.execute(value)).toEqual({ active: true });
  });

  // Defends against one client's resource server learning about another client's tokens (RFC 7662 2.2),
  // and anyone holding a token value learning whose account it is and what it may do.
  it('details a token only to the client it was issued to; anyone else learns at most whether it is active', async () => {
    const issued = await issuer.issue({ userId: 'u1', clientId: mine.id, scopes: ['user:read'] });
    const pat = await makePat();
    expect(await introspect.execute(issued.accessToken, asMine)).toEqual({
      active: true,
      token_type: 'access_token',
      scope: 'user:read',
      client_id: mine.clientId,
      username: 'u1@example.com',
      sub: 'u1',
      exp: expect.any(Number),
      iat: expect.any(Number),
    });
    expect(await introspect.execute(issued.refreshToken, asMine)).toMatchObject({ active: true, token_type: 'refresh_token' });
    expect(await introspect.execute(issued.accessToken)).toEqual({ active: true });
    expect(await introspect.execute(issued.accessToken, { clientId: mine.clientId })).toEqual({ active: true });
    expect(await introspect.execute(pat)).toEqual({ active: true });
    expect(await introspect.execute(issued.accessToken, { clientId: other.clientId, clientSecret: 'secret' })).toEqual({ active: false });
    expect(await introspect.execute(pat, asMine)).toEqual({ active: false });
    await expect(introspect.execute(issued.accessToken, { clientId: other.clientId, clientSecret: 'wrong' })).rejects.toMatchObject({
      error: 'invalid_client',
    });
    await tokens.revoke(issued.token.props.id, now);
    expect(await introspect.execute(issued.accessToken, asMine)).toEqual({ active: false });
    expect(await introspect.execute(issued.accessToken)).toEqual({ active: false });
  });

  // Defends against the account's e-mail reaching a client whose grant does not include user:read.
  it("gives the owning client the account's address as username only when the token carries user:read", async () => {
    const narrow = await issuer.issue({ userId: 'u1', clientId: mine.id, scopes: ['links:read'] });
    const answer = await introspect.execute(narrow.accessToken, asMine);
    expect(answer).toMatchObject({ active: true, scope: 'links:read', sub: 'u1' });
    expect(answer).not.toHaveProperty('username');
  });
});

describe('the account as a grant shows it (spec 2.6 user)', () => {
  const ada = new User({
    id: 'u1',
    email: 'ada@example.com',
    name: 'Ada Lovelace',
    passwordHash: null,
    isVerified: true,
    isActive: true,
    twoFactorSecret: null,
    createdAt: now,
    updatedAt: now,
  });

  // Defends against a links:read client learning the account's address and name by signing in or refreshing.
  it('carries the e-mail address and name only with user:read, the id always', () => {
    expect(accountSeenWith(ada, ['user:read', 'links:read'])).toEqual({ id: 'u1', email: 'ada@example.com', name: 'Ada Lovelace' });
    expect(accountSeenWith(ada, ['links:read', 'user:write'])).toEqual({ id: 'u1' });
  });
});
