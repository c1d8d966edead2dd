import { Clock } from '@lnk/shared/kernel';
import { mayReadProfile } from '../model/profile';
import { TokenKind } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from '../services/client-authenticator';
import { findToken } from '../services/token-lookup';

export type Introspection =
  | { active: boolean }
  | { active: true; token_type: TokenKind; scope: string; client_id: string; username?: string; sub: string; exp: number; iat: number };

/** Client credentials sent with an introspection request, by HTTP Basic or in the body. */
export interface IntrospectionCaller {
  clientId?: string;
  clientSecret?: string;
}

/** What introspecting a token needs: every kind of token, the clients and their authentication, and the accounts. */
export interface TokenIntrospection {
  oauthTokens: OAuthTokenRepository;
  pats: PersonalAccessTokenRepository;
  clients: OAuthClientRepository;
  clientAuth: ClientAuthenticator;
  users: UserRepository;
  hasher: SecretHasher;
  clock: Clock;
}

/**
 * Token introspection (RFC 7662). The details of a token (its kind, scopes, client, account, expiry)
 * go only to the client it was issued to, authenticated with its secret: that is the resource server
 * the spec's answer is for (section 4.1), and it gets the account's address as `username` only when the
 * token carries `user:read`, as the token itself would. Anyone else learns at most whether the token is
 * active: a caller without client authentication (the spec's body, the token alone) learns that much,
 * which whoever holds a token can learn by using it; a client that authenticates is answered about its
 * own tokens only (RFC 7662 section 2.2), so it learns nothing of another client's tokens or of PATs,
 * which no client was issued. Failed client authentication is refused.
 */
export class IntrospectTokenUseCase {
  constructor(private readonly deps: TokenIntrospection) {}

  async execute(value: string | undefined, caller: IntrospectionCaller = {}): Promise<Introspection> {
    // Naming a client without its secret proves nothing: such a request is answered as an anonymous one.
    const asker =
      caller.clientSecret !== undefined
        ? await this.deps.clientAuth.authenticate(caller.clientId, caller.clientSecret, { mustAuthenticate: true })
        : null;
    const found = await findToken(value, this.deps.oauthTokens, this.deps.pats, this.deps.hasher);
    const now = this.deps.clock.now();
    if (!found) return { active: false };
    if (found.kind === 'personal_access_token') {
      if (asker || !found.token.isActive(now)) return { active: false };
      return { active: (await this.deps.users.findById(found.token.props.userId))?.isActive === true };
    }
    const token = found.token;
    if (asker && token.props.clientId !== asker.id) return { active: false };
    const active = found.kind === 'access_token' ? token.isAccessActive(now) : token.isRefreshUsable(now);
    if (!active) return { active: false };
    const [user, client] = await Promise.all([
      this.deps.users.findById(token.props.userId),
      this.deps.clients.findById(token.props.clientId),
    ]);
    if (!user?.isActive || !client) return { active: false };
    if (!asker) return { active: true };
    const seconds = (date: Date) => Math.floor(date.getTime() / 1000);
    const { scopes, createdAt } = token.props;
    const exp = found.kind === 'access_token' ? token.props.accessExpiresAt : token.props.refreshExpiresAt;
    return {
      active: true,
      token_type: found.kind,
      scope: scopes.join(' '),
      client_id: client.clientId,
      ...(mayReadProfile(scopes) ? { username: user.email } : {}),
      sub: user.id,
      exp: seconds(exp),
      iat: seconds(createdAt),
    };
  }
}
