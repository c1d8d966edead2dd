import { EntityOf, ValidationError } from '@lnk/shared/kernel';

export const MIN_PASSWORD_LENGTH = 8;
export const MAX_PASSWORD_LENGTH = 72; // bcrypt reads no further than 72 bytes
export const MAX_NAME_LENGTH = 100;

export function checkNewPassword(password: unknown, field = 'password'): string {
  if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
    throw ValidationError.field(field, `password must be at least ${MIN_PASSWORD_LENGTH} characters`);
  }
  if (new TextEncoder().encode(password).length > MAX_PASSWORD_LENGTH) {
    throw ValidationError.field(field, `password must be at most ${MAX_PASSWORD_LENGTH} bytes`);
  }
  return password;
}

export function checkName(name: unknown, field = 'name'): string {
  if (name === undefined || name === null) return '';
  if (typeof name !== 'string') throw ValidationError.field(field, 'name must be a string');
  const trimmed = name.trim();
  if (trimmed.length > MAX_NAME_LENGTH) throw ValidationError.field(field, `name must be at most ${MAX_NAME_LENGTH} characters`);
  return trimmed;
}

/**
 * The address of an account that lost an unproven address to its proven owner: `.invalid` is reserved
 * (RFC 6761) and a domain without a dot fails `normalizeEmail`, so no client can ask for it (nor block
 * a release by taking it first), and no mail is sent to it.
 */
export function releasedEmail(userId: string): string {
  return `released-${userId}@invalid`;
}

export function isReleasedEmail(email: string): boolean {
  return email.startsWith('released-') && email.endsWith('@invalid');
}

export interface UserProps {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  isVerified: boolean;
  isActive: boolean;
  /** The TOTP secret, sealed (encrypted); null when two-factor sign-in is off. */
  twoFactorSecret: string | null;
  /** An address the user asked to move to, not yet confirmed from its mailbox: it signs nobody in. */
  pendingEmail?: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An account. Passwords are only ever held as hashes. */
export class User extends EntityOf<UserProps>()('id', 'email', 'name', 'passwordHash', 'isVerified', 'isActive', 'twoFactorSecret', 'createdAt', 'updatedAt') {
  constructor(props: UserProps) {
    super({ ...props, pendingEmail: props.pendingEmail ?? null });
  }

  get isTwoFactorEnabled(): boolean {
    return this.props.twoFactorSecret !== null;
  }

  get pendingEmail(): string | null {
    return this.props.pendingEmail ?? null;
  }

  /**
   * The address as the API shows it (spec section 3: after a change the new address shows, unverified).
   * Sign-in keeps using `email` until the new address is confirmed, so a change nobody confirmed from
   * the new mailbox claims that address for nothing.
   */
  get shownAddress(): { email: string; isVerified: boolean } {
    const pending = this.pendingEmail;
    return pending ? { email: pending, isVerified: false } : { email: this.props.email, isVerified: this.props.isVerified };
  }

  /** Asks to move to a new address; asking for the current one withdraws a pending change. */
  requestEmailChange(email: string, now: Date): void {
    this.props = { ...this.props, pendingEmail: email === this.props.email ? null : email, updatedAt: now };
  }

  /** Its owner proved the address: a pending change to it takes effect, or the current address is verified. */
  confirmEmail(email: string, now: Date): boolean {
    if (email === this.pendingEmail) {
      this.props = { ...this.props, email, pendingEmail: null, isVerified: true, updatedAt: now };
      return true;
    }
    if (email !== this.props.email) return false;
    this.props = { ...this.props, isVerified: true, updatedAt: now };
    return true;
  }

  /**
   * Gives up an address the account never proved, to someone who did: the account keeps its data, but
   * its address becomes one that no mail reaches and no one else can claim (see `releasedEmail`).
   */
  releaseEmail(now: Date): void {
    this.props = { ...this.props, email: releasedEmail(this.props.id), isVerified: false, updatedAt: now };
  }

  changePasswordHash(passwordHash: string, now: Date): void {
    this.props = { ...this.props, passwordHash, updatedAt: now };
  }

  enableTwoFactor(sealedSecret: string, now: Date): void {
    this.props = { ...this.props, twoFactorSecret: sealedSecret, updatedAt: now };
  }

  disableTwoFactor(now: Date): void {
    this.props = { ...this.props, twoFactorSecret: null, updatedAt: now };
  }

  toProps(): UserProps {
    return { ...this.props };
  }
}
