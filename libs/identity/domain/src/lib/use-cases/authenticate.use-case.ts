import { Clock, UnauthorizedError } from '@lnk/shared/kernel';
import { kindOf, Principal } from '../model/tokens';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { RevocationListener } from '../ports/revocation-listener';

interface CacheEntry {
  principal: Principal;
  /** Until when this entry may be served: the earlier of the cache TTL and the token's expiry. */
  until: number;
}

export interface AuthenticateOptions {
  cacheTtlMs: number;
  cacheSize: number;
  /** A PAT's lastUsedAt is written at most this often. */
  touchIntervalMs: number;
}

/**
 * Turns a bearer token (OAuth access token or PAT) into a principal: one indexed lookup by the token's
 * hash, then a short in-process cache. Any revocation empties the cache at once (`tokensRevoked`).
 */
export class AuthenticateUseCase extends RevocationListener {
  private readonly cache = new Map<string, CacheEntry>();
  private readonly touched = new Map<string, number>();

  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
    private readonly options: AuthenticateOptions = { cacheTtlMs: 10_000, cacheSize: 10_000, touchIntervalMs: 60_000 },
  ) {
    super();
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
    if (cached && cached.until > now.getTime()) {
      if (cached.principal.via === 'pat') this.touch(cached.principal.tokenId, now);
      return cached.principal;
    }
    this.cache.delete(hash);

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
    if (this.cache.size >= this.options.cacheSize) this.cache.delete(this.cache.keys().next().value as string);
    const until = Math.min(now.getTime() + this.options.cacheTtlMs, expiresAt ? expiresAt.getTime() : Infinity);
    this.cache.set(hash, { principal, until });
    return principal;
  }

  /** Records a PAT's use without holding up the request, at most once per interval. */
  private touch(id: string, now: Date): void {
    const last = this.touched.get(id) ?? 0;
    if (now.getTime() - last < this.options.touchIntervalMs) return;
    this.touched.set(id, now.getTime());
    if (this.touched.size > this.options.cacheSize) this.touched.clear();
    this.pats.touch(id, now).catch(() => this.touched.delete(id));
  }
}
