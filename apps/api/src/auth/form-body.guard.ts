import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';
import { ValidationError } from '@lnk/shared/kernel';
import { FORM_BODY } from '@lnk/shared/http';

/** The API speaks JSON; only routes marked @AcceptsForm() take form-encoded bodies. */
@Injectable()
export class FormBodyGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const type = (request.headers['content-type'] ?? '').toLowerCase();
    if (!type.startsWith('application/x-www-form-urlencoded')) return true;
    if (this.reflector.getAllAndOverride<boolean>(FORM_BODY, [context.getHandler(), context.getClass()])) return true;
    throw new ValidationError({ name: 'content-type', error: 'content type must be application/json' }, 'Unsupported content type');
  }
}
