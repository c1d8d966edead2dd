import { Clock, parseUrl, RateLimitedError } from '@lnk/shared/kernel';
import { hasControlCharacter } from '../model/control-characters';
import { ClickTrigger, LinkClicked, QR_MARKER_PARAM } from '../model/link-clicked.event';
import { BotDetector } from '../ports/bot-detector.port';
import { ClickRecorder } from '../ports/click-recorder.port';
import { RedirectOptions, RedirectTarget } from '../ports/link.repository';
import { LinkUtm, UTM_FIELDS } from '../model/link-options';
import { VisitClaim, VisitLimits } from '../ports/visit-limits.port';
import { LinkLifecycleEvents } from '../ports/link-lifecycle-events.port';
import { VisitorLocator } from '../ports/visitor-locator.port';
import { CheckLinkPasswordUseCase } from './check-link-password.use-case';
import { ResolveRedirectUseCase } from './resolve-redirect.use-case';

/** A request for a short URL, as the HTTP layer read it. */
export interface ShortUrlRequest {
  /** 'GET' | 'HEAD' | 'POST' (POST is the password form). */
  method: string;
  /** The Host header, port (and IPv6 brackets) stripped, as `shortUrlHost` spells it (lower case, no trailing dot). */
  host: string;
  /** The path without its leading '/', not percent-decoded. */
  slug: string;
  /** What follows '?', '' when nothing does. */
  rawQuery: string;
  userAgent: string | undefined;
  /** The Referer header, as sent (statistics keep its host only). */
  referer?: string;
  /** The client's address (the caller applied its proxy trust). */
  ip: string;
  /** POST only: the form's password field. */
  password?: string;
}

/** What a short URL answers; the caller writes the status, headers and page of each kind. */
export type ShortUrlAnswer =
  /** `status` (302 when absent: a link without a redirectType) to `location`. */
  | { kind: 'redirect'; location: string; status?: 301 | 302 | 307 | 308 }
  /** The password page: 200 asking, 401 after a wrong password, 429 after too many. */
  | { kind: 'password-form'; slug: string; status: 200 | 401 | 429; error?: string; retryAfterSeconds?: number }
  /** The right password: a page that goes on to `location` (not a redirect, so the form's CSP form-action stays 'self'). */
  | { kind: 'password-accepted'; location: string }
  /** Unknown, turned off, or not answerable this way; `redirectTo` is where the operator sends such visitors, when set. */
  | { kind: 'not-found'; redirectTo?: string }
  /** A stored destination that no redirect can carry (stored before destinations were checked as they are now). */
  | { kind: 'unusable-destination' }
  /** Past its expiresAt or its visits used up: 302 to `redirectTo` (its expiredUrl) when set, else a 410 page. Never counted. */
  | { kind: 'expired'; redirectTo?: string };

export interface AnswerShortUrlConfig {
  /** The default short domain's name, as statistics show it. */
  defaultDomainName: string;
  /** Where unknown short URLs of the default short domain go (NOT_FOUND_REDIRECT_URL), or null for the 404 page. */
  notFoundRedirectUrl: string | null;
}

const SLUG = /^[A-Za-z0-9_-]{1,64}$/;
const PRINTABLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The destination with the request's query merged in; the request's parameters win on a clash. Always
 * the URL parser's serialisation (ASCII: punycode host, percent-encoded path), so a destination stored
 * before destinations were normalised cannot put a character a header may not carry into Location.
 * Null when the stored destination is not an http(s) URL, or holds control characters (CR/LF would
 * have split the header).
 */
export function destinationWith(url: string, rawQuery: string | URLSearchParams): string | null {
  const destination = hasControlCharacter(url) ? null : parseUrl(url);
  if (!destination) return null;
  if (destination.protocol !== 'http:' && destination.protocol !== 'https:') return null;
  const query = typeof rawQuery === 'string' ? (rawQuery ? new URLSearchParams(rawQuery) : null) : rawQuery;
  if (query && query.size) {
    // Merged apart and written once: each change through destination.searchParams rewrites the whole URL.
    const merged = new URLSearchParams(destination.search);
    for (const key of query.keys()) merged.delete(key);
    for (const [key, value] of query) merged.append(key, value);
    destination.search = merged.toString();
  }
  const href = destination.href;
  return PRINTABLE_ASCII.test(href) ? href : null;
}

