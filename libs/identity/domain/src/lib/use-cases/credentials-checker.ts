import { normalizeEmail } from '../model/email';
import { OAuthError, TwoFactorRequiredError } from '../model/oauth-error';
import { User } from '../model/user.entity';
import { LoginThrottle } from '../ports/login-throttle';
import { PasswordHasher } from '../ports/password-hasher';
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
 * grant and the authorization page: failures never say whether the account exists, and repeated
 * failures for an account or an address are slowed, then refused.
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
    const keys = [`account:${email}`, `ip:${credentials.ip}`];
    await this.throttle.admit(keys);

    const user = await this.users.findByEmail(email);
    const known = user?.isActive && user.passwordHash ? user.passwordHash : null;
    const hash = known ?? (await (this.dummyHash ??= this.passwords.hash(`${Math.random()}:${Date.now()}`)));
    const matches = (await this.passwords.verify(credentials.password, hash)) && known !== null;
    if (!user || !matches) {
      this.throttle.recordFailure(keys);
      throw new OAuthError('invalid_grant', 'Invalid username or password');
    }
    if (user.isTwoFactorEnabled) {
      if (!credentials.otp) throw new TwoFactorRequiredError();
      if (!(await this.secondFactor.verify(user, credentials.otp))) {
        this.throttle.recordFailure(keys);
        throw new OAuthError('invalid_grant', 'Invalid one-time code');
      }
    }
    this.throttle.reset(keys);
    return user;
  }
}
