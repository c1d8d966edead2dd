import type { CreateTokenDto } from '@lnk/sdk';

export type Scope = CreateTokenDto['scopes'][number];

/** Every scope a token can carry, in words; keyed by the SDK's list, so a new scope does not compile without one. */
export const SCOPE_LABELS: Readonly<Record<Scope, string>> = {
  'user:read': 'Read your account',
  'user:write': 'Change your account',
  'links:read': 'Read links',
  'links:write': 'Create and change links',
  'stats:read': 'Read statistics',
  'tokens:read': 'Read tokens and apps',
  'tokens:write': 'Create tokens and apps',
  'tokens:delete': 'Revoke tokens, delete apps',
  'subscription:read': 'Read your plan',
  'domains:read': 'Read domains',
  'domains:write': 'Add and verify domains',
  'tags:read': 'Read tags',
  'tags:write': 'Create and change tags',
  'webhooks:read': 'Read webhooks',
  'webhooks:write': 'Create and change webhooks',
};

export const SCOPE_OPTIONS = (Object.keys(SCOPE_LABELS) as Scope[]).map((value) => ({ value, label: `${SCOPE_LABELS[value]} (${value})` }));

/**
 * The expiry a date input means: the end of that day where the person is. Empty: none (the token works
 * until revoked). Null for a date the input could not have given.
 */
export function expiryOf(date: string): string | null | undefined {
  if (!date) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const end = new Date(`${date}T23:59:59.999`);
  return Number.isNaN(end.getTime()) ? null : end.toISOString();
}

/** A date for people: the day, in the browser's language. */
export function dayOf(iso: string | null | undefined, never = 'Never'): string {
  if (!iso) return never;
  return new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
