import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DashboardBuild, DashboardFile } from './dashboard-build';

/**
 * The dashboard's own policy: its scripts, styles and API calls from this origin only, no inline script
 * or style (the build emits none), images also as data: and blob: URLs (QR codes, the two-factor QR code),
 * never framed, no <base>, forms posting here only.
 */
export const DASHBOARD_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

function send(request: FastifyRequest, reply: FastifyReply, file: DashboardFile, cacheControl: string): void {
  void reply
    .header('content-security-policy', DASHBOARD_CSP)
    .header('cache-control', cacheControl)
    .header('etag', file.etag)
    .header('vary', 'accept-encoding')
    .type(file.type);
  if (request.headers['if-none-match'] === file.etag) return void reply.code(304).send();
  const gzip = file.gzip && /\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''));
  if (gzip) void reply.header('content-encoding', 'gzip');
  void reply.send(gzip ? file.gzip : file.body);
}

/**
 * GET /app and /app/*: hashed assets cached for a year, index.html for every other path (the dashboard's
 * own routes: /app/tokens, /app/links/…), revalidated on each load so a new build is picked up at once.
 * Registered on Fastify, so /app is one of the API's paths and never a short URL. Without a build
 * (`dir` has no index.html) the paths answer a 404 envelope that says how to build it.
 */
export function serveDashboard(fastify: FastifyInstance, dir: string): DashboardBuild | null {
  const build = DashboardBuild.load(dir);
  const handler = (request: FastifyRequest<{ Params: { '*'?: string } }>, reply: FastifyReply): void => {
    if (!build) {
      return void reply
        .code(404)
        .header('cache-control', 'no-store')
        .send({ status: 404, code: 'NOT_FOUND', message: 'The dashboard is not built: run npm run build (npm start builds it)' });
    }
    const path = request.params['*'] ?? '';
    const file = build.file(path);
    if (file) return send(request, reply, file, file.immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
    // A hashed asset that is not in this build (an old page asking after a deploy): not the page in its place.
    if (path.startsWith('assets/'))
      return void reply
        .code(404)
        .header('cache-control', 'no-store')
        .send({ status: 404, code: 'NOT_FOUND', message: 'No such file in the dashboard' });
    send(request, reply, build.index, 'no-cache');
  };
  fastify.get('/app', handler);
  fastify.get('/app/*', handler);
  return build;
}
