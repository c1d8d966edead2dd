import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Principal } from '@lnk/identity/domain';
import { AuthenticateUseCase } from '@lnk/identity/domain';
import { UnauthorizedError } from '@lnk/shared/kernel';

/** OAuth access tokens and personal access tokens alike (spec 5.2). */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(AuthenticateUseCase) private readonly authentication: AuthenticateUseCase) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.authentication.execute(token);
  }

  /**
   * The principal of one request, through this strategy as Passport's authenticate() runs it for a single
   * strategy with a callback (what Nest's AuthGuard does), without the rest of that machinery: the guard's
   * option merging, Passport's middleware and the request methods it adds (logIn, logOut,
   * isAuthenticated), and the promise and callbacks wrapped around them, for every request.
   *
   * As there: the strategy runs on a per-request object whose prototype it is, with the action functions
   * set on it; a failure (no token, a malformed Authorization header, a token also given in the query or
   * body) is a 401 UNAUTHORIZED, an error (the token's validation threw) is thrown as it is.
   */
  principalOf(request: unknown): Promise<Principal> {
    return new Promise<Principal>((resolve, reject) => {
      const attempt = Object.create(this) as BearerStrategy & {
        success(user: unknown): void;
        fail(): void;
        error(error: unknown): void;
        pass(): void;
        redirect(): void;
      };
      attempt.success = (user) => (user ? resolve(user as Principal) : reject(new UnauthorizedError()));
      attempt.fail = () => reject(new UnauthorizedError());
      attempt.error = reject;
      // Never called by the bearer strategy; no principal either way.
      attempt.pass = attempt.redirect = () => reject(new UnauthorizedError());
      attempt.authenticate(request as Parameters<BearerStrategy['authenticate']>[0]);
    });
  }
}
