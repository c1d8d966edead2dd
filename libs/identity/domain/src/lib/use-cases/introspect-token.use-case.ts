import { Clock } from '@lnk/shared/kernel';
import { TokenKind } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from '../services/client-authenticator';
import { findToken } from '../services/token-lookup';

export type Introspection =
  | { active: false }
  | { active: true; token_type: TokenKind; scope: string; client_id?: string; username: string; sub: string; exp?: number; iat: number };

/** Client credentials sent with an introspection request, by HTTP Basic or in the body. */
export interface IntrospectionCaller {
  clientId?: string;
  clientSecret?: string;
}

/**
 * Token introspection (RFC 7662): anything not currently valid is just `active: false`. The spec's body
 * (the token alone) still works: whoever holds a token can already use it. A client that authenticates
 * is answered only about OAuth tokens issued to it (RFC 7662 section 2.2), so a resource server of one
 * client learns nothing about another's tokens or about PATs; failed client authentication is refused.
 */
export class IntrospectTokenUseCase {
  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly clients: OAuthClientRepository,
    private readonly clientAuth: ClientAuthenticator,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(value: string | undefined, caller: IntrospectionCaller = {}): Promise<Introspection> {
    // Naming a client without its secret proves nothing: such a request is answered as an anonymous one.
    const asker = caller.clientSecret !== undefined ? await this.clientAuth.authenticate(caller.clientId, caller.clientSecret, { mustAuthenticate: true }) : null;
    const found = await findToken(value, this.oauthTokens, this.pats, this.hasher);
    const now = this.clock.now();
    if (!found) return { active: false };
    if (asker && (found.kind === 'personal_access_token' || found.token.props.clientId !== asker.id)) return { active: false };
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    if (found.kind === 'personal_access_token') {
      if (!found.token.isActive(now)) return { active: false };
      const user = await this.users.findById(found.token.props.userId);
      if (!user?.isActive) return { active: false };
      const { expiresAt, scopes, createdAt } = found.token.props;
      return { active: true, token_type: found.kind, scope: scopes.join(' '), username: user.email, sub: user.id, ...(expiresAt ? { exp: seconds(expiresAt) } : {}), iat: seconds(createdAt) };
    }
    const token = found.token;
    const active = found.kind === 'access_token' ? token.isAccessActive(now) : token.isRefreshUsable(now);
    if (!active) return { active: false };
    const [user, client] = await Promise.all([this.users.findById(token.props.userId), this.clients.findById(token.props.clientId)]);
    if (!user?.isActive || !client) return { active: false };
    const exp = found.kind === 'access_token' ? token.props.accessExpiresAt : token.props.refreshExpiresAt;
    return { active: true, token_type: found.kind, scope: token.props.scopes.join(' '), client_id: client.clientId, username: user.email, sub: user.id, exp: seconds(exp), iat: seconds(token.props.createdAt) };
  }
}
