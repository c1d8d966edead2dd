import { Clock } from '@lnk/shared/kernel';
import { RevocationListener } from '../ports/revocation-listener';
import { SecretHasher } from '../ports/secret-hasher';
import { OAuthTokenRepository } from '../ports/token.repositories';
import { findToken } from '../services/token-lookup';

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
    const found = await findToken(value, this.oauthTokens, null, this.hasher);
    if (!found || found.kind === 'personal_access_token') return;
    const now = this.clock.now();
    if (found.kind === 'refresh_token') await this.oauthTokens.revokeFamily(found.token.props.familyId, now);
    else await this.oauthTokens.revoke(found.token.props.id, now);
    this.revocations.tokensRevoked();
  }
}
