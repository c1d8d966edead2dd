import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { errorCodes, FastifyError, FastifyInstance, FastifyReply, FastifyRequest, LogController } from 'fastify';
import type { Bindings, ChildLoggerOptions, Logger } from 'pino';
import { AppConfig, APP_CONFIG, LOGGER } from '@lnk/composition';
import type { EarlyListener } from './http-listener';
import { AppMetrics } from './metrics/app-metrics';
import { SwaggerModule } from '@nestjs/swagger';
import { buildOpenApiDocument } from './openapi/openapi';
import { SWAGGER_UI_CSS, SWAGGER_UI_PLUGINS } from './openapi/swagger-ui';
import { ShortUrlRoutes } from './http/redirect/short-url.routes';
import { ShortUrlDispatch } from './http/short-url-dispatch';
import { RequestLogger } from './logging/request-logger';
import { IMPORT_BODY_LIMIT } from '@lnk/links/adapter-nest';
import { SECURITY_HEADERS } from './security-headers';
import { serveDashboard } from '@lnk/shared/web-app';
import { getStorageToken, ThrottlerStorage } from '@nestjs/throttler';
import { ErrorAnswers } from '@lnk/shared/http';
import { McpTools, serveMcp } from '@lnk/mcp/adapter-nest';
import { BearerStrategy } from './auth/bearer.strategy';
import { consumeRateLimit } from './rate-limit/rate-limit.guard';
import { SERVICE_VERSION } from './version';

/** Each adapter's short-URL dispatch, in front of its Fastify handler (see short-url-dispatch.ts). */
const dispatches = new WeakMap<object, ShortUrlDispatch>();

const DOCS_CSP =
  "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'; base-uri 'none'";

const trustHops = (hops: number) => (_address: string, hop: number) => hop < hops;

export function stripVersionPrefix(url: string): string {
  return /^\/v1(?=\/|\?|$)/.test(url) ? url.slice(3).replace(/^(?!\/)/, '/') : url;
}

/**
 * From the first moment of a shutdown, every new API request is answered 503 SERVICE_UNAVAILABLE in the
 * envelope, with Retry-After and Connection: close (Fastify's own answer while closing is a body of its
 * own shape), after the security headers and request id are on it (the request hook of
 * configureHttpServer asks `turnedAway` once it wrote them: one hook step less for every request); requests
 * in flight finish. Short URLs are answered in front of Fastify (short-url-dispatch.ts) until their
 * connection closes.
 */
function turnAwayWhileDraining(fastify: FastifyInstance): (reply: FastifyReply) => boolean {
  let draining = false;
  fastify.addHook('preClose', (done) => {
    draining = true;
    done();
  });
  return (reply) => {
    if (!draining) return false;
    void reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '5')
      .header('cache-control', 'no-store')
      .send({ status: 503, code: 'SERVICE_UNAVAILABLE', message: 'The service is shutting down, try again shortly' });
    return true;
  };
}

/** The routes that take a text/csv body, and how large one may be (see acceptCsvBodies). */
const CSV_ROUTES: Record<string, number> = { '/user/link/import': IMPORT_BODY_LIMIT };

/**
 * text/csv bodies, for the routes of CSV_ROUTES only, each with its own limit (the link import's 10 MB,
 * not the JSON body limit): read whole into a Buffer, refused past the limit (413) as they arrive. On any
 * other route a text/csv body is refused before a byte of it is read, as any type but JSON is.
 */
function acceptCsvBodies(fastify: FastifyInstance): void {
  fastify.addContentTypeParser('text/csv', (request, payload, done) => {
    const limit = CSV_ROUTES[request.routeOptions.url ?? ''];
    if (limit === undefined) return done(new errorCodes.FST_ERR_CTP_INVALID_MEDIA_TYPE(), undefined);
    if (Number(request.headers['content-length']) > limit) return done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE(), undefined);
    const chunks: Buffer[] = [];
    let size = 0;
    let finished = false;
    const finish = (error: Error | null, body?: Buffer) => {
      if (finished) return;
      finished = true;
      payload.removeAllListeners('data');
      done(error, body);
    };
    payload.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) return finish(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      chunks.push(chunk);
    });
    payload.on('end', () => finish(null, Buffer.concat(chunks)));
    payload.on('error', (error) => finish(error));
  });
}

