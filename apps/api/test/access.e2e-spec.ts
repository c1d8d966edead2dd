import { ROUTE_SCOPES as SCOPE_TABLE } from '../src/app-routes';
import { registeredRoutes } from '../src/openapi/openapi';
import { TestApp, useTestApp } from './support/test-app';

describe('access rules of every route', () => {
  let t: TestApp;
  useTestApp((app) => (t = app));

  it('finds the routes the app serves', () => {
    expect(registeredRoutes(t.app)).toContainEqual(expect.objectContaining({ method: 'GET', path: '/health', isPublic: true }));
    expect(registeredRoutes(t.app)).toContainEqual(
      expect.objectContaining({ method: 'DELETE', path: '/user/tokens/:id', isPublic: false }),
    );
  });

  it('has every route either public or in the scope table, never neither', () => {
    const undeclared = registeredRoutes(t.app).filter((r) => !r.isPublic && !(`${r.method} ${r.path}` in SCOPE_TABLE));
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('has no entry in the scope table for a route that does not exist', () => {
    const served = new Set(registeredRoutes(t.app).map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(SCOPE_TABLE).filter((key) => !served.has(key))).toEqual([]);
  });

  it.each([
    [
      '4.2 and 4.3: every endpoint with its scope',
      {
        'GET /user/tokens': 'tokens:read',
        'POST /user/tokens': 'tokens:write',
        'DELETE /user/tokens/:id': 'tokens:delete',
        'POST /user/tokens/revoke-all': 'tokens:delete',
        'PUT /user/oauth-clients/:id': 'tokens:write',
        'DELETE /user/oauth-clients/:id': 'tokens:delete',
        'POST /user/oauth-clients/:id/regenerate-secret': 'tokens:write',
        'GET /user/me': 'user:read',
        'DELETE /user/me': 'user:write',
        'GET /user/me/limits': 'user:read',
      },
    ],
    [
      '4.4: every subscription route needs subscription:read',
      {
        'GET /user/subscription/current': 'subscription:read',
        'POST /user/subscription/checkout': 'subscription:read',
        'POST /user/subscription/verify': 'subscription:read',
        'GET /user/plans': 'subscription:read',
      },
    ],
  ])('covers spec section %s', (_section, scopes) => {
    expect(SCOPE_TABLE).toMatchObject(scopes);
  });
});
