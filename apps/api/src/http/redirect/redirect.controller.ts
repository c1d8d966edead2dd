import { Inject, Injectable } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RedirectTarget } from '@lnk/links/domain';
import { hasControlCharacter, RateLimitedError } from '@lnk/shared/kernel';
import { ANALYTICS, LINKS } from '../../composition/contexts.module';
import { AppConfig } from '../../config/app-config';
import { APP_CONFIG } from '../../config/config.module';
import type { Analytics, Links } from '../../composition/contexts.composition';
import { pageHeaders } from '../html-page';
import { InjectThrottlerStorage, ThrottlerStorage } from '@nestjs/throttler';
import { consumeRateLimit } from '../../rate-limit/rate-limit.guard';
import { AppMetrics } from '../../metrics/app-metrics';
import { brokenDestinationPage, notFoundPage, onwardPage, passwordPage, unreadablePage } from '@lnk/links/adapter-http';

// Crawlers and link-preview fetchers: redirected, never counted.
const BOTS = /bot|crawl|spider|slurp|facebookexternalhit|facebot|embedly|quora link preview|outbrain|pinterest|vkshare|w3c_validator|whatsapp|telegram|skypeuripreview|discord|slack|linkedin|preview|headless|lighthouse|curl\/|wget\//i;

/**
 * The destination with the request's query merged in; the request's parameters win on a clash. Always
 * the URL parser's serialisation (ASCII: punycode host, percent-encoded path), so a destination stored
 * before destinations were normalised cannot put a character a header may not carry into Location.
 * Null when the stored destination is not an http(s) URL, or holds control characters (CR/LF would
 * have split the header).
 */
