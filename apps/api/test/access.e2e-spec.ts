import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { PUBLIC_ROUTE, REQUIRED_SCOPES } from '../src/auth/access.decorators';
import { startTestApp, TestApp } from './support/test-app';

interface Route {
  method: string;
  path: string;
  isPublic: boolean;
  scopes: string[] | undefined;
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
          scopes: Reflect.getMetadata(REQUIRED_SCOPES, handler) ?? Reflect.getMetadata(REQUIRED_SCOPES, controller),
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
    expect(registeredRoutes(t)).toContainEqual({ method: 'GET', path: '/health', isPublic: true, scopes: undefined });
  });

  it('has every route either public or requiring a scope, never neither', () => {
    const undeclared = registeredRoutes(t).filter((r) => !r.isPublic && !(r.scopes && r.scopes.length));
    expect(undeclared.map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });
});
