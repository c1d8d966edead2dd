import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { FastifyRequest } from 'fastify';
import type { Principal } from '@lnk/identity/domain';
import { ForbiddenError, UnauthorizedError } from '@lnk/shared/kernel';
import { PUBLIC_ROUTE } from './access.decorators';
import { scopeOf } from './scope-table';

/**
 * Deny by default: a public route passes; any other needs a bearer token (in the Authorization header
 * only, never the URL) holding the scope the scope table names for the route. A route missing from the
 * table is refused outright.
 */
@Injectable()
export class AccessGuard extends AuthGuard('bearer') {
  constructor(private readonly reflector: Reflector) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()])) return true;
    const request = context.switchToHttp().getRequest<FastifyRequest & { user?: Principal }>();
    const pattern = (request.routeOptions.url ?? '').replace(/^\/v1(?=\/)/, '');
    const scope = scopeOf(request.method, pattern);
    if (!scope) throw new ForbiddenError('This route is not open to any scope');
    if (!/^Bearer\s+\S+$/i.test(request.headers.authorization ?? '')) throw new UnauthorizedError();
    await super.canActivate(context);
    const principal = request.user as Principal;
    if (!principal.scopes.includes(scope)) {
      throw new ForbiddenError(`This request needs the ${scope} scope, which the token does not carry`, { requiredScope: scope });
    }
    return true;
  }

  override handleRequest<T>(error: unknown, principal: T): T {
    // A bad token is a failure (no principal); an error is a fault, not a bad token, and the exception
    // filter renders it (an unreachable database is a 503): clients must keep the token and retry.
    if (error) throw error;
    if (!principal) throw new UnauthorizedError();
    return principal;
  }
}
