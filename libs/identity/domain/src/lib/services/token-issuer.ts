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

/** What issuing OAuth tokens needs: where they are kept, their secrets and hashes, and their lifetimes. */
export interface TokenIssuing {
  tokens: OAuthTokenRepository;
  secrets: SecretGenerator;
  hasher: SecretHasher;
  ids: IdGenerator;
  clock: Clock;
  lifetimes: TokenLifetimes;
}

/** Makes an access and refresh token pair; only their SHA-256 hashes are stored. */
export class TokenIssuer {
  constructor(private readonly deps: TokenIssuing) {}

  /**
   * `signedIn`: the user has just proved who they are (password or identity provider), so the family's
   * sign-in time is now; a refresh passes on its family's `authTime` instead.
   */
  async issue(grant: {
    userId: string;
    clientId: string;
    scopes: Scope[];
    familyId?: string;
    authorizationCodeId?: string;
    signedIn?: boolean;
    authTime?: Date | null;
  }): Promise<IssuedTokens> {
    const now = this.deps.clock.now();
    const accessToken = TOKEN_PREFIX.access + this.deps.secrets.generate(TOKEN_BYTES);
    const refreshToken = TOKEN_PREFIX.refresh + this.deps.secrets.generate(TOKEN_BYTES);
    const id = this.deps.ids.next();
    const token = new OAuthToken({
      id,
      familyId: grant.familyId ?? id,
      userId: grant.userId,
      clientId: grant.clientId,
      scopes: grant.scopes,
      accessHash: this.deps.hasher.hash(accessToken),
      refreshHash: this.deps.hasher.hash(refreshToken),
      accessExpiresAt: new Date(now.getTime() + this.deps.lifetimes.accessSeconds * 1000),
      refreshExpiresAt: new Date(now.getTime() + this.deps.lifetimes.refreshSeconds * 1000),
      authorizationCodeId: grant.authorizationCodeId ?? null,
      authTime: grant.signedIn ? now : (grant.authTime ?? null),
      rotatedAt: null,
      revokedAt: null,
      createdAt: now,
    });
    await this.deps.tokens.insert(token);
    return { accessToken, refreshToken, expiresIn: this.deps.lifetimes.accessSeconds, scopes: grant.scopes, token };
  }
}
