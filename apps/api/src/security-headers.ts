import { helmetHeaders } from '@lnk/links/adapter-http';

/**
 * The headers of every API answer, errors and 404s included: Helmet's defaults, computed from the `helmet`
 * package once at start-up, with the API's Content-Security-Policy (JSON needs no source of any kind). The
 * other headers are the ones the short-URL pages send (DOCUMENT_SECURITY_HEADERS); pages set their own CSP
 * over it. Lower-case names, as Fastify keeps them.
 *
 * Written on the Fastify reply by the service's request hook (http-server.ts), not by Nest's security hook:
 * that one sets each header on the Node response (`setHeader`: name and value checked by regex, one entry
 * each), and one header set there sends the whole answer down Node's slow path, where `writeHead` sets each
 * of Fastify's headers the same way before writing them all. On the reply, the headers are one object that
 * `writeHead` writes in one pass.
 */
export const SECURITY_HEADERS = helmetHeaders({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"], baseUri: ["'none'"] } },
});
