import { Clock, DomainError, ValidationError } from '@lnk/shared/kernel';
import { Principal } from '../model/tokens';
import { User } from '../model/user.entity';
import { LoginThrottle, loginThrottleKeys } from '../ports/login-throttle';
import { PasswordHasher } from '@lnk/shared/kernel';

/** How long after a sign-in its tokens may take sensitive account actions without the password. */
export const REAUTHENTICATION_MINUTES = 10;

export class ReauthenticationRequiredError extends DomainError {
  constructor(hasPassword: boolean) {
    const why = `This action needs a sign-in from the last ${REAUTHENTICATION_MINUTES} minutes`;
    super(
      'REAUTHENTICATION_REQUIRED',
      hasPassword
        ? `${why}: sign in again, or send your current password as currentPassword`
        : `${why}: this account has no password, so sign in again with your identity provider`,
    );
  }
}

/** What a caller offers, beside its token, to show it is the account's owner. */
export interface OwnerProof {
  currentPassword?: string;
  /** Where the request comes from: guesses are throttled per address as sign-ins are. */
  ip: string;
}

/**
 * Sensitive account actions (e-mail change, two-factor on or off, deletion) need more than a token that
 * may write to the account, which a third-party app or a leaked PAT may hold: either the token comes from
 * a password or identity-provider sign-in in the last ten minutes, or the request carries the current
 * password. Guesses at the password or at a one-time code through these routes count with the sign-in's
 * (the login throttle, same keys), so a stolen token is no way round its limits.
 */
export class Reauthentication {
  constructor(
    private readonly passwords: PasswordHasher,
    private readonly throttle: LoginThrottle,
    private readonly clock: Clock,
  ) {}

  isFresh(principal: Principal): boolean {
    return principal.authTime !== null && this.clock.now().getTime() - principal.authTime.getTime() <= REAUTHENTICATION_MINUTES * 60_000;
  }

  /** Passes a fresh sign-in or the right password (a password sent is always checked); else REAUTHENTICATION_REQUIRED. */
  async confirm(user: User, principal: Principal, proof: OwnerProof): Promise<void> {
    if (proof.currentPassword === undefined || !user.passwordHash) {
      if (this.isFresh(principal)) return;
      throw new ReauthenticationRequiredError(user.passwordHash !== null);
    }
    await this.checkPassword(user, proof.currentPassword, proof.ip);
  }

  /** The account's current password, throttled; a wrong one is a VALIDATION_ERROR on `field`. */
  async checkPassword(user: User, password: string, ip: string, field = 'currentPassword'): Promise<void> {
    const hash = user.passwordHash;
    const right = await this.throttled(user, ip, async () => hash !== null && (await this.passwords.verify(password, hash)));
    if (!right) throw ValidationError.field(field, 'the current password is not correct');
  }

  /**
   * Runs one check of a secret only the owner should know as a sign-in attempt: counted before it runs
   * (RATE_LIMITED once the keys are refused), forgiven when right, left counted when wrong.
   */
  async throttled(user: User, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    const attempt = await this.throttle.admit(loginThrottleKeys(user.email, this.throttle.addressKey(ip)));
    let right: boolean;
    try {
      right = await check();
    } catch (error) {
      attempt.withdraw(); // a fault (the database), not a guess
      throw error;
    }
    if (right) attempt.succeeded();
    return right;
  }
}
