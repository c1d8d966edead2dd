import { Clock, NotFoundError, UnitOfWork } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { AccountDataEraser, AfterAccountDeleted } from '../ports/account-data-eraser';
import { RevocationListener } from '../ports/revocation-listener';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { OwnerProof, Reauthentication } from '../services/reauthentication';

/** What deleting an account needs: the account, the other contexts' eraser, the reauthentication, and who is told of the revocation. */
export interface AccountDeletion {
  users: UserRepository;
  eraser: AccountDataEraser;
  unitOfWork: UnitOfWork;
  revocations: RevocationListener;
  clock: Clock;
  reauthentication: Reauthentication;
}

/**
 * Deletes the account and everything it owns, in every context, in one transaction, after a fresh sign-in
 * or the password. What must not happen unless the deletion commits (a payment provider's cancellation)
 * runs after it, and cannot undo it.
 */
export class DeleteAccountUseCase {
  constructor(private readonly deps: AccountDeletion) {}

  async execute(principal: Principal, proof: OwnerProof): Promise<Date> {
    await this.deps.reauthentication.confirm(await currentUser(this.deps.users, principal), principal, proof);
    const deletedAt = this.deps.clock.now();
    const afterCommit: AfterAccountDeleted[] = await this.deps.unitOfWork.run(async () => {
      const pending = await this.deps.eraser.eraseAccountData(principal.userId);
      if (!(await this.deps.users.delete(principal.userId))) throw new NotFoundError('User');
      return pending;
    });
    this.deps.revocations.tokensRevoked();
    for (const work of afterCommit) await work();
    return deletedAt;
  }
}
