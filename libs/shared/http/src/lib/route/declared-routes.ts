import { RequestMethod, Type } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { FORM_BODY, PUBLIC_ROUTE, REQUIRED_SCOPE } from '../access/access.decorators';
import { ROUTE_RESPONSE, RouteResponse } from './responds.decorator';
import { ETAG_ROUTE, IDEMPOTENT_ROUTE, type Idempotency, PathParameter, ROUTE_PARAMS } from './route.decorator';

/** One handler of a controller, with what its decorators declare. */
export interface RegisteredRoute {
  method: string;
  /** `/user/link/:id` */
  path: string;
  isPublic: boolean;
  /** @RequireScope; null on public routes (and on a route that forgot it, which undeclaredRoutes names). */
  scope: string | null;
  /** @Responds or @RespondsRaw. */
  response: RouteResponse | null;
  /** Takes `application/x-www-form-urlencoded` bodies besides JSON (@AcceptsForm). */
  acceptsForm: boolean;
  query: Type | null;
  body: Type | null;
  /** Path parameters the route describes itself (@Route's params). */
  params: Record<string, PathParameter>;
  /** Takes an Idempotency-Key (@Route's idempotent). */
  idempotent: Idempotency | null;
  /** Answers an ETag and honours If-None-Match or If-Match (@Route's etag). */
  etag: boolean;
}

/** Handler metadata, else the controller's (as Nest's Reflector.getAllAndOverride reads it). */
const declared = (key: string, handler: object, controller: Type): unknown =>
  Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);

/** Every route of these controllers, read from their decorators: no instance, no running app needed. */
export function routesOf(controllers: readonly Type[]): RegisteredRoute[] {
  const routes: RegisteredRoute[] = [];
  for (const controller of controllers) {
    const prototype = controller.prototype as Record<string, unknown>;
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
    for (const key of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[key];
      if (key === 'constructor' || typeof handler !== 'function' || Reflect.getMetadata(PATH_METADATA, handler) === undefined) continue;
      const types = (Reflect.getMetadata('design:paramtypes', prototype, key) ?? []) as Type[];
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, key) ?? {}) as Record<string, { index: number; data?: unknown }>;
      const argOf = (kind: RouteParamtypes): Type | null => {
        const entry = Object.entries(args).find(([name, arg]) => name.startsWith(`${kind}:`) && arg.data === undefined);
        const type = entry ? types[entry[1].index] : undefined;
        return type && ![String, Number, Boolean, Object].includes(type as never) ? type : null;
      };
      routes.push({
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod],
        path: `/${[prefix, Reflect.getMetadata(PATH_METADATA, handler)].flat().join('/')}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1'),
        isPublic: Boolean(declared(PUBLIC_ROUTE, handler, controller)),
        scope: (Reflect.getMetadata(REQUIRED_SCOPE, handler) as string | undefined) ?? null,
        response: (Reflect.getMetadata(ROUTE_RESPONSE, handler) as RouteResponse | undefined) ?? null,
        acceptsForm: Boolean(declared(FORM_BODY, handler, controller)),
        query: argOf(RouteParamtypes.QUERY),
        body: argOf(RouteParamtypes.BODY),
        params: (Reflect.getMetadata(ROUTE_PARAMS, handler) as Record<string, PathParameter> | undefined) ?? {},
        idempotent: (Reflect.getMetadata(IDEMPOTENT_ROUTE, handler) as Idempotency | undefined) ?? null,
        etag: Reflect.getMetadata(ETAG_ROUTE, handler) === true,
      });
    }
  }
  return routes;
}

/**
 * Deny by default, and documented by construction: what is wrong with each route's declarations. A
 * route must be either @Public() or @RequireScope(…), never both nor neither, with a scope among
 * `scopes` (those a token can carry: a misspelt one would refuse every caller), and must declare its
 * success answer (@Responds or @RespondsRaw), or its operation would be documented with no schema.
 */
export function undeclaredRoutes(routes: readonly RegisteredRoute[], scopes: readonly string[]): string[] {
  return routes.flatMap((route) => {
    const name = `${route.method} ${route.path}`;
    const problems: string[] = [];
    if (route.isPublic && route.scope) problems.push(`${name}: both @Public() and @RequireScope('${route.scope}')`);
    if (!route.isPublic && !route.scope) problems.push(`${name}: neither @Public() nor @RequireScope`);
    if (route.scope && !scopes.includes(route.scope)) problems.push(`${name}: @RequireScope('${route.scope}'), a scope no token carries`);
    if (!route.response) problems.push(`${name}: no @Responds or @RespondsRaw`);
    return problems;
  });
}

/** `METHOD /path/:id` → the scope it needs, for every scoped route (the e2e suites walk it). */
export function scopeTable(routes: readonly RegisteredRoute[]): Record<string, string> {
  return Object.fromEntries(routes.flatMap((r) => (r.scope && !r.isPublic ? [[`${r.method} ${r.path}`, r.scope]] : [])));
}

/** `/user/link/:id` as OpenAPI writes it: `/user/link/{id}`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** `METHOD /path/{id}` (OpenAPI's spelling) → the declared success answer of every route that has one. */
export function responseTable(routes: readonly RegisteredRoute[]): Record<string, RouteResponse> {
  return Object.fromEntries(routes.flatMap((r) => (r.response ? [[`${r.method} ${openApiPath(r.path)}`, r.response]] : [])));
}
