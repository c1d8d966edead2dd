import { NotFoundError, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { RevocationListener } from '../ports/revocation-listener';
import { PersonalAccessTokenRepository } from '../ports/token.repositories';

/** Revokes (deletes) a PAT; the one authenticating the request cannot revoke itself. */
export class RevokePersonalAccessTokenUseCase {
  constructor(
    private readonly pats: PersonalAccessTokenRepository,
    private readonly revocations: RevocationListener,
  ) {}

  async execute(principal: Principal, id: string): Promise<void> {
    if (principal.via === 'pat' && principal.tokenId === id) {
      throw ValidationError.field('id', 'the token used for this request cannot revoke itself');
    }
    if (!(await this.pats.deleteOfUser(principal.userId, id))) throw new NotFoundError('Token');
    this.revocations.tokensRevoked();
  }
}
