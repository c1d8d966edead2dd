import { AcceptedToken, BearerPrincipals, RevocationListener } from '@lnk/identity/domain';
import { LookupCache } from '@lnk/shared/cache';
import { Clock } from '@lnk/shared/kernel';

export interface BearerCacheOptions {
  maxEntries: number;
  ttlMs: number;
}

/**
 * Accepted bearer tokens kept in process, by the token's hash: a token is looked up once, then answered
 * from here for the cache's time, never past the token's own expiry. Any revocation empties it at once
 * (`tokensRevoked`: the apps wire it to the revocation events, on every instance), and a lookup that a
 * revocation overtook (it read the token before the revocation committed) answers its request but is not
 * kept. Refusals are not kept: a token just issued is accepted at once.
 */
export class CachedBearerPrincipals extends BearerPrincipals implements RevocationListener {
  private readonly tokens: LookupCache<string, AcceptedToken>;

  constructor(
    private readonly inner: BearerPrincipals,
    private readonly clock: Clock,
    options: BearerCacheOptions = { maxEntries: 10_000, ttlMs: 10_000 },
  ) {
    super();
    this.tokens = new LookupCache({ found: { maxEntries: options.maxEntries, ttlMs: options.ttlMs, now: () => clock.now().getTime() } });
  }

  async accepted(hash: string, kind: 'access_token' | 'personal_access_token', now: Date): Promise<AcceptedToken | null> {
    return this.tokens.get(
      hash,
      () => this.inner.accepted(hash, kind, now),
      (token) => this.lifeLeft(token),
    );
  }

  tokensRevoked(): void {
    this.tokens.clear();
  }

  /** The token is no answer from its expiry on (an entry is one through its last millisecond). */
  private lifeLeft({ expiresAt }: AcceptedToken): number {
    return expiresAt === null ? Infinity : expiresAt.getTime() - this.clock.now().getTime() - 1;
  }
}
