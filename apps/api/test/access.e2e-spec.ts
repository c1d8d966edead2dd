import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { PUBLIC_ROUTE } from '../src/auth/access.decorators';
import { SCOPE_TABLE } from '../src/auth/scope-table';
import { startTestApp, TestApp } from './support/test-app';

interface Route {
  method: string;
  path: string;
  isPublic: boolean;
}

/** Every route the app registered, with what it declares about access. */
function registeredRoutes(t: TestApp): Route[] {
  const routes: Route[] = [];
  for (const module of t.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as { prototype: Record<string, unknown> } & object;
      const prefix = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
      for (const key of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = controller.prototype[key];
        if (key === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
        routes.push({
          method,
          path: `/${[prefix, Reflect.getMetadata(PATH_METADATA, handler)].flat().join('/')}`.replace(/\/+/g, '/').replace(/\/$/, ''),
          isPublic: Boolean(Reflect.getMetadata(PUBLIC_ROUTE, handler) ?? Reflect.getMetadata(PUBLIC_ROUTE, controller)),
        });
      }
    }
  }
  return routes;
}

describe('access rules of every route', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('finds the routes the app serves', () => {
    expect(registeredRoutes(t)).toContainEqual({ method: 'GET', path: '/health', isPublic: true });
    expect(registeredRoutes(t)).toContainEqual({ method: 'DELETE', path: '/user/tokens/:id', isPublic: false });
  });

  it('has every route either public or in the scope table, never neither', () => {
    const undeclared = registeredRoutes(t).filter((r) => !r.isPublic && !(`${r.method} ${r.path}` in SCOPE_TABLE));
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('has no entry in the scope table for a route that does not exist', () => {
    const served = new Set(registeredRoutes(t).map((r) => `${r.method} ${r.path}`));
    expect(Object.keys(SCOPE_TABLE).filter((key) => !served.has(key))).toEqual([]);
  });

  it('covers every endpoint of spec section 4.2 and 4.3 with its scope', () => {
    expect(SCOPE_TABLE).toMatchObject({
      'GET /user/tokens': 'tokens:read',
      'POST /user/tokens': 'tokens:write',
      'DELETE /user/tokens/:id': 'tokens:delete',
      'PUT /user/oauth-clients/:id': 'tokens:write',
      'DELETE /user/oauth-clients/:id': 'tokens:delete',
      'POST /user/oauth-clients/:id/regenerate-secret': 'tokens:write',
      'GET /user/me': 'user:read',
      'DELETE /user/me': 'user:write',
      'GET /user/me/limits': 'user:read',
    });
  });

  it('covers spec section 4.4: every subscription route needs subscription:read', () => {
    expect(SCOPE_TABLE).toMatchObject({
      'GET /user/subscription/current': 'subscription:read',
      'POST /user/subscription/checkout': 'subscription:read',
      'POST /user/subscription/verify': 'subscription:read',
      'GET /user/plans': 'subscription:read',
    });
  });
});
