import { Clock, UnitOfWork, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { SecretBox } from '../ports/secret-box';
import { TotpService, TwoFactorStateRepository } from '../ports/two-factor';
import { UserRepository } from '../ports/user.repository';
import { currentUser } from '../services/current-user';
import { Reauthentication } from '../services/reauthentication';

/**
 * Puts a pending enrolment in force with a current code from the new secret: proof that the owner's
 * authenticator holds it, so turning two-factor on cannot lock anyone out. No fresh sign-in is asked
 * for: only the caller of enable-twofactor, which needs one, was shown the secret. Wrong codes count with
 * the login throttle, and the code's step is used up (it cannot sign in a second time).
 */
export class ConfirmTwoFactorUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly totp: TotpService,
    private readonly box: SecretBox,
    private readonly states: TwoFactorStateRepository,
    private readonly reauthentication: Reauthentication,
    private readonly unitOfWork: UnitOfWork,
    private readonly clock: Clock,
  ) {}

  async execute(principal: Principal, command: { code: string; ip: string }): Promise<User> {
    const user = await currentUser(this.users, principal);
    if (user.isTwoFactorEnabled) throw ValidationError.field('code', 'two-factor sign-in is already on');
    const sealed = await this.states.findPending(user.id);
    const secret = sealed ? this.box.open(sealed) : null;
    if (!sealed || !secret) throw ValidationError.field('code', 'no two-factor enrolment awaits confirmation: start one with POST /user/me/enable-twofactor');
    const right = await this.reauthentication.throttled(user, command.ip, async () => {
      const step = this.totp.verify(secret, command.code);
      return step !== null && (await this.states.useStep(user.id, step));
    });
    if (!right) throw ValidationError.field('code', 'the one-time code is not valid for the new secret, or was used already');
    user.enableTwoFactor(sealed, this.clock.now());
    await this.unitOfWork.run(async () => {
      // Taken once: a confirmation racing with a new enrolment cannot put a replaced secret in force.
      if (!(await this.states.deletePending(user.id, sealed))) throw ValidationError.field('code', 'the enrolment changed meanwhile: start again');
      await this.users.update(user);
    });
    return user;
  }
}
