import { Inject, Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-http-bearer';
import type { Principal } from '@lnk/identity/domain';
import { AuthenticateUseCase } from '@lnk/identity/domain';

/** OAuth access tokens and personal access tokens alike (spec 5.2). */
@Injectable()
export class BearerStrategy extends PassportStrategy(Strategy, 'bearer') {
  constructor(@Inject(AuthenticateUseCase) private readonly authentication: AuthenticateUseCase) {
    super();
  }

  validate(token: string): Promise<Principal> {
    return this.authentication.execute(token);
  }
}
