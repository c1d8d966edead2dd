import {
  AuthenticateUseCase,
  OAuthTokenRepository,
  PersonalAccessToken,
  RepositoryBearerPrincipals,
  SecretHasher,
} from '@lnk/identity/domain';
import { UnauthorizedError } from '@lnk/shared/kernel';
import { FixedClock } from '@lnk/shared/testing';
import { CachedBearerPrincipals } from './cached-bearer-principals';
import { ThrottledPatUses } from './throttled-pat-uses';

const hasher: SecretHasher = { hash: (s) => `h:${s}`, matches: (s, h) => h === `h:${s}` };

/** The PAT repository methods authentication uses, copying on read as the database does. */
class Pats {
  rows = new Map<string, PersonalAccessToken>();
  touches: string[] = [];
  reads = 0;
  failTouches = false;
  async findByHash(hash: string) {
    this.reads++;
    const row = this.rows.get(hash);
    return row ? new PersonalAccessToken({ ...row.props }) : null;
  }
  async touch(id: string) {
    if (this.failTouches) throw new Error('database away');
    this.touches.push(id);
  }
}

/** Authentication as the apps compose it: the use case over the cached lookup and the throttled PAT writes. */
describe('CachedBearerPrincipals and ThrottledPatUses under AuthenticateUseCase', () => {
  let clock: FixedClock;
  let pats: Pats;
  let cache: CachedBearerPrincipals;
  let authenticate: AuthenticateUseCase;

  const addPat = (value: string, expiresInMs: number | null) => {
    const now = clock.now();
    const props = {
      id: `pat-${value}`,
      userId: 'u1',
      name: 'ci',
      description: '',
      scopes: ['links:read' as const],
      tokenHash: hasher.hash(value),
      lastUsedAt: null,
      createdAt: now,
      updatedAt: now,
    };
    pats.rows.set(
      props.tokenHash,
      new PersonalAccessToken({ ...props, expiresAt: expiresInMs === null ? null : new Date(now.getTime() + expiresInMs) }),
    );
  };

  beforeEach(() => {
    clock = new FixedClock();
    pats = new Pats();
    cache = new CachedBearerPrincipals(new RepositoryBearerPrincipals({} as OAuthTokenRepository, pats), clock, {
      maxEntries: 10,
      ttlMs: 60_000,
    });
    authenticate = new AuthenticateUseCase(cache, new ThrottledPatUses(pats, { clock, intervalMs: 10_000, maxEntries: 10 }), hasher, clock);
  });

  it('reads a token once, then answers from the cache', async () => {
    addPat('tkn_a', null);
    for (let i = 0; i < 3; i++) expect(await authenticate.execute('tkn_a')).toMatchObject({ userId: 'u1', via: 'pat' });
    expect(pats.reads).toBe(1);
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

  // A revoked token must be refused at once on this instance, not after the cache's time.
  it('forgets every accepted token when told of a revocation', async () => {
    addPat('tkn_a', null);
    await authenticate.execute('tkn_a');
    pats.rows.clear();
    expect(await authenticate.execute('tkn_a')).toMatchObject({ userId: 'u1' });
    cache.tokensRevoked();
    await expect(authenticate.execute('tkn_a')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // A token issued a moment after a refusal (or a guess of one) must work at once: refusals are not kept.
  it('does not keep a refusal', async () => {
    await expect(authenticate.execute('tkn_late')).rejects.toBeInstanceOf(UnauthorizedError);
    addPat('tkn_late', null);
    expect(await authenticate.execute('tkn_late')).toMatchObject({ userId: 'u1' });
  });

  // lastUsedAt is a write: one per token per interval, however busy the token, cached or not.
  it("records a PAT's use at most once per interval", async () => {
    addPat('tkn_busy', null);
    for (let i = 0; i < 5; i++) await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy']);
    clock.advance(10_000);
    await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy']);
    clock.advance(1);
    await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy', 'pat-tkn_busy']);
  });

  // A write that failed is not counted as done: the next use writes again.
  it('tries the write again on the next use after it failed', async () => {
    addPat('tkn_busy', null);
    pats.failTouches = true;
    await authenticate.execute('tkn_busy');
    await new Promise((resolve) => setImmediate(resolve));
    pats.failTouches = false;
    await authenticate.execute('tkn_busy');
    expect(pats.touches).toEqual(['pat-tkn_busy']);
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
    cache.tokensRevoked(); // ...and announced while the lookup was under way
    release();
    expect(await racing).toMatchObject({ userId: 'u1' });
    pats.findByHash = findByHash;
    await expect(authenticate.execute('tkn_racing')).rejects.toBeInstanceOf(UnauthorizedError);
  });

  // Bounded: a flood of distinct valid tokens (or of their uses) cannot grow either cache past its max.
  it('holds at most maxEntries tokens, and remembers at most maxEntries writes', async () => {
    for (let i = 0; i < 50; i++) addPat(`tkn_${i}`, null);
    for (let i = 0; i < 50; i++) await authenticate.execute(`tkn_${i}`);
    expect(pats.touches).toHaveLength(50);
    const reads = pats.reads;
    await authenticate.execute('tkn_0');
    expect(pats.reads).toBe(reads + 1); // pushed out by the 49 after it
    expect(pats.touches).toHaveLength(51); // its write forgotten too: written again
    await authenticate.execute('tkn_49');
    expect(pats.reads).toBe(reads + 1);
    expect(pats.touches).toHaveLength(51);
  });
});