/**
 * Closing the server closes the keep-alive connections idle at that moment only: one busy with a request
 * stays open after its answer until the keep-alive timeout (72 s), and holds the shutdown that long.
 * While the server drains, each connection is closed as soon as it has answered.
 */
function closeConnectionsOnceIdle(fastify: FastifyInstance): void {
  fastify.addHook('preClose', (done) => {
    const timer = setInterval(() => fastify.server.closeIdleConnections(), 50);
    timer.unref();
    fastify.server.once('close', () => clearInterval(timer));
    done();
  });
}

/**
 * Nest's Fastify adapter, with the security headers on the not-found answers Nest's own hook sends. Handler
 * results need nothing here: a handler returns its envelope whole (ok(), @lnk/shared/http), which Fastify
 * serialises as it is, and the exception filter sends the errors.
 */
class HeadersOnNotFoundFastifyAdapter extends FastifyAdapter {
  /**
   * The request Nest's adapter sends to the not-found handler from its own onRequest hook, ahead of the
   * hook that writes the security headers (a request target that is not a path, "GET *users", "OPTIONS *"),
   * gets them here; for every other 404 they are already on the reply, and are written again, unchanged.
   */
  override setNotFoundHandler(
    handler: Parameters<FastifyAdapter['setNotFoundHandler']>[0],
  ): ReturnType<FastifyAdapter['setNotFoundHandler']> {
    return super.setNotFoundHandler((request: FastifyRequest, reply: FastifyReply) => handler(request, reply.headers(SECURITY_HEADERS)));
  }
}

/**
 * Fastify with the service's limits: one JSON body parser, the configured body limit, no request log noise.
 * `serverFactory`: the HTTP server main bound before anything else started (see http-listener.ts).
 */
export function createHttpAdapter(config: AppConfig, logger: Logger, serverFactory?: EarlyListener['serverFactory']): FastifyAdapter {
  const dispatch = new ShortUrlDispatch();
  const adapter = new HeadersOnNotFoundFastifyAdapter({
    // Short URLs are answered in front of Fastify's handler, on the early-bound server or a plain one.
    serverFactory: dispatch.serverFactory(serverFactory),
    // Fastify's own lines ("Server listening at", one per address) below info: main says where it listens,
    // in one line. Requests log through the service's logger at its level (the request line).
    loggerInstance: logger.child({}, { level: logger.isLevelEnabled('warn') ? 'warn' : logger.level }),
    // Made when the request first logs a line (request-logger.ts).
    childLoggerFactory: (_fastifyLogger: unknown, bindings: Bindings, options: ChildLoggerOptions) =>
      new RequestLogger(logger, bindings, options),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    // A number trusts that many hops in front of the service (proxy-addr's semantics).
    trustProxy: typeof config.trustProxy === 'number' ? trustHops(config.trustProxy) : config.trustProxy,
    // X-Request-Id: a caller's own id is kept when it is a sane token, else one is made; logs carry it as reqId.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
    },
    // Spec 9: the API also answers under /v1; routes are registered once, without the prefix.
    rewriteUrl: (request: IncomingMessage) => stripVersionPrefix(request.url ?? '/'),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    // Fastify's own 503 while closing is not the envelope: turnedAway() below answers instead.
    return503OnClosing: false,
    // Errors of the router, before any hook (a malformed URL, 400; a parameter past maxParamLength, 414):
    // the security headers too (Nest's own handler here writes them through its security hook, unused).
    frameworkErrors: (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) =>
      void reply.headers(SECURITY_HEADERS).send(error),
  });
  dispatches.set(adapter, dispatch);
  return adapter;
}

