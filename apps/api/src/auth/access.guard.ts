import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { UnauthorizedError } from '@lnk/shared/kernel';
import { PUBLIC_ROUTE } from './access.decorators';

/**
 * Deny by default: a route not marked public needs a valid token. Until bearer authentication is
 * wired, no token is valid, so every non-public route answers 401.
 */
@Injectable()
export class AccessGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    throw new UnauthorizedError();
  }
}
