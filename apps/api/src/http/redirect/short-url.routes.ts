import { Inject, Injectable } from '@nestjs/common';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { callerRequestId, clientAddressOf, requestHostOf, ShortUrlHandler } from '@lnk/links/adapter-http';
import { AnswerShortUrlUseCase } from '@lnk/links/domain';
import { AppConfig, APP_CONFIG, LOGGER } from '@lnk/composition';
import { consumeBudget } from '../../rate-limit/rate-limit.guard';
import { AppMetrics } from '../../metrics/app-metrics';

/**
 * Short URLs in the API process: the same node:http handler as apps/redirect, over this process's
 * composed links context. It answers before Fastify sees the request (see short-url-dispatch.ts): no
 * hook, request id, security-header pass, histogram or Nest chain runs for a redirect. The password
 * form counts against the API's public budget (its throttler storage: Redis when REDIS_URL is set).
 */
@Injectable()
export class ShortUrlRoutes {
  readonly handler: ShortUrlHandler;

  constructor(
    answer: AnswerShortUrlUseCase,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(LOGGER) logger: Logger,
    @InjectThrottlerStorage() rateCounters: ThrottlerStorage,
    metrics: AppMetrics,
  ) {
    // LOG_REQUESTS: the request line the API writes for every other request, at the same level.
    const level = config.logRequests ? 'info' : 'debug';
    const logsRequests = logger.isLevelEnabled(level);
    this.handler = new ShortUrlHandler({
      answer,
      shortBaseUrl: config.shortBaseUrl,
      clientAddress: clientAddressOf(config.trustProxy),
      host: requestHostOf(config.trustProxy),
      passwordForms: { consume: (addressKey) => consumeBudget(rateCounters, config, 'public', `ip:${addressKey}`) },
      counters: { count: (outcome) => metrics.redirect(outcome) },
      onError: (error, request) =>
        logger.error({ err: error, method: request.method, path: request.url?.split('?')[0] }, 'redirect failed'),
      ...(logsRequests
        ? {
            onAnswered: (request: IncomingMessage, status: number, startedAt: number) =>
              logger[level](
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
  }
}