/** What every instance of the app needs on top of the module: shared by `main` and the e2e tests. */
export async function configureHttpServer(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  const config = app.get<AppConfig>(APP_CONFIG);
  // Every path the API routes is the API's; the rest of /{slug} are short URLs (registered before any route).
  const dispatch = dispatches.get(app.getHttpAdapter());
  fastify.addHook('onRoute', (route) => dispatch?.routeAdded(route.url));
  // The security headers (security-headers.ts) are written by the request-id hook below, on the reply.
  if (config.corsOrigins.length) {
    app.enableCors({
      origin: config.corsOrigins.includes('*') ? '*' : config.corsOrigins,
      methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
      allowedHeaders: ['Authorization', 'Content-Type', 'X-Request-Id', 'Idempotency-Key', 'If-Match', 'If-None-Match'],
      exposedHeaders: [
        'X-Request-Id',
        'Retry-After',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
        'RateLimit-Policy',
        'Idempotent-Replayed',
        'ETag',
      ],
      maxAge: 600,
    });
  }
  // JSON only: a text/plain body is refused as an unsupported content type instead of arriving as a string.
  fastify.removeContentTypeParser('text/plain');
  acceptCsvBodies(fastify);
  const metrics = app.get(AppMetrics);
  // LOG_REQUESTS=false (high traffic): the request line moves down to debug.
  const requestLevel = config.logRequests ? 'info' : 'debug';
  const logsRequests = app.get<Logger>(LOGGER).isLevelEnabled(requestLevel);
  fastify.addHook('onSend', (request, reply, payload, done) => {
    // Spec 4: creations answer 200 like every other success, so no route may send Nest's default 201.
    if (reply.statusCode === 201) reply.code(200);
    // Swagger UI runs its own scripts and styles: the API's `default-src 'none'` would blank it.
    if (request.url === '/docs' || request.url.startsWith('/docs/')) void reply.header('content-security-policy', DOCS_CSP);
    // Measured as the answer goes out (an onResponse hook would cost a 'finish' listener per request).
    metrics.observeRequest(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    // One line per request under its reqId; the path without its query, which may carry a token.
    if (logsRequests)
      request.log[requestLevel](
        { method: request.method, path: request.url.split('?')[0], statusCode: reply.statusCode, responseTime: reply.elapsedTime },
        'request completed',
      );
    done(null, payload);
  });
  // OpenAPI 3: the document at /openapi.json (built on its first request), Swagger UI at /docs.
  // Swagger UI's OAuth redirect page is the one beside the page's own path: at `/docs` that would be
  // `/oauth2-redirect.html` (no such page), so `/docs` moves to `/docs/`, whose page is DOCS_OAUTH2_REDIRECT_PATH.
  const turnedAway = turnAwayWhileDraining(fastify);
  // One hook for all (a hook is a step of every request): the security headers and the request id on every
  // answer, the /docs redirect (with both too), and the 503 of a shutdown.
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.headers(SECURITY_HEADERS).header('x-request-id', request.id);
    if (request.url.startsWith('/docs')) {
      const [path, query] = request.url.split(/\?(.*)/s);
      if (path === '/docs' && (request.method === 'GET' || request.method === 'HEAD'))
        return void reply.redirect(`docs/${query ? `?${query}` : ''}`, 302);
    }
    if (turnedAway(reply)) return;
    done();
  });
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app), {
    jsonDocumentUrl: '/openapi.json',
    raw: ['json'],
    customSiteTitle: 'lnk API',
    customCss: SWAGGER_UI_CSS,
    // Public clients (no secret) must use PKCE for codes; the UI then sends a code_challenge.
    swaggerOptions: { initOAuth: { usePkceWithAuthorizationCodeGrant: true }, plugins: SWAGGER_UI_PLUGINS },
  });
  // The dashboard (apps/web) at /app, with its own CSP; /app is then one of the API's paths, never a slug.
  serveDashboard(fastify, config.dashboardDir);
  // The MCP endpoint for agents (docs/mcp.md): the contexts' tools, with the API's tokens, budget and errors.
  const bearer = app.get(BearerStrategy);
  const counters = app.get<ThrottlerStorage>(getStorageToken());
  serveMcp(fastify, {
    tools: McpTools.of(app),
    authenticate: (request) => bearer.principalOf(request),
    consume: (request) => consumeRateLimit(counters, config, request, 'api'),
    errors: app.get(ErrorAnswers),
    allowedOrigins: [new URL(config.publicBaseUrl).origin, ...config.corsOrigins],
    bodyLimit: config.bodyLimitBytes,
    version: SERVICE_VERSION,
  });
  closeConnectionsOnceIdle(fastify);
  // Short URLs: answered in front of Fastify (SERVE_SHORT_URLS=false: by a separate redirect deployment; /{slug} is then an API 404).
  if (config.serveShortUrls) dispatch?.serve(app.get(ShortUrlRoutes).handler);
  app.enableShutdownHooks();
}
