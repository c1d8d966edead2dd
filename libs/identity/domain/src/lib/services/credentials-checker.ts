import { normalizeEmail } from '../model/email';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { LoginThrottle, loginThrottleKeys } from '../ports/login-throttle';
import { PasswordHasher } from '@lnk/shared/kernel';
import { UserRepository } from '../ports/user.repository';
import { SecondFactor } from './second-factor';

export interface Credentials {
  email?: string;
  password?: string;
  otp?: string;
  /** The caller's address, for throttling repeated failures. */
  ip: string;
}

/**
 * Checks an e-mail and password (and the second factor where it is on), the same way for the password
 * grant and the authorization page: failures never say whether the account exists. Each attempt is
 * counted before its password is hashed, so parallel guesses cannot all reach the check; failures
 * against an account slow its sign-ins down, and a run of them from one address is refused.
 */
export class CredentialsChecker {
  /** A hash of nothing anyone knows, at the configured cost: unknown accounts take as long as known ones. */
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly users: UserRepository,
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly secondFactor: SecondFactor,
  ) {}

  async check(credentials: Credentials): Promise<User> {
    if (!credentials.email || !credentials.password) throw new OAuthError('invalid_request', 'username and password are required');
    let email: string;
    try {
      email = normalizeEmail(credentials.email, 'username');
    } catch {
      email = credentials.email.trim().toLowerCase();
    }
    const attempt = await this.throttle.admit(loginThrottleKeys(email, this.throttle.addressKey(credentials.ip)));
    try {
      const user = await this.verify(email, credentials.password, credentials.otp);
      attempt.succeeded();
      return user;
    } catch (error) {
      // A wrong password or code stays counted (it was counted when admitted). A right password whose
      // code is still to come is no failure, nor a success (that would forgive the wrong codes before
      // it); nor is a fault such as an unreachable database.
      if (!(error instanceof OAuthError)) attempt.withdraw();
      throw error;
    }
  }

  private async verify(email: string, password: string, otp: string | undefined): Promise<User> {
    const user = await this.users.findByEmail(email);
    const known = user?.isActive && user.passwordHash ? user.passwordHash : null;
    const hash = known ?? (await (this.dummyHash ??= this.passwords.hash(`${Math.random()}:${Date.now()}`)));
    const matches = (await this.passwords.verify(password, hash)) && known !== null;
    if (!user || !matches) throw new OAuthError('invalid_grant', 'Invalid username or password');
    if (user.isTwoFactorEnabled) {
      if (!otp) throw new TwoFactorRequiredError();
      if (!(await this.secondFactor.verify(user, otp))) throw new OAuthError('invalid_grant', 'Invalid one-time code');
    }
    return user;
  }
}
