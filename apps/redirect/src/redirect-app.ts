import { timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import { callerRequestId, clientAddressOf, DOCUMENT_SECURITY_HEADERS, requestHostOf, ShortUrlHandler } from '@lnk/links/adapter-http';
import { ClickWriteSchedule } from '@lnk/analytics/domain';
import { isDatabaseUp } from '@lnk/shared/database';
import type { RedirectConfig } from './config';
import { composeRedirect, RedirectContexts } from './composition';
import { InMemoryPasswordFormLimit, RedisPasswordFormLimit } from './password-form-limit';

export interface RedirectApp {
  server: Server;
  port: number;
  contexts: RedirectContexts;
  /** Stops taking requests, lets those in flight finish, writes the buffered clicks, closes the database. */
  close(): Promise<void>;
}

const JSON_HEADERS = {
  ...DOCUMENT_SECURITY_HEADERS,
  'content-type': 'application/json; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
};

function json(response: ServerResponse, status: number, body: unknown, extra: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { ...JSON_HEADERS, ...extra, 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The redirect server: node:http, the short-URL handler, and beside it /health (the load balancer's
 * check: 200 while the database answers) and /metrics. Everything else is 404.
 */
export async function startRedirectApp(config: RedirectConfig, logger: Logger): Promise<RedirectApp> {
  const contexts = await composeRedirect(config, logger);
  const { metrics, clicks } = contexts;
  const passwordForms = config.redisUrl
    ? new RedisPasswordFormLimit(config.redisUrl, config.passwordFormLimit, (error) =>
        logger.warn({ err: error.message }, 'rate-limit redis'),
      )
    : new InMemoryPasswordFormLimit(config.passwordFormLimit);
  if (passwordForms instanceof RedisPasswordFormLimit) {
    metrics.watchRedis('rate_limits', () => passwordForms.shared);
    await passwordForms.connected();
  }
  const logsRequests = config.logRequests && logger.isLevelEnabled('info');
  const shortUrls = new ShortUrlHandler({
    answer: contexts.answer,
    shortBaseUrl: config.shortBaseUrl,
    clientAddress: clientAddressOf(config.trustProxy),
    host: requestHostOf(config.trustProxy),
    passwordForms,
    counters: metrics,
    onError: (error, request) => logger.error({ err: error, method: request.method, path: request.url?.split('?')[0] }, 'short URL failed'),
    ...(logsRequests
      ? {
          onAnswered: (request: IncomingMessage, status: number, startedAt: number) =>
            logger.info(
              {
                reqId: callerRequestId(request),
                method: request.method,
                path: request.url?.split('?')[0],
                statusCode: status,
                responseTime: performance.now() - startedAt,
              },
              'request completed',
            ),
        }
      : {}),
  });

  let closing = false;
  const server = createServer({ keepAliveTimeout: 72_000 }, (request, response) => {
    if (closing) response.setHeader('connection', 'close');
    const url = request.url ?? '/';
    // Its own two paths first (no link can be named health or metrics: the API reserves them too).
    if (!url.startsWith('/health') && !url.startsWith('/metrics') && shortUrls.handle(request, response)) return;
    const path = url.split('?')[0];
    if (path === '/health' && (request.method === 'GET' || request.method === 'HEAD')) {
      void isDatabaseUp(contexts.dataSource).then((up) =>
        json(response, up && !closing ? 200 : 503, { status: up && !closing ? 'ok' : 'unavailable', database: up ? 'up' : 'down' }),
      );
      return;
    }
    if (path === '/metrics' && request.method === 'GET') {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
      if (config.metricsToken && !(token && sameSecret(token, config.metricsToken)))
        return json(
          response,
          401,
          { status: 401, code: 'UNAUTHORIZED', message: 'GET /metrics needs its bearer token' },
          { 'www-authenticate': 'Bearer' },
        );
      void metrics.registry.metrics().then((text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(text);
      });
      return;
    }
    json(response, 404, { status: 404, code: 'NOT_FOUND', message: 'Not found' });
  });
  server.requestTimeout = 30_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });

  const writes = new ClickWriteSchedule(clicks, {
    intervalMs: config.clickFlushIntervalMs,
    maxIntervalMs: config.clickFlushMaxIntervalMs,
    onError: (error) => logger.warn({ err: error.message }, 'clicks kept for the next write'),
  });
  writes.start();

  let closed: Promise<void> | null = null;
  const close = () =>
    (closed ??= (async () => {
      closing = true;
      writes.stop();
      // Idle keep-alive connections now; busy ones as soon as they have answered.
      const drain = setInterval(() => server.closeIdleConnections(), 50);
      await new Promise<void>((resolve) => server.close(() => resolve()));
      clearInterval(drain);
      const left = await writes.drain();
      if (left > 0) logger.error({ rows: left }, 'click rows could not be written before shutdown');
      await passwordForms.close();
      await contexts.bus?.close();
      await contexts.dataSource.destroy();
    })());

  return { server, port: (server.address() as AddressInfo).port, contexts, close };
}
