import { Principal } from '../model/tokens';
import { RevocationListener } from '../ports/revocation-listener';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

export interface RevokedPats {
  revoked: number;
  /** The PAT making the request, left working; null when an OAuth token made it. */
  keptTokenId: string | null;
}

/**
 * Revokes every PAT of the account at once (a lost laptop, a leaked CI secret, a session someone else
 * used), whatever signed the account in: an account without a password (identity provider only) can
 * too. A PAT making the request is spared, as DELETE /user/tokens/{id} never revokes the token used for
 * the request (spec 3): a request does not cut off its own credential; the owner ends that one from
 * another token, or calls this from a sign-in to end them all.
 */
export class RevokeAllPersonalAccessTokensUseCase {
  constructor(
    private readonly pats: PersonalAccessTokenRepository,
    private readonly revocations: RevocationListener,
  ) {}

  async execute(principal: Principal): Promise<RevokedPats> {
    const keptTokenId = principal.via === 'pat' ? principal.tokenId : null;
    const revoked = await this.pats.deleteAllOfUser(principal.userId, keptTokenId ?? undefined);
    if (revoked > 0) this.revocations.tokensRevoked();
    return { revoked, keptTokenId };
  }
}
