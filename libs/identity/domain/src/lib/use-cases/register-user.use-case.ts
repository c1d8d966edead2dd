import { Clock, IdGenerator, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { checkName, checkNewPassword, User } from '../model/user.entity';
import { PasswordHasher } from '@lnk/shared/kernel';
import { UserRepository } from '../ports/user.repository';
import { EmailVerificationSender } from '../services/email-verification-sender';
import { AddressClaims } from '../services/email-address';

export interface RegisterUserCommand {
  email: string;
  password: string;
  name?: string;
  /**
   * The address is known to be the user's (the operator vouches for it with `user:create`): the account
   * is verified at once, no link is mailed, and an account holding the address unverified gives it up.
   * Otherwise the account starts unverified and a verification link is mailed.
   */
  verified?: boolean;
}

/** What registering a user needs: the accounts, the hasher, the address claims, and the verification mail. */
export interface UserRegistration {
  users: UserRepository;
  passwords: PasswordHasher;
  ids: IdGenerator;
  clock: Clock;
  verification: EmailVerificationSender;
  claims: AddressClaims;
}

/** Creates an account with a password (operators through the CLI, verified: see `verified`). */
export class RegisterUserUseCase {
  constructor(private readonly deps: UserRegistration) {}

  async execute(command: RegisterUserCommand): Promise<User> {
    const email = normalizeEmail(command.email);
    const password = checkNewPassword(command.password);
    const name = checkName(command.name);
    const verified = command.verified === true;
    const free = verified ? await this.deps.claims.claim(email, null) : !(await this.deps.users.findByEmail(email));
    if (!free) throw ValidationError.field('email', 'email is already registered');
    const now = this.deps.clock.now();
    const user = new User({
      id: this.deps.ids.next(),
      email,
      name,
      passwordHash: await this.deps.passwords.hash(password),
      isVerified: verified,
      isActive: true,
      twoFactorSecret: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.deps.users.insert(user);
    if (!verified) await this.deps.verification.send(user);
    return user;
  }
}
