import type { FastifyRequest } from 'fastify';

/** The request's host name, lower-case, without port or IPv6 brackets. */
export function hostOf(request: FastifyRequest): string {
  return (request.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
}
