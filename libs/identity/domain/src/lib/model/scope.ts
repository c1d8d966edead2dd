import { ValidationError } from '@lnk/shared/kernel';

/** Every scope a token can carry (spec 5.6). */
export const SCOPES = [
  'user:read',
  'user:write',
  'links:read',
  'links:write',
  'stats:read',
  'tokens:read',
  'tokens:write',
  'tokens:delete',
  'subscription:read',
  'domains:read',
  'domains:write',
  'tags:read',
  'tags:write',
  'webhooks:read',
  'webhooks:write',
] as const;

export type Scope = (typeof SCOPES)[number];

/**
 * What each scope lets a token do, in the words a person granting it reads (the API docs' Authorize
 * dialog; a consent page could show the same). Keyed by `Scope`: a new scope does not compile without one.
 */
export const SCOPE_DESCRIPTIONS: Readonly<Record<Scope, string>> = {
  'user:read': 'Read your account: profile, verification and two-factor state, plan limits and usage',
  'user:write': 'Change your account (name, e-mail, password, two-factor sign-in) and delete it',
  'links:read': 'Read your short links and their QR codes, and export them',
  'links:write': 'Create, change and delete your short links, one by one, in bulk or by CSV import',
  'stats:read': 'Read the visit statistics of your links',
  'tokens:read': 'List your personal access tokens and OAuth clients',
  'tokens:write': 'Create personal access tokens and OAuth clients, change clients and replace their secrets',
  'tokens:delete': 'Revoke your personal access tokens and delete your OAuth clients',
  'subscription:read': 'See the plans and your subscription, and start and finish a checkout',
  'domains:read': 'List your custom domains and their verification state',
  'domains:write': 'Add, verify and remove your custom domains',
  'tags:read': 'List your tags',
  'tags:write': 'Create, change and delete your tags',
  'webhooks:read': 'Read your webhooks and their deliveries',
  'webhooks:write': 'Create, change and delete your webhooks, replace their signing secrets and send test events',
};

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Checks a list of scope names, naming the field and the unknown names; duplicates collapse. */
export function parseScopes(values: readonly string[], field = 'scopes'): Scope[] {
  const unknown = values.filter((v) => !isScope(v));
  if (unknown.length) throw ValidationError.field(field, `unknown scope: ${unknown.join(', ')}`);
  return SCOPES.filter((s) => values.includes(s));
}
