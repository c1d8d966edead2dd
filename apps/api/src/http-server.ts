import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { LogController } from 'fastify';
import type { Logger } from 'pino';
import { AppConfig } from './config/app-config';
import { RedirectRoutes } from './http/redirect/redirect.controller';

/** Fastify with the service's limits: one JSON body parser, the configured body limit, no request log noise. */
export function createHttpAdapter(config: AppConfig, logger: Logger): FastifyAdapter {
  return new FastifyAdapter({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: config.bodyLimitBytes,
    trustProxy: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 2048 },
    return503OnClosing: true,
  });
}

/** What every instance of the app needs on top of the module: shared by `main` and the e2e tests. */
export async function configureHttpServer(app: NestFastifyApplication): Promise<void> {
  const fastify = app.getHttpAdapter().getInstance();
  // JSON only: a text/plain body is refused as an unsupported content type instead of arriving as a string.
  fastify.removeContentTypeParser('text/plain');
  // Spec 4: creations answer 200 like every other success, so no route may send Nest's default 201.
  fastify.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode === 201) reply.code(200);
    return payload;
  });
  // Short URLs: plain Fastify routes; static API paths win over /:slug in Fastify's router.
  app.get(RedirectRoutes).register(fastify);
  app.enableShutdownHooks();
}
