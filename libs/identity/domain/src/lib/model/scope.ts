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

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Checks a list of scope names, naming the field and the unknown names; duplicates collapse. */
export function parseScopes(values: readonly string[], field = 'scopes'): Scope[] {
  const unknown = values.filter((v) => !isScope(v));
  if (unknown.length) throw ValidationError.field(field, `unknown scope: ${unknown.join(', ')}`);
  return SCOPES.filter((s) => values.includes(s));
}
