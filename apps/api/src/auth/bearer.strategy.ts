import { Inject, Injectable } from '@nestjs/common';
import type { Principal } from '@lnk/identity/domain';
import { AuthenticateUseCase } from '@lnk/identity/domain';
import { UnauthorizedError } from '@lnk/shared/kernel';

/** The parts of a request the bearer token may come from (a Fastify request has them all). */
export interface BearerSource {
  headers: { authorization?: string };
  body?: unknown;
  query?: unknown;
}

const accessTokenOf = (value: unknown): unknown => (value && typeof value === 'object' ? (value as { access_token?: unknown }).access_token : undefined);

/**
 * OAuth access tokens and personal access tokens alike (spec 5.2), read from a request as passport-http-bearer's
 * strategy reads it (it was run through @nestjs/passport until the profile of GET /user/me showed it: a
 * strategy object made per request, Passport's action callbacks, Nest's validate() wrapper and its promise,
 * about 2.5% of the route's CPU for a header split):
 *
 * - an Authorization header that is not two parts separated by one space is refused (Passport's 400 failure,
 *   here 401 UNAUTHORIZED as before); of two parts, the second is the token when the first is `Bearer` in any case;
 * - a token also given as `access_token` in the body or the query is refused (a token must not travel in a
 *   URL, and two tokens are ambiguous); one given only there is taken, as Passport did (the access guard
 *   already asks for the header);
 * - no token is a 401; the token's validation (AuthenticateUseCase) answers the principal or throws, and
 *   what it throws is thrown as it is (a fault is not a bad token).
 */
@Injectable()
export class BearerStrategy {
  constructor(@Inject(AuthenticateUseCase) private readonly authentication: AuthenticateUseCase) {}

  principalOf(request: BearerSource): Promise<Principal> {
    let token: unknown;
    const header = request.headers.authorization;
    if (header) {
      const parts = header.split(' ');
      if (parts.length !== 2) return Promise.reject(new UnauthorizedError());
      if (/^Bearer$/i.test(parts[0])) token = parts[1];
    }
    for (const elsewhere of [accessTokenOf(request.body), accessTokenOf(request.query)]) {
      if (!elsewhere) continue;
      if (token) return Promise.reject(new UnauthorizedError());
      token = elsewhere;
    }
    if (!token) return Promise.reject(new UnauthorizedError());
    return this.authentication.execute(token as string);
  }
}