/** An expired link's answer: its expiredUrl (as a Location can carry it), else the 410 page. */
function expiredAnswer(options: RedirectOptions): ShortUrlAnswer {
  const redirectTo = options.expiredUrl === null ? null : destinationWith(options.expiredUrl, '');
  return redirectTo ? { kind: 'expired', redirectTo } : { kind: 'expired' };
}

/**
 * The link's UTM values (`utm_source`...) with the request's query after them; a parameter the request
 * sends itself wins (the link's value of it is dropped). Null when there is neither.
 */
export function withUtm(utm: LinkUtm | null, query: URLSearchParams | null): URLSearchParams | null {
  if (!utm) return query;
  const merged = new URLSearchParams();
  for (const field of UTM_FIELDS) {
    const value = utm[field];
    const name = `utm_${field}`;
    if (value !== undefined && !query?.has(name)) merged.append(name, value);
  }
  if (query) for (const [name, value] of query) merged.append(name, value);
  return merged;
}

/**
 * `qr` when the query carries the QR marker, which is then taken out of it: the destination never sees it.
 * Requests without a query (the hot path) never get here with one.
 */
function triggerOf(query: URLSearchParams | null): ClickTrigger {
  if (!query || !query.has(QR_MARKER_PARAM)) return 'link';
  query.delete(QR_MARKER_PARAM);
  return 'qr';
}

/** What answering a short URL needs: the redirect path, the password check, where visits are counted and told. */
export interface ShortUrlAnswering {
  resolve: ResolveRedirectUseCase;
  checkPassword: CheckLinkPasswordUseCase;
  clicks: ClickRecorder;
  bots: BotDetector;
  clock: Clock;
  config: AnswerShortUrlConfig;
  visitLimits: VisitLimits;
  visitors: VisitorLocator;
  lifecycle?: LinkLifecycleEvents | null;
  onError?: (error: Error) => void;
}

/**
 * Answers a short URL: redirect, password page, or not found; and counts the visit when it is one (not
 * HEAD, not a bot). The hot path (a cached link, no query) is a cache lookup, one URL serialisation and
 * a buffered count; nothing waits for the database on a cache hit.
 */
export class AnswerShortUrlUseCase {
  /** The Location of each cached link for requests without a query (the URL parser's work, done once per cached answer). */
  private readonly plainLocations = new WeakMap<RedirectTarget, string | null>();

  private readonly lifecycle: LinkLifecycleEvents | null;
  private readonly onError: (error: Error) => void;

  constructor(private readonly deps: ShortUrlAnswering) {
    this.lifecycle = deps.lifecycle ?? null;
    this.onError = deps.onError ?? (() => undefined);
  }

  async execute(request: ShortUrlRequest): Promise<ShortUrlAnswer> {
    return this.answer(request);
  }

  /**
   * As execute(), but a GET or HEAD of a cached link is answered synchronously (the answer itself, not a
   * promise of it): the hot path then makes no promise and no microtask hop. Anything that has to wait
   * (a cache miss, the password form, a not-found lookup) returns a promise. May throw synchronously.
   */
  answer(request: ShortUrlRequest): ShortUrlAnswer | Promise<ShortUrlAnswer> {
    if (request.method === 'POST') return this.unlock(request);
    const found = this.find(request);
    return found instanceof Promise ? found.then((target) => this.follow(request, target)) : this.follow(request, found);
  }

  /** GET and HEAD; HEAD is never counted. */
  private follow(request: ShortUrlRequest, target: RedirectTarget | null): ShortUrlAnswer | Promise<ShortUrlAnswer> {
    if (!target) return this.notFound(request);
    // A link with options (issue 18) goes its own way; a plain one pays this one property check.
    if (target.options) return this.followWithOptions(request, target, target.options);
    if (target.passwordHash) return { kind: 'password-form', slug: target.slug, status: 200 };
    const query = request.rawQuery ? new URLSearchParams(request.rawQuery) : null;
    const trigger = triggerOf(query);
    const location = query && query.size ? destinationWith(target.url, query) : this.plainLocationOf(target);
    if (!location) return { kind: 'unusable-destination' };
    if (request.method === 'GET') this.countVisit(request, target, query, trigger);
    return { kind: 'redirect', location };
  }

