import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';

export const PUBLIC_ROUTE = 'lnk:public';
export const REQUIRED_SCOPE = 'lnk:scope';
export const FORM_BODY = 'lnk:form-body';
export const RATE_LIMIT_BUDGET = 'lnk:rate-limit-budget';

/**
 * Who is calling, as every context's HTTP face may rely on: the account the bearer token acts for, and
 * what the token may do. The access guard (apps/api) puts identity's Principal on the request, which has
 * these and more; this library names no context, so identity's own routes annotate their parameter with
 * identity's Principal, and the others need no more than this.
 */
export interface Caller {
  readonly userId: string;
  readonly scopes: readonly string[];
}

/** The route needs no token (OAuth endpoints, health, redirects). Every other route declares @RequireScope. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The route needs a bearer token holding this scope (spec section 4). Declared on the handler; a route
 * with neither this nor @Public() is refused by the access guard and fails the route walk's test. A
 * string, as this library names no context: the route walk (undeclaredRoutes) refuses a scope that no
 * token can carry, given the app's list.
 */
export const RequireScope = (scope: string): MethodDecorator => SetMetadata(REQUIRED_SCOPE, scope);

/** The route also takes `application/x-www-form-urlencoded` bodies (OAuth endpoints, HTML forms). */
export const AcceptsForm = (): MethodDecorator & ClassDecorator => SetMetadata(FORM_BODY, true);

/** The route counts against a budget of its own instead of the API's (QR codes: costly to draw); the rate-limit guard reads it. */
export const RateLimitBudget = (kind: 'api' | 'qr'): MethodDecorator & ClassDecorator => SetMetadata(RATE_LIMIT_BUDGET, kind);

/**
 * The caller the bearer token identified (what the access guard put on the request). A parameter
 * decorator does not type its parameter: the handler declares what it reads, Caller or identity's Principal.
 */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  return context.switchToHttp().getRequest<{ user: Caller }>().user;
});
