import { Controller, Headers, Inject, Res } from '@nestjs/common';
import { SkipThrottle } from '@nestjs/throttler';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { UnauthorizedError } from '@lnk/shared/kernel';
import { Public, Route, string } from '@lnk/shared/http';
import { AppConfig, APP_CONFIG } from '@lnk/composition';
import { AppMetrics } from './app-metrics';

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Prometheus scrape endpoint; with METRICS_TOKEN set, only for a bearer of that token. */
@Controller('metrics')
@Public()
@SkipThrottle()
export class MetricsController {
  constructor(
    private readonly metrics: AppMetrics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Route('GET', '', {
    operationId: 'getMetrics',
    raw: { 'text/plain': string },
    errors: { 401: 'json' },
    summary: 'Prometheus metrics',
    description: 'Request counts and latencies in the Prometheus text format, for a scraper holding the metrics token.',
  })
  async scrape(@Headers('authorization') authorization: string | undefined, @Res() reply: FastifyReply) {
    if (this.config.metricsToken) {
      const given = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1] ?? '';
      if (!timingSafeEqual(digest(given), digest(this.config.metricsToken)))
        throw new UnauthorizedError('GET /metrics needs the metrics token');
    }
    void reply
      .code(200)
      .header('content-type', this.metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await this.metrics.registry.metrics());
  }
}