  /**
   * GET and HEAD of a link with options: expired (by time, at once; by visits, as its counter says) answers
   * the expired page or expiredUrl, uncounted; else the destination its targets pick for the visitor, with
   * its UTM values, at its redirect status. A counted visit to a link with a visit limit first takes one
   * from the database's counter (the only await); a HEAD or a bot takes none but is told the same.
   */
  private followWithOptions(
    request: ShortUrlRequest,
    target: RedirectTarget,
    options: RedirectOptions,
  ): ShortUrlAnswer | Promise<ShortUrlAnswer> {
    if (this.expiredByTime(options)) return expiredAnswer(options);
    if (target.passwordHash) return { kind: 'password-form', slug: target.slug, status: 200 };
    const query = request.rawQuery ? new URLSearchParams(request.rawQuery) : null;
    const trigger = triggerOf(query);
    const merged = withUtm(options.utm, query);
    const location = destinationWith(this.destinationOf(request, target, options), merged ?? '');
    if (!location) return { kind: 'unusable-destination' };
    const answer: ShortUrlAnswer = { kind: 'redirect', location, status: options.redirectType };
    const counted = request.method === 'GET' && !this.deps.bots.isBot(request.userAgent);
    if (options.maxVisits === null) {
      if (counted) this.count(request, target, 'visit', merged, trigger);
      return answer;
    }
    if (!counted) return this.deps.visitLimits.hasLeft(target.id).then((left) => (left ? answer : expiredAnswer(options)));
    return this.deps.visitLimits.claim(target.id).then(async (claimed) => {
      if (claimed === 'none') return expiredAnswer(options);
      await this.tellIfLast(claimed, target, options);
      this.count(request, target, 'visit', merged, trigger);
      return answer;
    });
  }

  /**
   * The visit that took the last allowed one tells of it (one visit in the link's life, so it waits for the
   * event to be recorded: a crash right after the answer loses nothing). A failure to record is reported,
   * never the visitor's problem.
   */
  private async tellIfLast(claimed: VisitClaim, target: RedirectTarget, options: RedirectOptions): Promise<void> {
    if (claimed !== 'last' || !this.lifecycle) return;
    try {
      await this.lifecycle.limitReached(
        { id: target.id, ownerId: target.ownerId, domainId: target.domainId, slug: target.slug },
        options.maxVisits ?? 0,
        this.deps.clock.now(),
      );
    } catch (error) {
      this.onError(error as Error);
    }
  }

  private expiredByTime(options: RedirectOptions): boolean {
    return options.expiresAt !== null && this.deps.clock.now().getTime() >= options.expiresAt;
  }

  /** The most specific of the link's targets the visitor matches: country, then device, then the link's url. */
  private destinationOf(request: ShortUrlRequest, target: RedirectTarget, options: RedirectOptions): string {
    const targets = options.targets;
    if (!targets) return target.url;
    const visitor = this.deps.visitors.locate(request.userAgent, request.ip);
    const byCountry = visitor.country !== null && targets.country ? targets.country[visitor.country] : undefined;
    if (byCountry !== undefined) return byCountry;
    const byDevice = visitor.device !== null && targets.device ? targets.device[visitor.device] : undefined;
    return byDevice ?? target.url;
  }

  private plainLocationOf(target: RedirectTarget): string | null {
    let location = this.plainLocations.get(target);
    if (location === undefined) {
      location = destinationWith(target.url, '');
      this.plainLocations.set(target, location);
    }
    return location;
  }

