import { OAuthClient } from '../model/oauth-client.entity';
import { OAuthError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { ClientAuthenticator, grantScopes } from '../services/client-authenticator';
import { CredentialsChecker } from '../services/credentials-checker';
import { IssuedTokens, TokenIssuer } from '../services/token-issuer';

export interface PasswordGrantCommand {
  clientId?: string;
  clientSecret?: string;
  username?: string;
  password?: string;
  scope?: string;
  otp?: string;
  ip: string;
}

/**
 * Resource owner password credentials (RFC 6749 section 4.3). First-party clients (made by an operator)
 * may sign in any account; a client a user made, only its owner. A client with a secret authenticates
 * with it (RFC 6749 section 4.3.2, in the body or HTTP Basic), as on the other grants: its client_id is
 * no secret, and whoever knows it must not sign people in as that client. The spec's body (client_id
 * alone) is a public client's: a first-party browser or native app, which has no secret to keep.
 */
export class PasswordGrantUseCase {
  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly credentials: CredentialsChecker,
    private readonly issuer: TokenIssuer,
  ) {}

  async execute(command: PasswordGrantCommand): Promise<{ user: User; client: OAuthClient; tokens: IssuedTokens }> {
    const client = await this.clients.authenticate(command.clientId, command.clientSecret, { mustAuthenticate: true });
    const scopes = grantScopes(command.scope, client.scopes);
    const user = await this.credentials.check({ email: command.username, password: command.password, otp: command.otp, ip: command.ip });
    if (!client.maySignIn(user.id)) {
      throw new OAuthError('unauthorized_client', 'This client may use the password grant only for the account that owns it');
    }
    return { user, client, tokens: await this.issuer.issue({ userId: user.id, clientId: client.id, scopes, signedIn: true }) };
  }
}
