import { Clock } from '@lnk/shared/kernel';
import { OAuthError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { TOKEN_PREFIX } from '../model/tokens';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator, grantScopes } from '../services/client-authenticator';
import { IssuedTokens, TokenIssuer } from '../services/token-issuer';

export interface RefreshGrantCommand {
  refreshToken?: string;
  clientId?: string;
  clientSecret?: string;
  scope?: string;
}

/** What the refresh-token grant needs: the client's authentication, the tokens, the issuer, and who is told of a replay's revocation. */
export interface TokenRefresh {
  clients: ClientAuthenticator;
  tokens: OAuthTokenRepository;
  users: UserRepository;
  hasher: SecretHasher;
  issuer: TokenIssuer;
  revocations: RevocationListener;
  clock: Clock;
}

/**
 * Exchanges a refresh token for a new pair and retires it (rotation). A refresh token presented
 * after it was rotated is a replay: the whole family it belongs to is revoked (OAuth 2.0 Security BCP).
 * Refreshing is not signing in: the new pair keeps the family's sign-in time (`authTime`).
 * A confidential client must authenticate (RFC 6749 section 6), so a leaked refresh token alone is useless.
 */
export class RefreshGrantUseCase {
  constructor(private readonly deps: TokenRefresh) {}

  async execute(command: RefreshGrantCommand): Promise<{ tokens: IssuedTokens; user: User }> {
    const client = await this.deps.clients.authenticate(command.clientId, command.clientSecret, { mustAuthenticate: true });
    if (!command.refreshToken) throw new OAuthError('invalid_request', 'refresh_token is required');
    const invalid = () => new OAuthError('invalid_grant', 'The refresh token is invalid, expired or revoked');
    if (!command.refreshToken.startsWith(TOKEN_PREFIX.refresh)) throw invalid();
    const token = await this.deps.tokens.findByRefreshHash(this.deps.hasher.hash(command.refreshToken));
    const now = this.deps.clock.now();
    if (!token || token.props.clientId !== client.id) throw invalid();
    if (token.props.rotatedAt && !token.props.revokedAt) {
      await this.deps.tokens.revokeFamily(token.props.familyId, now);
      this.deps.revocations.tokensRevoked();
      throw invalid();
    }
    if (!token.isRefreshUsable(now)) throw invalid();
    const scopes = grantScopes(command.scope, token.props.scopes);
    const user = await this.deps.users.findById(token.props.userId);
    if (!user || !user.isActive) throw invalid();
    // Two requests racing with the same token: exactly one wins, the other is told it is invalid.
    if (!(await this.deps.tokens.markRotated(token.props.id, now))) throw invalid();
    const tokens = await this.deps.issuer.issue({
      userId: user.id,
      clientId: client.id,
      scopes,
      familyId: token.props.familyId,
      authTime: token.props.authTime,
    });
    return { tokens, user };
  }
}
