import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The headers Helmet's middleware sets with `options`, computed once: the middleware is run against a
 * response that only records what is set (the headers do not depend on the request), and the result is
 * a frozen object of lower-case names, as Fastify keeps them. Each answer then copies one object, not
 * a dozen `setHeader` calls (each checks name and value, and sends Node's answer down its slow path).
 */
export function helmetHeaders(options: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
      return recorder;
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown = null;
  let done = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    done = true;
    failure = error ?? null;
  });
  // Helmet's middleware is synchronous; were a release to make it otherwise, no header would be silently missing.
  if (!done || failure) throw new Error('helmet did not set its headers synchronously', { cause: failure });
  return Object.freeze(headers);
}

/**
 * Helmet's defaults without its Content-Security-Policy: the headers of every answer, the short-URL pages
 * (404, password form) answered before Fastify and, with its own Content-Security-Policy, every API answer
 * (apps/api security-headers.ts). `pageHeaders()` then sets the page's own CSP, frame and cache rules over them.
 */
export const DOCUMENT_SECURITY_HEADERS = helmetHeaders({ contentSecurityPolicy: false });
