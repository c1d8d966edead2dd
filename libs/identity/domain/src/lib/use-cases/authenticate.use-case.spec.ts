import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { MemoryPersonalAccessTokenRepository } from '@lnk/identity/testing';
import { OAuthToken, OAuthTokenProps, PersonalAccessToken } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { RepositoryBearerPrincipals } from '../services/repository-bearer-principals';
import { AuthenticateUseCase } from './authenticate.use-case';

const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };

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
  let pats: MemoryPersonalAccessTokenRepository;
  let accessTokens: AccessTokens;
  let authenticate: AuthenticateUseCase;

  /** A PAT of u1's, stored as the repository stores it. */
  const storePat = async (value: string, expiresInMs: number | null) => {
    const now = clock.now();
    const expiresAt = expiresInMs === null ? null : new Date(now.getTime() + expiresInMs);
    const token = new PersonalAccessToken({
      id: `pat-${value}`,
      userId: 'u1',
      name: 'ci',
      description: '',
      scopes: ['links:read'],
      tokenHash: hasher.hash(value),
      lastUsedAt: null,
      expiresAt,
      createdAt: now,
      updatedAt: now,
    });
    await pats.insertWithinLimit(token, { maxActive: 100, keptExpired: 100 }, now);
  };
  const touches = () => pats.rows.filter((t) => t.props.lastUsedAt !== null).map((t) => t.props.id);

  beforeEach(() => {
    clock = new FixedClock();
    pats = new MemoryPersonalAccessTokenRepository();
    accessTokens = new AccessTokens();
    authenticate = new AuthenticateUseCase(
      new RepositoryBearerPrincipals(accessTokens as unknown as OAuthTokenRepository, pats),
      pats,
      hasher,
      clock,
    );
  });

  // Anything that is not one of the two bearer kinds (a refresh token, junk, an oversized header) is refused before any lookup.
  it('refuses what is not an access token or a PAT without looking it up', async () => {
    const findByHash = jest.spyOn(pats, 'findByHash');
    for (const bearer of [undefined, '', 'junk', `tkn_${'x'.repeat(300)}`])
      await expect(authenticate.execute(bearer)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(findByHash).not.toHaveBeenCalled();
  });

  // An expired or unknown token authenticates nobody, whatever its owner.
  it('accepts a PAT while it lives and refuses it from its expiry on', async () => {
    await storePat('tkn_short', 30_000);
    expect(await authenticate.execute('tkn_short')).toMatchObject({ userId: 'u1', via: 'pat', tokenId: 'pat-tkn_short', clientId: null });
    clock.advance(30_000);
    await expect(authenticate.execute('tkn_short')).rejects.toBeInstanceOf(UnauthorizedError);
    await expect(authenticate.execute('tkn_unknown')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // A revoked access token must stop working: the lookup checks it is still active.
  it('accepts an active access token and refuses a revoked one', async () => {
    const now = clock.now();
    const props: OAuthTokenProps = {
      id: 'at1',
      familyId: 'f1',
      userId: 'u2',
      clientId: 'c1',
      scopes: ['user:read'],
      accessHash: hasher.hash('at_ok'),
      refreshHash: 'r',
      accessExpiresAt: new Date(now.getTime() + 60_000),
      refreshExpiresAt: new Date(now.getTime() + 3_600_000),
      authorizationCodeId: null,
      authTime: now,
      rotatedAt: null,
      revokedAt: null,
      createdAt: now,
    };
    accessTokens.rows.set(props.accessHash, new OAuthToken(props));
    expect(await authenticate.execute('at_ok')).toMatchObject({
      userId: 'u2',
      via: 'oauth',
      tokenId: 'at1',
      clientId: 'c1',
      authTime: now,
    });
    accessTokens.rows.set(props.accessHash, new OAuthToken({ ...props, revokedAt: now }));
    await expect(authenticate.execute('at_ok')).rejects.toBeInstanceOf(UnauthorizedError);
    expect(touches()).toEqual([]);
  });

  // lastUsedAt is a record of use, not a check: a failed write must not refuse the request.
  it("records a PAT's use, and answers though the write fails", async () => {
    await storePat('tkn_busy', null);
    await authenticate.execute('tkn_busy');
    expect(touches()).toEqual(['pat-tkn_busy']);
    jest.spyOn(pats, 'touch').mockRejectedValue(new Error('database away'));
    expect(await authenticate.execute('tkn_busy')).toMatchObject({ userId: 'u1' });
  });
});
