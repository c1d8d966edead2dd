import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Principal, Scope } from '@lnk/identity/domain';

export const PUBLIC_ROUTE = 'lnk:public';
export const REQUIRED_SCOPE = 'lnk:scope';
export const FORM_BODY = 'lnk:form-body';

/** The route needs no token (OAuth endpoints, health, redirects). Every other route declares @RequireScope. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/**
 * The route needs a bearer token holding this scope (spec section 4). Declared on the handler; a route
 * with neither this nor @Public() is refused by the access guard and fails the route walk's test.
 */
export const RequireScope = (scope: Scope): MethodDecorator => SetMetadata(REQUIRED_SCOPE, scope);

/** The route also takes `application/x-www-form-urlencoded` bodies (OAuth endpoints, HTML forms). */
export const AcceptsForm = (): MethodDecorator & ClassDecorator => SetMetadata(FORM_BODY, true);

/** The caller the bearer token identified. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ user: Principal }>().user;
});
