import { ValidationError } from '@lnk/shared/kernel';

// Pragmatic address check: one @, no spaces, a dotted domain of letters, digits and hyphens.
const EMAIL = /^[^\s@"(),:;<>[\\\]]{1,64}@(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** The longest address (RFC 5321's path limit less its brackets). */
export const MAX_EMAIL_LENGTH = 254;

/** Returns the address trimmed and lowercased, or throws a validation error on `field`. */
export function normalizeEmail(value: unknown, field = 'email'): string {
  if (typeof value !== 'string' || value.trim() === '') throw ValidationError.field(field, 'email is required');
  const email = value.trim().toLowerCase();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.test(email)) throw ValidationError.field(field, 'email must be a valid e-mail address');
  return email;
}

/**
 * An address shortened enough to be recognised by its owner but not read off by someone else who sees
 * the message: `new.person@example.com` → `n***@e***.com`.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${domain.slice(0, 1)}***${tld}`;
}
