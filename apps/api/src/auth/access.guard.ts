import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@lnk/identity/domain';
import { ForbiddenError, RateLimitedError, UnauthorizedError } from '@lnk/shared/kernel';
import { AppConfig, APP_CONFIG } from '@lnk/composition';
import { consumeRateLimit } from '../rate-limit/rate-limit.guard';
import { type Caller, PUBLIC_ROUTE, REQUIRED_SCOPE } from '@lnk/shared/http';
import { BearerStrategy } from './bearer.strategy';
import { perRoute } from './route-metadata';

/**
 * Deny by default: a public route passes; any other needs a bearer token (in the Authorization header
 * only, never the URL) holding the scope its handler declares with @RequireScope. A route that declares
 * neither is refused outright.
 *
 * The token is checked by the Passport strategy (bearer.strategy.ts), called once per request; a public
 * route never reaches it.
 *
 * A refused request is charged to the API budget here (the rate-limit guard only sees admitted ones): to
 * its address when its token is missing or not valid, so made-up tokens share their sender's budget
 * instead of each bringing a fresh one; past the budget the answer is 429 rather than 401 or 403.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  private readonly accessOf = perRoute((handler, controller) => ({
    isPublic: Boolean(this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [handler, controller])),
    scope: this.reflector.get<string | undefined>(REQUIRED_SCOPE, handler),
  }));

  constructor(
    private readonly reflector: Reflector,
    @InjectThrottlerStorage() private readonly rateCounters: ThrottlerStorage,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly bearer: BearerStrategy,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const access = this.accessOf(context);
    return access.isPublic || this.checked(context, access.scope);
  }

  private async checked(context: ExecutionContext, scope: string | undefined): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest & { user?: Principal }>();
    try {
      return await this.authorize(request, scope);
    } catch (error) {
      if (!(error instanceof UnauthorizedError || error instanceof ForbiddenError)) throw error;
      const outcome = await consumeRateLimit(this.rateCounters, this.config, request, 'api');
      void http.getResponse<FastifyReply>().headers(outcome.headers);
      throw outcome.blocked ? new RateLimitedError(outcome.retryAfterSeconds) : error;
    }
  }

  private async authorize(request: FastifyRequest & { user?: Principal }, scope: string | undefined): Promise<boolean> {
    if (!scope) throw new ForbiddenError('This route is not open to any scope');
    if (!/^Bearer\s+\S+$/i.test(request.headers.authorization ?? '')) throw new UnauthorizedError();
    // A bad token is a failure (401); an error is a fault, not a bad token, and the exception filter
    // renders it (an unreachable database is a 503): clients must keep the token and retry.
    const principal = await this.bearer.principalOf(request);
    // The Caller every context's routes read (@CurrentPrincipal) is identity's Principal, or a part of it.
    request.user = principal satisfies Caller;
    if (!(principal.scopes as readonly string[]).includes(scope)) {
      throw new ForbiddenError(`This request needs the ${scope} scope, which the token does not carry`, { requiredScope: scope });
    }
    return true;
  }
}
