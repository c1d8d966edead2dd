import type { FastifyRequest } from 'fastify';

/** The request's host name, lower-case, without port or IPv6 brackets. */
export function hostOf(request: FastifyRequest): string {
  return (request.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
}

// Short URLs themselves are answered in front of Fastify by the links HTTP adapter's handler:
// see short-url.routes.ts (its composition here) and ../short-url-dispatch.ts (the dispatch).
