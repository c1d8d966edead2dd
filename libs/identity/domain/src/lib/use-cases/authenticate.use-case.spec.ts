import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { PersonalAccessToken } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { AuthenticateUseCase } from './authenticate.use-case';

const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };

/** The two PAT repository methods authentication uses, copying on read and write as the database does. */
class Pats {
  rows = new Map<string, PersonalAccessToken>();
  touches: string[] = [];
  async findByHash(hash: string) {
    const row = this.rows.get(hash);
    return row ? new PersonalAccessToken({ ...row.props }) : null;
  }
  async touch(id: string) {
    this.touches.push(id);
  }
}

describe('AuthenticateUseCase', () => {
  let clock: FixedClock;
  let pats: Pats;
  let authenticate: AuthenticateUseCase;

  const addPat = (value: string, expiresInMs: number | null) => {
    const now = clock.now();
    const props = { id: `pat-${value}`, userId: 'u1', name: 'ci', description: '', scopes: ['links:read' as const], tokenHash: hasher.hash(value), lastUsedAt: null, createdAt: now, updatedAt: now };
    pats.rows.set(props.tokenHash, new PersonalAccessToken({ ...props, expiresAt: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs) }));
  };

  beforeEach(() => {
    clock = new FixedClock();
    pats = new Pats();
    authenticate = new AuthenticateUseCase({} as OAuthTokenRepository, pats as unknown as PersonalAccessTokenRepository, hasher, clock, { cacheTtlMs: 60_000, cacheSize: 10, touchIntervalMs: 10_000 });
  });

  // A token must stop working when it expires, even though the cache would otherwise keep it a minute.
  it('serves a cached principal no longer than its token lives', async () => {
    addPat('tkn_short', 30_000);
    expect(await authenticate.execute('tkn_short')).toMatchObject({ userId: 'u1', via: 'pat' });
    pats.rows.clear(); // only the cache can answer now
    clock.advance(29_999);
    expect(await authenticate.execute('tkn_short')).toMatchObject({ userId: 'u1' });
    clock.advance(1);
    await expect(authenticate.execute('tkn_short')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // lastUsedAt is a write: one per token per interval, however busy the token, cached or not.
  it("records a PAT's use at most once per interval", async () => {
    addPat('tkn_busy', null);
    for (let i = 0; i < 5; i++) await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy']);
    clock.advance(10_000);
    await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy', 'pat-tkn_busy']);
  });

  // A lookup that read the token before its revocation committed must not be cached after the revocation
  // emptied the cache: the revoked token would be accepted until the cache's TTL.
  it('does not keep a lookup that a revocation overtook', async () => {
    addPat('tkn_racing', null);
    let release!: () => void;
    const findByHash = pats.findByHash.bind(pats);
    pats.findByHash = async (hash) => {
      const found = await findByHash(hash);
      await new Promise<void>((resolve) => (release = resolve));
      return found;
    };
    const racing = authenticate.execute('tkn_racing');
    await new Promise((resolve) => setImmediate(resolve));
    pats.rows.clear(); // revoked...
    authenticate.tokensRevoked(); // ...and announced while the lookup was under way
    release();
    expect(await racing).toMatchObject({ userId: 'u1' });
    pats.findByHash = findByHash;
    await expect(authenticate.execute('tkn_racing')).rejects.toBeInstanceOf(UnauthorizedError);
  });
});
