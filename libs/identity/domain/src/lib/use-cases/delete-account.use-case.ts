import { Clock, NotFoundError, UnitOfWork } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { AccountDataEraser, AfterAccountDeleted } from '../ports/account-data-eraser';
import { RevocationListener } from '../ports/revocation-listener';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { OwnerProof, Reauthentication } from '../services/reauthentication';

/**
 * Deletes the account and everything it owns, in every context, in one transaction, after a fresh sign-in
 * or the password. What must not happen unless the deletion commits (a payment provider's cancellation)
 * runs after it, and cannot undo it.
 */
export class DeleteAccountUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly eraser: AccountDataEraser,
    private readonly unitOfWork: UnitOfWork,
    private readonly revocations: RevocationListener,
    private readonly clock: Clock,
    private readonly reauthentication: Reauthentication,
  ) {}

  async execute(principal: Principal, proof: OwnerProof): Promise<Date> {
    await this.reauthentication.confirm(await currentUser(this.users, principal), principal, proof);
    const deletedAt = this.clock.now();
    const afterCommit: AfterAccountDeleted[] = await this.unitOfWork.run(async () => {
      const pending = await this.eraser.eraseAccountData(principal.userId);
      if (!(await this.users.delete(principal.userId))) throw new NotFoundError('User');
      return pending;
    });
    this.revocations.tokensRevoked();
    for (const work of afterCommit) await work();
    return deletedAt;
  }
}
