import { Clock, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { SecretBox } from '../ports/secret-box';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { Reauthentication } from '../services/reauthentication';

/** What confirming two-factor sign-in needs: the account, the TOTP secret (sealed), its state, and the reauthentication. */
export interface TwoFactorConfirmation {
  users: UserRepository;
  totp: TotpService;
  box: SecretBox;
  states: TwoFactorStateRepository;
  reauthentication: Reauthentication;
  unitOfWork: UnitOfWork;
  clock: Clock;
}

/**
 * Puts a pending enrolment in force with a current code from the new secret: proof that the owner's
 * authenticator holds it, so turning two-factor on cannot lock anyone out. No fresh sign-in is asked
 * for: only the caller of enable-twofactor, which needs one, was shown the secret. Wrong codes count with
 * the login throttle, and the code's step is used up (it cannot sign in a second time).
 */
export class ConfirmTwoFactorUseCase {
  constructor(private readonly deps: TwoFactorConfirmation) {}

  async execute(principal: Principal, command: { code: string; ip: string }): Promise<User> {
    const user = await currentUser(this.deps.users, principal);
    if (user.isTwoFactorEnabled) throw ValidationError.field('code', 'two-factor sign-in is already on');
    const sealed = await this.deps.states.findPending(user.id);
    const secret = sealed ? this.deps.box.open(sealed) : null;
    if (!sealed || !secret)
      throw ValidationError.field('code', 'no two-factor enrolment awaits confirmation: start one with POST /user/me/enable-twofactor');
    const right = await this.deps.reauthentication.throttled(user, command.ip, async () => {
      const step = this.deps.totp.verify(secret, command.code);
      return step !== null && (await this.deps.states.useStep(user.id, step));
    });
    if (!right) throw ValidationError.field('code', 'the one-time code is not valid for the new secret, or was used already');
    user.enableTwoFactor(sealed, this.deps.clock.now());
    await this.deps.unitOfWork.run(async () => {
      // Taken once: a confirmation racing with a new enrolment cannot put a replaced secret in force.
      if (!(await this.deps.states.deletePending(user.id, sealed)))
        throw ValidationError.field('code', 'the enrolment changed meanwhile: start again');
      await this.deps.users.update(user);
    });
    return user;
  }
}
