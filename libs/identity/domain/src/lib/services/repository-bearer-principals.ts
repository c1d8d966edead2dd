import { AcceptedToken, BearerPrincipals } from '../ports/bearer-principals';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';

/** Bearer tokens looked up by their hash: one indexed read of the access tokens or of the PATs. */
export class RepositoryBearerPrincipals extends BearerPrincipals {
  constructor(
    private readonly oauthTokens: Pick<OAuthTokenRepository, 'findByAccessHash'>,
    private readonly pats: Pick<PersonalAccessTokenRepository, 'findByHash'>,
  ) {
    super();
  }

  async accepted(hash: string, kind: 'access_token' | 'personal_access_token', now: Date): Promise<AcceptedToken | null> {
    if (kind === 'access_token') {
      const token = await this.oauthTokens.findByAccessHash(hash);
      if (!token || !token.isAccessActive(now)) return null;
      const { userId, scopes, id, clientId, refreshExpiresAt, authTime, accessExpiresAt } = token.props;
      return {
        principal: { userId, scopes, via: 'oauth', tokenId: id, clientId, grantExpiresAt: refreshExpiresAt, authTime },
        expiresAt: accessExpiresAt,
      };
    }
    const token = await this.pats.findByHash(hash);
    if (!token || !token.isActive(now)) return null;
    const { userId, scopes, id, expiresAt } = token.props;
    return { principal: { userId, scopes, via: 'pat', tokenId: id, clientId: null, grantExpiresAt: expiresAt, authTime: null }, expiresAt };
  }
}
