import { ValidationError } from '@lnk/shared/kernel';

export const MAX_TITLE_LENGTH = 200;
export const MAX_DESCRIPTION_LENGTH = 1000;
// Anyone may guess at a protected link from many addresses: at least 8 characters keeps the per-link cap meaningful.
export const MIN_LINK_PASSWORD = 8;
export const MAX_LINK_PASSWORD = 72;

export function checkText(value: string | undefined, field: string, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value.length > max) throw ValidationError.field(field, `${field} must be at most ${max} characters`);
  return value.trim();
}

/** Checked when a password is set; links protected by a shorter one before the minimum rose keep it. */
export function checkLinkPassword(password: string | undefined): string {
  if (!password || password.length < MIN_LINK_PASSWORD || password.length > MAX_LINK_PASSWORD) {
    throw ValidationError.field(
      'password',
      `password must be ${MIN_LINK_PASSWORD} to ${MAX_LINK_PASSWORD} characters when hasPassword is true`,
    );
  }
  return password;
}
