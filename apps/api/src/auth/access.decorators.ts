import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';

export const PUBLIC_ROUTE = 'lnk:public';
export const FORM_BODY = 'lnk:form-body';

/** The route needs no token (OAuth endpoints, health, redirects). Every other route is in the scope table. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(PUBLIC_ROUTE, true);

/** The route also takes `application/x-www-form-urlencoded` bodies (OAuth endpoints, HTML forms). */
export const AcceptsForm = (): MethodDecorator & ClassDecorator => SetMetadata(FORM_BODY, true);

/** The caller the bearer token identified. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal => {
  return context.switchToHttp().getRequest<{ user: Principal }>().user;
});
