import { Clock, IdGenerator, ValidationError } from '@lnk/shared/kernel';
import { normalizeEmail } from '../model/email';
import { checkName, checkNewPassword, User } from '../model/user.entity';
import { PasswordHasher } from '../ports/password-hasher';
import { UserRepository } from '../ports/user.repository';
import { EmailVerificationSender } from './account.use-cases';

export interface RegisterUserCommand {
  email: string;
  password: string;
  name?: string;
}

/** Creates an account with a password (operators through the CLI). */
export class RegisterUserUseCase {
  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
    private readonly verification: EmailVerificationSender,
  ) {}

  async execute(command: RegisterUserCommand): Promise<User> {
    const email = normalizeEmail(command.email);
    const password = checkNewPassword(command.password);
    const name = checkName(command.name);
    if (await this.users.findByEmail(email)) throw ValidationError.field('email', 'email is already registered');
    const now = this.clock.now();
    const user = new User({
      id: this.ids.next(),
      email,
      name,
      passwordHash: await this.passwords.hash(password),
      isVerified: false,
      isActive: true,
      twoFactorSecret: null,
      createdAt: now,
      updatedAt: now,
    });
    await this.users.insert(user);
    await this.verification.send(user);
    return user;
  }
}