  /** The password form's answer. */
  private async unlock(request: ShortUrlRequest): Promise<ShortUrlAnswer> {
    const target = await this.find(request);
    if (!target || !target.passwordHash) return { kind: 'not-found' };
    // An expired link takes no password: nothing behind it is reachable.
    if (target.options && this.expiredByTime(target.options)) return expiredAnswer(target.options);
    let ok: boolean;
    try {
      ok = await this.deps.checkPassword.execute(target, request.password, request.ip);
    } catch (error) {
      if (!(error instanceof RateLimitedError)) throw error;
      return {
        kind: 'password-form',
        slug: target.slug,
        status: 429,
        error: 'Too many wrong passwords; try again later.',
        retryAfterSeconds: error.retryAfterSeconds,
      };
    }
    const query = request.rawQuery ? new URLSearchParams(request.rawQuery) : null;
    const trigger = triggerOf(query);
    if (!ok) {
      this.count(request, target, 'passwordFailed', query, trigger);
      return { kind: 'password-form', slug: target.slug, status: 401, error: 'That password is not right.' };
    }
    if (target.options) return this.unlockWithOptions(request, target, target.options, query, trigger);
    this.count(request, target, 'passwordPassed', query, trigger);
    this.countVisit(request, target, query, trigger);
    const location = query && query.size ? destinationWith(target.url, query) : this.plainLocationOf(target);
    return location ? { kind: 'password-accepted', location } : { kind: 'unusable-destination' };
  }

  /** The right password for a link with options: its visit is taken from the limit, if it has one, before it goes on. */
  private async unlockWithOptions(
    request: ShortUrlRequest,
    target: RedirectTarget,
    options: RedirectOptions,
    query: URLSearchParams | null,
    trigger: ClickTrigger,
  ): Promise<ShortUrlAnswer> {
    const merged = withUtm(options.utm, query);
    const location = destinationWith(this.destinationOf(request, target, options), merged ?? '');
    if (!location) return { kind: 'unusable-destination' };
    const counted = !this.deps.bots.isBot(request.userAgent);
    if (options.maxVisits !== null) {
      if (!counted && !(await this.deps.visitLimits.hasLeft(target.id))) return expiredAnswer(options);
      if (counted) {
        const claimed = await this.deps.visitLimits.claim(target.id);
        if (claimed === 'none') return expiredAnswer(options);
        await this.tellIfLast(claimed, target, options);
      }
    }
    this.count(request, target, 'passwordPassed', merged, trigger);
    if (counted) this.count(request, target, 'visit', merged, trigger);
    return { kind: 'password-accepted', location };
  }

  private find(request: ShortUrlRequest): RedirectTarget | null | Promise<RedirectTarget | null> {
    if (!SLUG.test(request.slug)) return null;
    const target = this.deps.resolve.lookup(request.host, request.slug);
    if (target instanceof Promise) return target.then((t) => (t && t.status ? t : null));
    return target && target.status ? target : null;
  }

  /**
   * An unknown (or turned off) short URL of the default short domain goes to NOT_FOUND_REDIRECT_URL when it
   * is set; a verified custom domain's stays the page (its owner's domain does not send visitors to the
   * operator's page), and so does any other host's (it is not the service's).
   */
  private notFound(request: ShortUrlRequest): ShortUrlAnswer {
    const redirectTo = this.deps.config.notFoundRedirectUrl;
    if (!redirectTo || !this.deps.resolve.isShortHost(request.host)) return { kind: 'not-found' };
    return { kind: 'not-found', redirectTo };
  }

  private countVisit(request: ShortUrlRequest, target: RedirectTarget, query: URLSearchParams | null, trigger: ClickTrigger): void {
    if (!this.deps.bots.isBot(request.userAgent)) this.count(request, target, 'visit', query, trigger);
  }

  /**
   * `query`: the request's, parsed once for the destination and the UTM values alike. The visit's raw
   * referer, User-Agent and address go with the event: statistics derive its dimensions when they count
   * it, not here on the request's path.
   */
  private count(
    request: ShortUrlRequest,
    target: RedirectTarget,
    kind: LinkClicked['kind'],
    query: URLSearchParams | null,
    trigger: ClickTrigger,
  ): void {
    this.deps.clicks.record({
      linkId: target.id,
      ownerId: target.ownerId,
      domainId: target.domainId,
      linkName: target.name,
      domainName: target.domainId ? request.host : this.deps.config.defaultDomainName,
      at: this.deps.clock.now(),
      utmSource: query?.get('utm_source') ?? '',
      utmMedium: query?.get('utm_medium') ?? '',
      utmCampaign: query?.get('utm_campaign') ?? '',
      kind,
      referer: request.referer,
      userAgent: request.userAgent,
      ip: request.ip,
      trigger,
    });
  }
}
