import { Clock } from '@lnk/shared/kernel';
import { kindOf, OAuthToken, PersonalAccessToken, TokenKind } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';
import { ClientAuthenticator } from './client-authenticator';

type Found = { kind: 'access_token' | 'refresh_token'; token: OAuthToken } | { kind: 'personal_access_token'; token: PersonalAccessToken };

async function find(
  value: string | undefined,
  oauthTokens: OAuthTokenRepository,
  /** Null: PATs are not looked up. */
  pats: PersonalAccessTokenRepository | null,
  hasher: SecretHasher,
): Promise<Found | null> {
  const kind: TokenKind | null = value && value.length <= 256 ? kindOf(value) : null;
  if (!value || !kind) return null;
  const hash = hasher.hash(value);
  if (kind === 'personal_access_token') {
    const token = pats ? await pats.findByHash(hash) : null;
    return token ? { kind, token } : null;
  }
  const token = kind === 'access_token' ? await oauthTokens.findByAccessHash(hash) : await oauthTokens.findByRefreshHash(hash);
  return token ? { kind, token } : null;
}

/**
 * Token revocation (RFC 7009) of OAuth tokens. The answer is the same whether or not the token existed,
 * so it tells nothing. Revoking a refresh token ends its whole family; an access token ends its own pair.
 * A PAT is left alone and answered like an unknown token: it is revoked only through
 * `DELETE /user/tokens/{id}`, where a token cannot revoke itself.
 */
export class RevokeTokenUseCase {
  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly hasher: SecretHasher,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
  ) {}

  async execute(value: string | undefined): Promise<void> {
    const found = await find(value, this.oauthTokens, null, this.hasher);
    if (!found || found.kind === 'personal_access_token') return;
    const now = this.clock.now();
    if (found.kind === 'refresh_token') await this.oauthTokens.revokeFamily(found.token.props.familyId, now);
    else await this.oauthTokens.revoke(found.token.props.id, now);
    this.revocations.tokensRevoked();
  }
}

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
    const found = await find(value, this.oauthTokens, this.pats, this.hasher);
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
