import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ShortUrlAnswer } from '@lnk/links/domain';
import { LINKS } from '../../composition/contexts.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { Links } from '../../composition/contexts.composition';
import { pageHeaders } from '../html-page';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { consumeRateLimit } from '../../rate-limit/rate-limit.guard';
import { AppMetrics } from '../../metrics/app-metrics';
import { brokenDestinationPage, notFoundPage, onwardPage, passwordPage, unreadablePage } from '@lnk/links/adapter-http';

/** The path without its leading '/' and query, not percent-decoded. */
function slugOf(request: FastifyRequest): string {
  const end = request.url.indexOf('?');
  return request.url.slice(1, end < 0 ? undefined : end);
}

function rawQueryOf(request: FastifyRequest): string {
  const index = request.url.indexOf('?');
  return index < 0 ? '' : request.url.slice(index + 1);
}

/** The request's host name, lower-case, without port or IPv6 brackets. */
export function hostOf(request: FastifyRequest): string {
  return (request.host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
}

/**
 * Short URLs: GET/HEAD /{slug} on the default short domain or a verified custom domain, and POST /{slug}
 * (the password form). What answers is the links domain's decision (AnswerShortUrlUseCase); this adapter
 * reads the request and writes the answer.
 *
 * These routes are Fastify routes, not Nest controller routes: they are public by nature, answer HTML or
 * a redirect rather than the envelope, and skip the guard, pipe and interceptor chain that every API
 * request runs through (that chain cost a third of the redirect throughput).
 */
@Injectable()
export class RedirectRoutes {
  constructor(
    @Inject(LINKS) private readonly links: Links,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly rateCounters: ThrottlerStorage,
    private readonly metrics: AppMetrics,
  ) {}

  register(fastify: FastifyInstance): void {
    const guarded = (handler: (request: FastifyRequest, reply: FastifyReply) => Promise<void>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await handler(request, reply);
      } catch (error) {
        request.log.error({ err: error }, 'redirect failed');
        this.metrics.redirect('error');
        if (!reply.sent) this.page(reply, 503, '<!doctype html><title>Unavailable</title><p>This link cannot be opened right now; try again shortly.</p>');
      }
    };
    // What Fastify refuses before a handler runs (a body that is not a form, an unknown content type)
    // answers this service's page, not Fastify's JSON error naming its own error codes.
    const errorHandler = (error: { statusCode?: number }, request: FastifyRequest, reply: FastifyReply) => {
      const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
      if (status === 500) request.log.error({ err: error }, 'redirect failed');
      this.metrics.redirect('error');
      this.page(reply, status, unreadablePage(status));
    };
    // Fastify answers HEAD through the GET route too, without the body.
    fastify.get('/:slug', { errorHandler }, guarded((request, reply) => this.answer(request, reply)));
    fastify.post('/:slug', { errorHandler }, guarded((request, reply) => this.unlock(request, reply)));
  }

  /** The password form is a public endpoint: its requests count against the address's public budget first. */
  private async unlock(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const limited = await consumeRateLimit(this.rateCounters, this.config, request, 'public');
    void reply.headers(limited.headers);
    if (limited.blocked) {
      this.metrics.redirect('rate_limited');
      return this.page(reply, 429, passwordPage(slugOf(request), 'Too many attempts; try again later.'));
    }
    const body = request.body as Record<string, unknown> | undefined;
    return this.answer(request, reply, typeof body?.['password'] === 'string' ? body['password'] : undefined);
  }

  private async answer(request: FastifyRequest, reply: FastifyReply, password?: string): Promise<void> {
    const answer = await this.links.answerShortUrl.execute({
      method: request.method,
      host: hostOf(request),
      slug: slugOf(request),
      rawQuery: rawQueryOf(request),
      userAgent: request.headers['user-agent'],
      ip: request.ip,
      ...(password === undefined ? {} : { password }),
    });
    this.write(reply, answer);
  }

  private write(reply: FastifyReply, answer: ShortUrlAnswer): void {
    switch (answer.kind) {
      case 'redirect':
        this.metrics.redirect('redirect');
        return void reply.code(302).header('location', answer.location).header('cache-control', 'private, max-age=0').send();
      case 'password-form':
        this.metrics.redirect(answer.status === 200 ? 'password_page' : answer.status === 401 ? 'password_failed' : 'rate_limited');
        if (answer.retryAfterSeconds !== undefined) void reply.header('retry-after', String(answer.retryAfterSeconds));
        return this.page(reply, answer.status, passwordPage(answer.slug, answer.error));
      case 'password-accepted':
        // A page that goes on, not a redirect: the form's CSP form-action stays 'self' (a redirect answering a
        // form is checked against form-action, which would then have to name the destination's origin).
        this.metrics.redirect('redirect');
        return this.page(reply, 200, onwardPage(answer.location));
      case 'not-found':
        this.metrics.redirect('not_found');
        if (answer.redirectTo) return void reply.code(302).header('location', answer.redirectTo).header('cache-control', 'private, max-age=0').send();
        return this.page(reply, 404, notFoundPage());
      case 'unusable-destination':
        this.metrics.redirect('error');
        return this.page(reply, 500, brokenDestinationPage());
    }
  }

  /** Every page's form posts back to this service only (CSP form-action 'self'). */
  private page(reply: FastifyReply, status: number, html: string): void {
    void reply.code(status).headers(pageHeaders()).send(html);
  }
}
