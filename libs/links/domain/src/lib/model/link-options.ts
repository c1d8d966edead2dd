import { parseDateTime, ValidationError } from '@lnk/shared/kernel';
import { hasControlCharacter } from './control-characters';
import { checkDestinationUrl } from './destination-url';

/**
 * A link's optional behaviour beyond the spec's fields (issue 18): its redirect status, an expiry by time
 * or by counted visits, and where visitors go meanwhile (UTM values added, destinations per device and
 * country). A link that has none of them is answered exactly as one of the spec.
 */
export const REDIRECT_TYPES = [301, 302, 307, 308] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];
export const DEFAULT_REDIRECT_TYPE: RedirectType = 302;

/** The devices a link can send elsewhere: by the visitor's OS (iOS, iPadOS, Android), else a desktop browser. */
export const TARGET_DEVICES = ['ios', 'android', 'desktop'] as const;
export type TargetDevice = (typeof TARGET_DEVICES)[number];

export const UTM_FIELDS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmField = (typeof UTM_FIELDS)[number];
export type LinkUtm = Partial<Record<UtmField, string>>;
export const MAX_UTM_VALUE_LENGTH = 200;

/**
 * Destinations by device and by country (ISO 3166-1 alpha-2, upper case); the most specific the visitor matches wins: country, device, then
 * the link's url.
 */
export interface LinkTargets {
  device?: Partial<Record<TargetDevice, string>>;
  country?: Record<string, string>;
}
export const MAX_COUNTRY_TARGETS = 50;
/** A positive int4: the visit counter's column. */
export const MAX_VISITS_LIMIT = 2_147_483_647;

export interface LinkOptions {
  redirectType: RedirectType;
  expiresAt: Date | null;
  /** Where visitors of an expired link go (302); null: a 410 page. */
  expiredUrl: string | null;
  /** Counted visits that reach the destination, then the link is expired; null: no limit. */
  maxVisits: number | null;
  /** Counted visits taken from the limit since it was set (0 without a limit). */
  visitsUsed: number;
  utm: LinkUtm | null;
  targets: LinkTargets | null;
}

export const NO_LINK_OPTIONS: Readonly<LinkOptions> = Object.freeze({
  redirectType: DEFAULT_REDIRECT_TYPE,
  expiresAt: null,
  expiredUrl: null,
  maxVisits: null,
  visitsUsed: 0,
  utm: null,
  targets: null,
});

/** Whether any option differs from a plain link's. */
export function hasLinkOptions(o: LinkOptions): boolean {
  return (
    o.redirectType !== DEFAULT_REDIRECT_TYPE ||
    o.expiresAt !== null ||
    o.expiredUrl !== null ||
    o.maxVisits !== null ||
    o.utm !== null ||
    o.targets !== null
  );
}

/** Expired: past its expiry time, or its visits used up. */
export function isExpired(o: LinkOptions, now: Date): boolean {
  return (o.expiresAt !== null && now.getTime() >= o.expiresAt.getTime()) || (o.maxVisits !== null && o.visitsUsed >= o.maxVisits);
}

/** The options as sent in a create or update body (unchecked: the HTTP layer checks types only). */
export interface LinkOptionFields {
  redirectType?: unknown;
  expiresAt?: unknown;
  expiredUrl?: unknown;
  maxVisits?: unknown;
  utm?: unknown;
  targets?: unknown;
}

const COUNTRY = /^[A-Z]{2}$/;
/**
 * Two letters that name no country: user-assigned (AA, QM-QZ, XA-XZ but Kosovo's XK, ZZ) and the reserved EU, EZ, UN, UK (Britain is GB).
 */
const NOT_A_COUNTRY = /^(AA|Q[M-Z]|X[A-JL-Z]|ZZ|EU|EZ|UN|UK)$/;
const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
let regionNames: Intl.DisplayNames | null | undefined;

/** Whether ICU knows the code as a region (where it can tell; a build without the data takes any two letters). */
function isKnownRegion(code: string): boolean {
  if (regionNames === undefined) {
    try {
      regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    } catch {
      regionNames = null;
    }
  }
  if (!regionNames) return true;
  try {
    return regionNames.of(code) !== undefined;
  } catch {
    return false;
  }
}

export function checkRedirectType(value: unknown): RedirectType {
  if (!REDIRECT_TYPES.includes(value as RedirectType))
    throw ValidationError.field('redirectType', `redirectType must be one of ${REDIRECT_TYPES.join(', ')}`);
  return value as RedirectType;
}

/** An ISO 8601 date-time with its offset, of a day that exists (the form alone: no clock); null clears. */
export function parseExpiresAt(value: unknown): Date | null {
  if (value === null) return null;
  const at = typeof value === 'string' ? parseDateTime(value) : null;
  if (!at)
    throw ValidationError.field(
      'expiresAt',
      'expiresAt must be an ISO 8601 date-time with its offset (e.g. 2030-01-31T12:00:00Z), or null',
    );
  return at;
}

/** An ISO 8601 date-time with its offset, later than `now`; null clears. */
export function checkExpiresAt(value: unknown, now: Date): Date | null {
  const at = parseExpiresAt(value);
  if (at && at.getTime() <= now.getTime()) throw ValidationError.field('expiresAt', 'expiresAt must be in the future');
  return at;
}