export function destinationWith(url: string, rawQuery: string): string | null {
  if (hasControlCharacter(url) || !URL.canParse(url)) return null;
  const destination = new URL(url);
  if (destination.protocol !== 'http:' && destination.protocol !== 'https:') return null;
  if (rawQuery) {
    for (const key of new URLSearchParams(rawQuery).keys()) destination.searchParams.delete(key);
    for (const [key, value] of new URLSearchParams(rawQuery)) destination.searchParams.append(key, value);
  }
  const href = destination.href;
  return /^[\x21-\x7e]+$/.test(href) ? href : null;
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
 * Short URLs: GET/HEAD /{slug} on the default short domain or a verified custom domain. The hot path is
 * a cache lookup and a buffered count; nothing here waits for the database on a cache hit.
 *
 * These routes are Fastify routes, not Nest controller routes: they are public by nature, answer HTML or
 * a redirect rather than the envelope, and skip the guard, pipe and interceptor chain that every API
 * request runs through (that chain cost a third of the redirect throughput).
 */
@Injectable()
export class RedirectRoutes {
  /** The name statistics give the default short domain. */
  private readonly defaultDomainName: string;

  constructor(
    @Inject(LINKS) private readonly links: Links,
    @Inject(ANALYTICS) private readonly analytics: Analytics,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @InjectThrottlerStorage() private readonly rateCounters: ThrottlerStorage,
    private readonly metrics: AppMetrics,
  ) {
    this.defaultDomainName = new URL(config.shortBaseUrl).hostname;
  }

  register(fastify: FastifyInstance): void {
    const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug;
    const guarded = (handler: (slug: string, request: FastifyRequest, reply: FastifyReply) => Promise<void>) => async (request: FastifyRequest, reply: FastifyReply) => {
      try {
        await handler(slugOf(request), request, reply);
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
    fastify.get('/:slug', { errorHandler }, guarded((slug, request, reply) => this.follow(slug, request, reply)));
    fastify.post('/:slug', { errorHandler }, guarded((slug, request, reply) => this.unlock(slug, request.body as Record<string, unknown> | undefined, request, reply)));
  }

  /** HEAD is never counted. */
  async follow(slug: string, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const target = await this.find(request, slug);
    if (!target) return this.notFoundOrRedirect(request, reply);
    if (target.passwordHash) {
      this.metrics.redirect('password_page');
      return this.page(reply, 200, passwordPage(slug));
    }
    if (request.method === 'GET') this.count(request, target, 'visit');
    this.redirect(reply, target, request);
  }

  async unlock(slug: string, body: Record<string, unknown> | undefined, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const target = await this.find(request, slug);
    if (!target || !target.passwordHash) return this.notFound(reply);
    // The password form is a public endpoint: its requests count against the address's public budget.
    const limited = await consumeRateLimit(this.rateCounters, this.config, request, 'public');
    void reply.headers(limited.headers);
    if (limited.blocked) {
      this.metrics.redirect('rate_limited');
      return this.page(reply, 429, passwordPage(slug, 'Too many attempts; try again later.'));
    }
    let ok: boolean;
    try {
      ok = await this.links.checkPassword.execute(target, typeof body?.['password'] === 'string' ? body['password'] : undefined, request.ip);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      void reply.header('retry-after', String(error.retryAfterSeconds));
      return this.page(reply, 429, passwordPage(slug, 'Too many wrong passwords; try again later.'));
    }
    if (!ok) {
      this.metrics.redirect('password_failed');
      this.count(request, target, 'passwordFailed');
      return this.page(reply, 401, passwordPage(slug, 'That password is not right.'));
    }
    this.count(request, target, 'passwordPassed');
    this.count(request, target, 'visit');
    // A page that goes on, not a redirect: the form's CSP form-action stays 'self' (a redirect answering a
    // form is checked against form-action, which would then have to name the destination's origin).
    const location = destinationWith(target.url, rawQueryOf(request));
    if (!location) return this.brokenDestination(reply);
    this.metrics.redirect('redirect');
    this.page(reply, 200, onwardPage(location));
  }

  private async find(request: FastifyRequest, slug: string): Promise<RedirectTarget | null> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(slug)) return null;
    const target = await this.links.resolveRedirect.execute(hostOf(request), slug);
    return target && target.status ? target : null;
  }

  private count(request: FastifyRequest, target: RedirectTarget, kind: 'visit' | 'passwordPassed' | 'passwordFailed'): void {
    if (kind === 'visit' && BOTS.test(request.headers['user-agent'] ?? '')) return;
    const query = rawQueryOf(request);
    const params = query ? new URLSearchParams(query) : null;
    this.analytics.clicks.record({
      linkId: target.id,
      ownerId: target.ownerId,
      domainId: target.domainId,
      linkName: target.name,
      domainName: target.domainId ? hostOf(request) : this.defaultDomainName,
      at: new Date(),
      utmSource: params?.get('utm_source') ?? '',
      utmMedium: params?.get('utm_medium') ?? '',
      utmCampaign: params?.get('utm_campaign') ?? '',
      kind,
    });
  }

  private redirect(reply: FastifyReply, target: RedirectTarget, request: FastifyRequest): void {
    const location = destinationWith(target.url, rawQueryOf(request));
    if (!location) return this.brokenDestination(reply);
    this.metrics.redirect('redirect');
    void reply.code(302).header('location', location).header('cache-control', 'private, max-age=0').send();
  }

  /** A destination stored before destinations were checked as they are now, which no redirect can carry. */
  private brokenDestination(reply: FastifyReply): void {
    this.metrics.redirect('error');
    this.page(reply, 500, brokenDestinationPage());
  }

  /**
   * An unknown (or turned off) short URL of the default short domain goes to NOT_FOUND_REDIRECT_URL when
   * it is set; a verified custom domain's stays the page (its owner's domain does not send visitors to the operator's page).
   */
  private async notFoundOrRedirect(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const redirect = this.config.notFoundRedirectUrl;
    if (!redirect || (await this.links.resolveRedirect.isCustomDomain(hostOf(request)))) return this.notFound(reply);
    this.metrics.redirect('not_found');
    void reply.code(302).header('location', redirect).header('cache-control', 'private, max-age=0').send();
  }

  private notFound(reply: FastifyReply): void {
    this.metrics.redirect('not_found');
    this.page(reply, 404, notFoundPage());
  }

  /** Every page's form posts back to this service only (CSP form-action 'self'). */
  private page(reply: FastifyReply, status: number, html: string): void {
    void reply.code(status).headers(pageHeaders()).send(html);
  }
}
