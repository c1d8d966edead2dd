import type { CreateLinkDto, Link, UpdateLinkDto } from '@lnk/sdk';

export type RedirectType = 301 | 302 | 307 | 308;
export const REDIRECT_TYPES: readonly RedirectType[] = [302, 301, 307, 308];
export const DEVICES = ['ios', 'android', 'desktop'] as const;
export type Device = (typeof DEVICES)[number];
export const UTM_KEYS = ['source', 'medium', 'campaign', 'term', 'content'] as const;
export type UtmKey = (typeof UTM_KEYS)[number];

/** A country target as the form edits it: an ISO code and where its visitors go. */
export interface CountryTarget {
  country: string;
  url: string;
}

/** What the create and edit form holds: text as typed, turned into a body by `createBody`/`updateBody`. */
export interface LinkFormValues {
  url: string;
  slug: string;
  title: string;
  description: string;
  domainId: string;
  status: boolean;
  isFavorite: boolean;
  hasPassword: boolean;
  /** A new password; empty on edit keeps the one the link has. */
  password: string;
  /** `YYYY-MM-DDTHH:mm` in the browser's time zone, as an `<input type="datetime-local">` gives it. */
  expiresAt: string;
  expiredUrl: string;
  maxVisits: string;
  redirectType: RedirectType;
  devices: Record<Device, string>;
  countries: CountryTarget[];
  utm: Record<UtmKey, string>;
  tagIds: string[];
}

export function emptyLinkForm(): LinkFormValues {
  return {
    url: '',
    slug: '',
    title: '',
    description: '',
    domainId: '',
    status: true,
    isFavorite: false,
    hasPassword: false,
    password: '',
    expiresAt: '',
    expiredUrl: '',
    maxVisits: '',
    redirectType: 302,
    devices: { ios: '', android: '', desktop: '' },
    countries: [],
    utm: { source: '', medium: '', campaign: '', term: '', content: '' },
    tagIds: [],
  };
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local value in the browser's time zone. */
export function localDateTime(iso: string): string {
  const d = new Date(iso);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The form's values of a stored link, for editing it. */
export function linkFormOf(link: Link): LinkFormValues {
  const empty = emptyLinkForm();
  return {
    ...empty,
    url: link.url,
    slug: link.slug,
    title: link.title ?? '',
    description: link.description ?? '',
    domainId: link.domainId ?? '',
    status: link.status,
    isFavorite: link.isFavorite === true,
    hasPassword: link.hasPassword,
    expiresAt: link.expiresAt ? localDateTime(link.expiresAt) : '',
    expiredUrl: link.expiredUrl ?? '',
    maxVisits: link.maxVisits !== undefined ? String(link.maxVisits) : '',
    redirectType: link.redirectType ?? 302,
    devices: { ...empty.devices, ...link.targets?.device },
    countries: Object.entries(link.targets?.country ?? {}).map(([country, url]) => ({ country, url })),
    utm: { ...empty.utm, ...link.utm },
    tagIds: link.tags.map((tag) => tag.id),
  };
}

/** The targets the form names, or null when it names none (null clears them on edit). */
function targetsOf(values: LinkFormValues): NonNullable<CreateLinkDto['targets']> | null {
  const device = Object.fromEntries(DEVICES.filter((d) => values.devices[d].trim()).map((d) => [d, values.devices[d].trim()]));
  // A half-filled row is sent as it is, so the API names what is wrong with it (targets.country...).
  const country = Object.fromEntries(
    values.countries.filter((c) => c.country.trim() || c.url.trim()).map((c) => [c.country.trim().toUpperCase(), c.url.trim()]),
  );
  if (!Object.keys(device).length && !Object.keys(country).length) return null;
  return { ...(Object.keys(device).length ? { device } : {}), ...(Object.keys(country).length ? { country } : {}) };
}

function utmOf(values: LinkFormValues): NonNullable<CreateLinkDto['utm']> | null {
  const utm = Object.fromEntries(UTM_KEYS.filter((k) => values.utm[k].trim()).map((k) => [k, values.utm[k].trim()]));
  return Object.keys(utm).length ? utm : null;
}

function countOf(text: string): number {
  return Number(text.trim());
}

/**
 * What the form can tell before asking, by field: only what JSON could not carry as typed (a count
 * that is no number would be sent as null, which clears the limit). Everything else is the API's to say.
 */
export function formProblems(values: LinkFormValues): Record<string, string> {
  const problems: Record<string, string> = {};
  if (values.maxVisits.trim() && !/^\d+$/.test(values.maxVisits.trim()))
    problems['maxVisits'] = 'Type a whole number of visits, or leave it empty for no limit.';
  return problems;
}

/** An ISO instant with its offset (UTC) of a datetime-local value; what cannot be read stays as typed, for the API to refuse. */
function instantOf(local: string): string {
  const d = new Date(local);
  return Number.isNaN(d.getTime()) ? local : d.toISOString();
}

/** The body of POST /user/link: what is left empty is left out, and the service chooses (a random slug, 302). */
export function createBody(values: LinkFormValues): CreateLinkDto {
  const targets = targetsOf(values);
  const utm = utmOf(values);
  return {
    url: values.url.trim(),
    status: values.status,
    ...(values.slug.trim() ? { slug: values.slug.trim() } : {}),
    ...(values.title.trim() ? { title: values.title.trim() } : {}),
    ...(values.description.trim() ? { description: values.description.trim() } : {}),
    ...(values.domainId ? { domainId: values.domainId } : {}),
    ...(values.isFavorite ? { isFavorite: true } : {}),
    ...(values.hasPassword ? { hasPassword: true, password: values.password } : {}),
    ...(values.expiresAt ? { expiresAt: instantOf(values.expiresAt) } : {}),
    ...(values.expiredUrl.trim() ? { expiredUrl: values.expiredUrl.trim() } : {}),
    ...(values.maxVisits.trim() ? { maxVisits: countOf(values.maxVisits) } : {}),
    ...(values.redirectType !== 302 ? { redirectType: values.redirectType } : {}),
    ...(targets ? { targets } : {}),
    ...(utm ? { utm } : {}),
    ...(values.tagIds.length ? { tags: values.tagIds } : {}),
  };
}

/**
 * The body of PUT /user/link/{id}: every field the form shows, emptied ones cleared (null), so that what
 * the form shows is what the link becomes. The password is sent only when it changes: a link keeps its
 * password unless a new one is typed or protection is turned off.
 */
export function updateBody(values: LinkFormValues, before: Pick<Link, 'hasPassword'>): UpdateLinkDto {
  const password = !values.hasPassword
    ? before.hasPassword
      ? { hasPassword: false }
      : {}
    : values.password || !before.hasPassword
      ? { hasPassword: true, password: values.password }
      : {};
  return {
    url: values.url.trim(),
    slug: values.slug.trim(),
    title: values.title.trim(),
    description: values.description.trim(),
    status: values.status,
    isFavorite: values.isFavorite,
    domainId: values.domainId || null,
    ...password,
    expiresAt: values.expiresAt ? instantOf(values.expiresAt) : null,
    expiredUrl: values.expiredUrl.trim() || null,
    maxVisits: values.maxVisits.trim() ? countOf(values.maxVisits) : null,
    redirectType: values.redirectType,
    targets: targetsOf(values),
    utm: utmOf(values),
    tags: values.tagIds,
  };
}
