import { Clock } from '@lnk/shared/kernel';
import { kindOf, OAuthToken, PersonalAccessToken, TokenKind } from '../model/tokens';
import { OAuthClientRepository } from '../ports/oauth-client.repository';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository, PersonalAccessTokenRepository } from '../ports/token.repositories';
import { UserRepository } from '../ports/user.repository';

type Found = { kind: 'access_token' | 'refresh_token'; token: OAuthToken } | { kind: 'personal_access_token'; token: PersonalAccessToken };

async function find(
  value: string | undefined,
  oauthTokens: OAuthTokenRepository,
  pats: PersonalAccessTokenRepository,
  hasher: SecretHasher,
): Promise<Found | null> {
  const kind: TokenKind | null = value && value.length <= 256 ? kindOf(value) : null;
  if (!value || !kind) return null;
  const hash = hasher.hash(value);
  if (kind === 'personal_access_token') {
    const token = await pats.findByHash(hash);
    return token ? { kind, token } : null;
  }
  const token = kind === 'access_token' ? await oauthTokens.findByAccessHash(hash) : await oauthTokens.findByRefreshHash(hash);
  return token ? { kind, token } : null;
}

/**
 * Token revocation (RFC 7009). The answer is the same whether or not the token existed, so it tells
 * nothing. Revoking a refresh token ends its whole family; an access token ends its own pair; a PAT
 * is deleted.
 */
export class RevokeTokenUseCase {
  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly hasher: SecretHasher,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
  ) {}

  async execute(value: string | undefined): Promise<void> {
    const found = await find(value, this.oauthTokens, this.pats, this.hasher);
    if (!found) return;
    const now = this.clock.now();
    if (found.kind === 'personal_access_token') await this.pats.deleteOfUser(found.token.props.userId, found.token.props.id);
    else if (found.kind === 'refresh_token') await this.oauthTokens.revokeFamily(found.token.props.familyId, now);
    else await this.oauthTokens.revoke(found.token.props.id, now);
    this.revocations.tokensRevoked();
  }
}

export type Introspection =
  | { active: false }
  | { active: true; token_type: TokenKind; scope: string; client_id?: string; username: string; sub: string; exp?: number; iat: number };

/** Token introspection (RFC 7662): anything not currently valid is just `active: false`. */
export class IntrospectTokenUseCase {
  constructor(
    private readonly oauthTokens: OAuthTokenRepository,
    private readonly pats: PersonalAccessTokenRepository,
    private readonly clients: OAuthClientRepository,
    private readonly users: UserRepository,
    private readonly hasher: SecretHasher,
    private readonly clock: Clock,
  ) {}

  async execute(value: string | undefined): Promise<Introspection> {
    const found = await find(value, this.oauthTokens, this.pats, this.hasher);
    const now = this.clock.now();
    if (!found) return { active: false };
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
