import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { OAuthToken, OAuthTokenProps, PersonalAccessToken } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { RepositoryBearerPrincipals } from '../services/repository-bearer-principals';
import { AuthenticateUseCase } from './authenticate.use-case';

const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };

/** The PAT repository methods authentication uses, copying on read as the database does. */
class Pats {
  rows = new Map<string, PersonalAccessToken>();
  touches: string[] = [];
  failTouches = false;
  async findByHash(hash: string) {
    const row = this.rows.get(hash);
    return row ? new PersonalAccessToken({ ...row.props }) : null;
  }
  async touch(id: string) {
    if (this.failTouches) throw new Error('database away');
    this.touches.push(id);
  }
}

/** Access tokens by hash, as the OAuth token repository finds them. */
class AccessTokens {
  rows = new Map<string, OAuthToken>();
  async findByAccessHash(hash: string) {
    const row = this.rows.get(hash);
    return row ? new OAuthToken({ ...row.props }) : null;
  }
}

describe('AuthenticateUseCase (no cache: every request reads)', () => {
  let clock: FixedClock;
  let pats: Pats;
  let accessTokens: AccessTokens;
  let authenticate: AuthenticateUseCase;

  const addPat = (value: string, expiresInMs: number | null) => {
    const now = clock.now();
    const props = { id: `pat-${value}`, userId: 'u1', name: 'ci', description: '', scopes: ['links:read' as const], tokenHash: hasher.hash(value), lastUsedAt: null, createdAt: now, updatedAt: now };
    pats.rows.set(props.tokenHash, new PersonalAccessToken({ ...props, expiresAt: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs) }));
  };

  beforeEach(() => {
    clock = new FixedClock();
    pats = new Pats();
    accessTokens = new AccessTokens();
    const principals = new RepositoryBearerPrincipals(accessTokens as unknown as OAuthTokenRepository, pats);
    authenticate = new AuthenticateUseCase(principals, pats, hasher, clock);
  });

  // Anything that is not one of the two bearer kinds (a refresh token, junk, an oversized header) is refused before any lookup.
  it('refuses what is not an access token or a PAT without looking it up', async () => {
    const findByHash = jest.spyOn(pats, 'findByHash');
    for (const bearer of [undefined, '', 'junk', `tkn_${'x'.repeat(300)}`]) await expect(authenticate.execute(bearer)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(findByHash).not.toHaveBeenCalled();
  });

  // An expired or unknown token authenticates nobody, whatever its owner.
  it('accepts a PAT while it lives and refuses it from its expiry on', async () => {
    addPat('tkn_short', 30_000);
    expect(await authenticate.execute('tkn_short')).toMatchObject({ userId: 'u1', via: 'pat', tokenId: 'pat-tkn_short', clientId: null });
    clock.advance(30_000);
    await expect(authenticate.execute('tkn_short')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(authenticate.execute('tkn_unknown')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // A revoked access token must stop working: the lookup checks it is still active.
  it('accepts an active access token and refuses a revoked one', async () => {
    const now = clock.now();
    const props: OAuthTokenProps = { id: 'at1', familyId: 'f1', userId: 'u2', clientId: 'c1', scopes: ['user:read'], accessHash: hasher.hash('at_ok'), refreshHash: 'r', accessExpiresAt: new Date(now.getTime() + 60_000), refreshExpiresAt: new Date(now.getTime() + 3_600_000), authorizationCodeId: null, authTime: now, rotatedAt: null, revokedAt: null, createdAt: now };
    accessTokens.rows.set(props.accessHash, new OAuthToken(props));
    expect(await authenticate.execute('at_ok')).toMatchObject({ userId: 'u2', via: 'oauth', tokenId: 'at1', clientId: 'c1', authTime: now });
    accessTokens.rows.set(props.accessHash, new OAuthToken({ ...props, revokedAt: now }));
    await expect(authenticate.execute('at_ok')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(pats.touches).toEqual([]);
  });

  // lastUsedAt is a record of use, not a check: a failed write must not refuse the request.
  it("records a PAT's use, and answers though the write fails", async () => {
    addPat('tkn_busy', null);
    await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy']);
    pats.failTouches = true;
    expect(await authenticate.execute('tkn_busy')).toMatchObject({ userId: 'u1' });
  });
});
