import type { Scope } from '@lnk/identity/domain';

/**
 * Every authenticated endpoint and the scope it needs (spec section 4), in one table. The access guard
 * reads it by the route's method and pattern; a test checks that every registered route is either
 * public or listed here, and that every entry names a real route.
 */
export const SCOPE_TABLE = {
  'GET /user/tokens': 'tokens:read',
  'POST /user/tokens': 'tokens:write',
  'GET /user/tokens/:id': 'tokens:read',
  'DELETE /user/tokens/:id': 'tokens:delete',
  'GET /user/oauth-clients': 'tokens:read',
  'POST /user/oauth-clients': 'tokens:write',
  'GET /user/oauth-clients/:id': 'tokens:read',
  'PUT /user/oauth-clients/:id': 'tokens:write',
  'DELETE /user/oauth-clients/:id': 'tokens:delete',
  'POST /user/oauth-clients/:id/regenerate-secret': 'tokens:write',
  'GET /user/me': 'user:read',
  'PUT /user/me/email': 'user:write',
  'PUT /user/me/password': 'user:write',
  'POST /user/me/enable-twofactor': 'user:write',
  'POST /user/me/twofactor/confirm': 'user:write',
  'GET /user/me/limits': 'user:read',
  'DELETE /user/me': 'user:write',
  'GET /user/link': 'links:read',
  'GET /user/link/:id': 'links:read',
  'GET /user/link/:id/qr': 'links:read',
  'POST /user/link': 'links:write',
  'PUT /user/link/:id': 'links:write',
  'DELETE /user/link/:id': 'links:write',
  'GET /user/domain': 'domains:read',
  'POST /user/domain': 'domains:write',
  'POST /user/domain/:id/verify': 'domains:write',
  'DELETE /user/domain/:id': 'domains:write',
  'GET /user/tag': 'tags:read',
  'POST /user/tag': 'tags:write',
  'GET /user/tag/favorite': 'tags:read',
  'PUT /user/tag/:id': 'tags:write',
  'DELETE /user/tag/:id': 'tags:write',
  'GET /user/stats': 'stats:read',
  'GET /user/plans': 'subscription:read',
  'GET /user/subscription/current': 'subscription:read',
  'POST /user/subscription/checkout': 'subscription:read',
  'POST /user/subscription/verify': 'subscription:read',
} as const satisfies Record<string, Scope>;

export type ScopedRoute = keyof typeof SCOPE_TABLE;

export function scopeOf(method: string, pattern: string): Scope | undefined {
  return (SCOPE_TABLE as Record<string, Scope>)[`${method.toUpperCase()} ${pattern}`];
}
