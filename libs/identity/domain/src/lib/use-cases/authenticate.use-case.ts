import { Clock, TtlLruCache, UnauthorizedError } from '@lnk/shared/kernel';
import { kindOf, Principal } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';

export interface AuthenticateOptions {
  cacheTtlMs: number;
  cacheSize: number;
  /** A PAT's lastUsedAt is written at most this often. */
  touchIntervalMs: number;
}

/**
 * Turns a bearer token (OAuth access token or PAT) into a principal: one indexed lookup by the token's
 * hash, then a short in-process cache, each principal kept no longer than its token lives. Any revocation
 * empties the cache at once: the apps wire `tokensRevoked` to the revocation events.
 */
export class AuthenticateUseCase {
  private readonly cache: TtlLruCache<string, Principal>;
  /** PATs whose use was recorded lately: one write per token per interval. */
  private readonly touched: TtlLruCache<string, true>;

  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    options: AuthenticateOptions = { cacheTtlMs: 10_000, cacheSize: 10_000, touchIntervalMs: 60_000 },
  ) {
    const now = () => clock.now().getTime();
    this.cache = new TtlLruCache({ maxEntries: options.cacheSize, ttlMs: options.cacheTtlMs }, now);
    this.touched = new TtlLruCache({ maxEntries: options.cacheSize, ttlMs: options.touchIntervalMs }, now);
  }

  tokensRevoked(): void {
    this.cache.clear();
  }

  async execute(bearer: string | undefined): Promise<Principal> {
    const kind = bearer ? kindOf(bearer) : null;
    if (!bearer || bearer.length > 256 || (kind !== 'access_token' && kind !== 'personal_access_token')) throw new UnauthorizedError();
    const hash = this.hasher.hash(bearer);
    const now = this.clock.now();
    const cached = this.cache.get(hash);
    if (cached) {
      if (cached.via === 'pat') this.touch(cached.tokenId, now);
      return cached;
    }

    // A token read before its revocation committed, and cached after the revocation emptied the cache,
    // would be accepted until the cache's TTL: such a lookup answers its request but is not kept.
    const evictions = this.cache.evictions;
    let principal: Principal;
    let expiresAt: Date | null;
    if (kind === 'access_token') {
      const token = await this.oauthTokens.findByAccessHash(hash);
      if (!token || !token.isAccessActive(now)) throw new UnauthorizedError('The access token is invalid, expired or revoked');
      principal = { userId: token.props.userId, scopes: token.props.scopes, via: 'oauth', tokenId: token.props.id, clientId: token.props.clientId, grantExpiresAt: token.props.refreshExpiresAt, authTime: token.props.authTime };
      expiresAt = token.props.accessExpiresAt;
    } else {
      const token = await this.pats.findByHash(hash);
      if (!token || !token.isActive(now)) throw new UnauthorizedError('The access token is invalid, expired or revoked');
      principal = { userId: token.props.userId, scopes: token.props.scopes, via: 'pat', tokenId: token.props.id, clientId: null, grantExpiresAt: token.props.expiresAt, authTime: null };
      expiresAt = token.props.expiresAt;
      this.touch(token.props.id, now);
    }
    this.cache.setIfNotEvicted(evictions, hash, principal, expiresAt ? expiresAt.getTime() - now.getTime() : Infinity);
    return principal;
  }

  /** Records a PAT's use without holding up the request, at most once per interval. */
  private touch(id: string, now: Date): void {
    if (this.touched.get(id)) return;
    this.touched.set(id, true);
    this.pats.touch(id, now).catch(() => this.touched.delete(id));
  }
}
