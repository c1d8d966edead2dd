import { Clock, IdGenerator } from '@lnk/shared/kernel';
import { Scope } from '../model/scope';
import { OAuthToken, TOKEN_BYTES, TOKEN_PREFIX } from '../model/tokens';
import { SecretGenerator } from '../ports/secret-generator';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';

export interface TokenLifetimes {
  accessSeconds: number;
  refreshSeconds: number;
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  scopes: Scope[];
  token: OAuthToken;
}

/** Makes an access and refresh token pair; only their SHA-256 hashes are stored. */
export class TokenIssuer {
  constructor(
    private readonly tokens: OAuthTokenRepository,
    private readonly secrets: SecretGenerator,
    private readonly hasher: SecretHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly lifetimes: TokenLifetimes,
  ) {}

  /**
   * `signedIn`: the user has just proved who they are (password or identity provider), so the family's
   * sign-in time is now; a refresh passes on its family's `authTime` instead.
   */
  async issue(grant: { userId: string; clientId: string; scopes: Scope[]; familyId?: string; authorizationCodeId?: string; signedIn?: boolean; authTime?: Date | null }): Promise<IssuedTokens> {
    const now = this.clock.now();
    const accessToken = TOKEN_PREFIX.access + this.secrets.generate(TOKEN_BYTES);
    const refreshToken = TOKEN_PREFIX.refresh + this.secrets.generate(TOKEN_BYTES);
    const id = this.ids.next();
    const token = new OAuthToken({
      id,
      familyId: grant.familyId ?? id,
      userId: grant.userId,
      clientId: grant.clientId,
      scopes: grant.scopes,
      accessHash: this.hasher.hash(accessToken),
      refreshHash: this.hasher.hash(refreshToken),
      accessExpiresAt: new Date(now.getTime() + this.lifetimes.accessSeconds * 1000),
      refreshExpiresAt: new Date(now.getTime() + this.lifetimes.refreshSeconds * 1000),
      authorizationCodeId: grant.authorizationCodeId ?? null,
      authTime: grant.signedIn ? now : (grant.authTime ?? null),
      rotatedAt: null,
      revokedAt: null,
      createdAt: now,
    });
    await this.tokens.insert(token);
    return { accessToken, refreshToken, expiresIn: this.lifetimes.accessSeconds, scopes: grant.scopes, token };
  }
}
