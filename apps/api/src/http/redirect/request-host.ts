import type { FastifyRequest } from 'fastify';
import { shortUrlHost } from '@lnk/links/domain';

/** The request's host name, without port or IPv6 brackets, as short URLs compare hosts (lower case, no trailing dot). */
export function hostOf(request: FastifyRequest): string {
  return shortUrlHost((request.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, ''));
}