export function checkExpiredUrl(value: unknown, ownHosts: readonly string[]): string | null {
  return value === null ? null : checkDestinationUrl(value, ownHosts, 'expiredUrl');
}

export function checkMaxVisits(value: unknown): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > MAX_VISITS_LIMIT) {
    throw ValidationError.field('maxVisits', `maxVisits must be a whole number from 1 to ${MAX_VISITS_LIMIT}, or null`);
  }
  return value;
}

/** UTM values as `{source, medium, campaign, term, content}`, each optional; an empty object or null clears. */
export function checkUtm(value: unknown): LinkUtm | null {
  if (value === null) return null;
  if (!isPlainObject(value)) throw ValidationError.field('utm', 'utm must be an object, or null');
  const errors: { name: string; error: string }[] = [];
  const utm: LinkUtm = {};
  for (const [key, raw] of Object.entries(value)) {
    const name = `utm.${key}`;
    if (!UTM_FIELDS.includes(key as UtmField)) errors.push({ name, error: `utm takes ${UTM_FIELDS.join(', ')} only` });
    else if (typeof raw !== 'string' || raw.trim() === '') errors.push({ name, error: `${name} must be a non-empty string` });
    else if (raw.length > MAX_UTM_VALUE_LENGTH) errors.push({ name, error: `${name} must be at most ${MAX_UTM_VALUE_LENGTH} characters` });
    else if (hasControlCharacter(raw)) errors.push({ name, error: `${name} may not contain control characters` });
    else utm[key as UtmField] = raw.trim();
  }
  if (errors.length) throw new ValidationError(errors);
  return Object.keys(utm).length ? utm : null;
}

/** `{device: {ios, android, desktop}, country: {US: url, ...}}`, every destination checked as `url` is; an empty object or null clears. */
export function checkTargets(value: unknown, ownHosts: readonly string[]): LinkTargets | null {
  if (value === null) return null;
  if (!isPlainObject(value)) throw ValidationError.field('targets', 'targets must be an object with device and/or country, or null');
  const errors: { name: string; error: string }[] = [];
  const destination = (raw: unknown, name: string): string | undefined => {
    try {
      return checkDestinationUrl(raw, ownHosts, name);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.errors);
      return undefined;
    }
  };
  const targets: LinkTargets = {};
  for (const [key, group] of Object.entries(value)) {
    if (key !== 'device' && key !== 'country') {
      errors.push({ name: `targets.${key}`, error: 'targets takes device and country only' });
      continue;
    }
    if (!isPlainObject(group)) {
      errors.push({ name: `targets.${key}`, error: `targets.${key} must be an object` });
      continue;
    }
    const found: Record<string, string> = {};
    const entries = Object.entries(group);
    if (key === 'country' && entries.length > MAX_COUNTRY_TARGETS)
      errors.push({ name: 'targets.country', error: `targets.country holds at most ${MAX_COUNTRY_TARGETS} countries` });
    for (const [name, raw] of entries) {
      const field = `targets.${key}.${name}`;
      if (key === 'device' && !TARGET_DEVICES.includes(name as TargetDevice))
        errors.push({ name: field, error: `a device is one of ${TARGET_DEVICES.join(', ')}` });
      else if (key === 'country' && (!COUNTRY.test(name) || NOT_A_COUNTRY.test(name) || !isKnownRegion(name)))
        errors.push({ name: field, error: 'a country is an ISO 3166-1 alpha-2 code in upper case (e.g. US, GB)' });
      else {
        const url = destination(raw, field);
        if (url !== undefined) found[name] = url;
      }
    }
    if (Object.keys(found).length) targets[key] = found;
  }
  if (errors.length) throw new ValidationError(errors);
  return targets.device || targets.country ? targets : null;
}

/**
 * The options a create or update body gives, checked, over `current` (a new link's: none). Every field's
 * errors at once. Setting a visit limit where there was none starts its count at 0; changing it keeps the
 * visits already used; clearing it forgets them.
 */
export function checkLinkOptions(fields: LinkOptionFields, current: LinkOptions, now: Date, ownHosts: readonly string[]): LinkOptions {
  const errors: { name: string; error: string }[] = [];
  const check = <T>(sent: unknown, checker: (value: unknown) => T, kept: T): T => {
    if (sent === undefined) return kept;
    try {
      return checker(sent);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.errors);
      return kept;
    }
  };
  const next: LinkOptions = {
    redirectType: check(fields.redirectType, checkRedirectType, current.redirectType),
    expiresAt: check(fields.expiresAt, (v) => checkExpiresAt(v, now), current.expiresAt),
    expiredUrl: check(fields.expiredUrl, (v) => checkExpiredUrl(v, ownHosts), current.expiredUrl),
    maxVisits: check(fields.maxVisits, checkMaxVisits, current.maxVisits),
    visitsUsed: current.visitsUsed,
    utm: check(fields.utm, checkUtm, current.utm),
    targets: check(fields.targets, (v) => checkTargets(v, ownHosts), current.targets),
  };
  if (errors.length) throw new ValidationError(errors);
  if (next.maxVisits === null || current.maxVisits === null) next.visitsUsed = 0;
  return next;
}
