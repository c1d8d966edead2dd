import { resolveSecurityHeaders } from '@nestjs/core/security/security-headers.js';

/**
 * Helmet's defaults as Nest builds them (`app.useSecurityHeaders()`'s own resolution of these options), with
 * the API's Content-Security-Policy: the headers of every answer, errors and 404s included. Pages set their
 * own CSP over it.
 *
 * Written on the Fastify reply by the service's request hook (http-server.ts), not by Nest's security hook:
 * that one sets each header on the Node response (`setHeader`: name and value checked by regex, one entry
 * each), and one header set there sends the whole answer down Node's slow path, where `writeHead` sets each
 * of Fastify's headers the same way before writing them all. On the reply, the headers are one object that
 * `writeHead` writes in one pass.
 */
const resolved = resolveSecurityHeaders({
  contentSecurityPolicy: { useDefaults: false, directives: { 'default-src': ["'none'"], 'frame-ancestors': ["'none'"], 'base-uri': ["'none'"] } },
});

/** Lower-case names, as Fastify keeps them (Nest removes X-Powered-By, which Fastify never sets). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(resolved.headers.map(([name, value]) => [name.toLowerCase(), value])),
);
