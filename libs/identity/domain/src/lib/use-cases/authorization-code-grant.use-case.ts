import { Clock } from '@lnk/shared/kernel';
import { OAuthError } from '../model/oauth-error';
import { TOKEN_PREFIX } from '../model/tokens';
import { User } from '../model/user.entity';
import { PkceVerifier } from '../ports/pkce-verifier';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretHasher } from '../ports/secret-hasher';
import { AuthorizationCodeRepository, OAuthTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from '../services/client-authenticator';
import { IssuedTokens, TokenIssuer } from '../services/token-issuer';

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

export interface AuthorizationCodeGrantCommand {
  code?: string;
  redirectUri?: string;
  clientId?: string;
  clientSecret?: string;
  codeVerifier?: string;
}

/**
 * What exchanging an authorization code for tokens needs: the client's authentication, the codes, PKCE, the issuer, and who is told of a
 * replay's revocation.
 */
export interface AuthorizationCodeExchange {
  clients: ClientAuthenticator;
  codes: AuthorizationCodeRepository;
  tokens: OAuthTokenRepository;
  users: UserRepository;
  hasher: SecretHasher;
  pkce: PkceVerifier;
  issuer: TokenIssuer;
  revocations: RevocationListener;
  clock: Clock;
}

/**
 * Exchanges an authorization code (RFC 6749 section 4.1.3) once. A confidential client authenticates;
 * PKCE is checked when the code was made with a challenge, required for a public client, and a verifier
 * for a code made without one is refused. A code used twice revokes every token issued from it.
 */
export class AuthorizationCodeGrantUseCase {
  constructor(private readonly deps: AuthorizationCodeExchange) {}

  async execute(command: AuthorizationCodeGrantCommand): Promise<{ tokens: IssuedTokens; user: User }> {
    const client = await this.deps.clients.authenticate(command.clientId, command.clientSecret, { mustAuthenticate: true });
    if (!command.code || !command.redirectUri) throw new OAuthError('invalid_request', 'code and redirect_uri are required');
    const invalid = (why = 'The authorization code is invalid, expired or used') => new OAuthError('invalid_grant', why);
    const stored = command.code.startsWith(TOKEN_PREFIX.code)
      ? await this.deps.codes.findByHash(this.deps.hasher.hash(command.code))
      : null;
    if (!stored || stored.props.clientId !== client.id) throw invalid();
    const now = this.deps.clock.now();
    const replay = async () => {
      await this.deps.tokens.revokeIssuedByCode(stored.props.id, now);
      this.deps.revocations.tokensRevoked();
      return invalid();
    };
    if (stored.props.consumedAt) throw await replay();
    if (stored.props.expiresAt <= now) throw invalid();
    if (stored.props.redirectUri !== command.redirectUri) throw invalid('redirect_uri does not match the authorization request');
    if (stored.props.codeChallenge) {
      if (
        !command.codeVerifier ||
        !PKCE_VERIFIER.test(command.codeVerifier) ||
        !this.deps.pkce.matches(command.codeVerifier, stored.props.codeChallenge)
      ) {
        throw invalid('code_verifier does not match the code challenge');
      }
    } else if (command.codeVerifier !== undefined) {
      // A verifier for a code issued without a challenge: a PKCE downgrade (RFC 9700 section 2.1.1).
      throw invalid('code_verifier was sent for a code issued without a code_challenge');
    } else if (!client.isConfidential) {
      throw invalid('PKCE is required for a public client');
    }
    if (!(await this.deps.codes.consume(stored.props.id, now))) throw await replay();
    const user = await this.deps.users.findById(stored.props.userId);
    if (!user || !user.isActive) throw invalid();
    const tokens = await this.deps.issuer.issue({
      userId: user.id,
      clientId: client.id,
      scopes: stored.props.scopes,
      authorizationCodeId: stored.props.id,
    });
    return { tokens, user };
  }
}
