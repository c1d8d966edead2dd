import { ValidationError } from '@lnk/shared/kernel';

// Pragmatic address check: one @, no spaces, a dotted domain of letters, digits and hyphens.
const EMAIL = /^[^\s@"(),:;<>[\\\]]{1,64}@(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;

/** Returns the address trimmed and lowercased, or throws a validation error on `field`. */
export function normalizeEmail(value: unknown, field = 'email'): string {
  if (typeof value !== 'string' || value.trim() === '') throw ValidationError.field(field, 'email is required');
  const email = value.trim().toLowerCase();
  if (email.length > 254 || !EMAIL.test(email)) throw ValidationError.field(field, 'email must be a valid e-mail address');
  return email;
}
