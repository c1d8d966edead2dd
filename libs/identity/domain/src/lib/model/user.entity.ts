import { ValidationError } from '@lnk/shared/kernel';

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

export interface UserProps {
  id: string;
  email: string;
  name: string;
  passwordHash: string | null;
  isVerified: boolean;
  isActive: boolean;
  /** The TOTP secret, sealed (encrypted); null when two-factor sign-in is off. */
  twoFactorSecret: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** An account. Passwords are only ever held as hashes. */
export class User {
  constructor(private props: UserProps) {}

  get id(): string {
    return this.props.id;
  }
  get email(): string {
    return this.props.email;
  }
  get name(): string {
    return this.props.name;
  }
  get passwordHash(): string | null {
    return this.props.passwordHash;
  }
  get isVerified(): boolean {
    return this.props.isVerified;
  }
  get isActive(): boolean {
    return this.props.isActive;
  }
  get twoFactorSecret(): string | null {
    return this.props.twoFactorSecret;
  }
  get isTwoFactorEnabled(): boolean {
    return this.props.twoFactorSecret !== null;
  }
  get createdAt(): Date {
    return this.props.createdAt;
  }

  /** A new address is unverified until its owner follows the link sent to it. */
  changeEmail(email: string, now: Date): void {
    this.props = { ...this.props, email, isVerified: false, updatedAt: now };
  }

  confirmEmail(email: string, now: Date): boolean {
    if (email !== this.props.email) return false;
    this.props = { ...this.props, isVerified: true, updatedAt: now };
    return true;
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
  get updatedAt(): Date {
    return this.props.updatedAt;
  }

  toProps(): UserProps {
    return { ...this.props };
  }
}
