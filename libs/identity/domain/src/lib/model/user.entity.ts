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

/** A new display name (PUT /user/me/name): as at sign-up, and not empty once trimmed. */
export function checkNewName(name: unknown, field = 'name'): string {
  const checked = checkName(name, field);
  if (!checked) throw ValidationError.field(field, 'name must not be empty');
  return checked;
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
  /**
   * When the account last moved to a new address (PUT /user/me/email); null while it keeps the address it
   * was made with. An address that came from a change is never joined to an identity provider's sign-in.
   */
  emailChangedAt?: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An account. Passwords are only ever held as hashes. */
export class User extends EntityOf<UserProps>()(
  'id',
  'email',
  'name',
  'passwordHash',
  'isVerified',
  'isActive',
  'twoFactorSecret',
  'createdAt',
  'updatedAt',
) {
  constructor(props: UserProps) {
    super({ ...props, emailChangedAt: props.emailChangedAt ?? null });
  }

  get isTwoFactorEnabled(): boolean {
    return this.props.twoFactorSecret !== null;
  }

  get emailChangedAt(): Date | null {
    return this.props.emailChangedAt ?? null;
  }

  /**
   * True when the account took its address by asking for it, not when it was made (by the operator, who
   * vouches for it, or by an identity provider's sign-in). Such an account may hold someone else's
   * address (even confirmed, by a person tricked into confirming it), so no provider sign-in for the
   * address is ever joined to it on the strength of the address alone.
   */
  get emailCameFromChange(): boolean {
    return this.emailChangedAt !== null;
  }

  /**
   * Moves the account to a new address (spec section 3): it is the account's address and sign-in name
   * at once, unverified until the link mailed to it is confirmed.
   */
  changeEmail(email: string, now: Date): void {
    this.props = { ...this.props, email, isVerified: false, emailChangedAt: now, updatedAt: now };
  }

  /** Its owner proved the address: true when it is still the account's address, which is now verified. */
  confirmEmail(email: string, now: Date): boolean {
    if (email !== this.props.email) return false;
    if (!this.props.isVerified) this.props = { ...this.props, isVerified: true, updatedAt: now };
    return true;
  }

  /**
   * Gives up an address the account never proved, to someone who did: the account keeps its data, but
   * its address becomes one that no mail reaches and no one else can claim (see `releasedEmail`).
   */
  releaseEmail(now: Date): void {
    this.props = { ...this.props, email: releasedEmail(this.props.id), isVerified: false, updatedAt: now };
  }

  rename(name: string, now: Date): void {
    this.props = { ...this.props, name, updatedAt: now };
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
