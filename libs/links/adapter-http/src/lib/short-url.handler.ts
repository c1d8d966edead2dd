import type { IncomingMessage, ServerResponse } from 'node:http';
import { shortUrlHost } from '@lnk/links/domain';
import type { ShortUrlAnswer, ShortUrlRequest } from '@lnk/links/domain';
import { clientAddressKey } from '@lnk/shared/client-address';
import { pageHeaders } from '@lnk/shared/http/pages';
import { DOCUMENT_SECURITY_HEADERS } from './security-headers';
import { expiredPage, notFoundPage, onwardPage, passwordPage, unreadablePage } from './short-url.pages';
import { brokenDestinationPage } from './short-url.pages';

/** What decides a short URL's answer: the links domain's AnswerShortUrlUseCase. */
export interface ShortUrlAnswering {
  execute(request: ShortUrlRequest): Promise<ShortUrlAnswer>;
  /** The answer itself when it is at hand (a cached link), else its promise; used instead of execute() when present. */
  answer?(request: ShortUrlRequest): ShortUrlAnswer | Promise<ShortUrlAnswer>;
}

/** The public budget of the password form, per client address (the API's RATE_LIMIT_PUBLIC). */
export interface PasswordFormLimit {
  consume(addressKey: string): Promise<{ blocked: boolean; retryAfterSeconds: number; headers: Record<string, string> }>;
}

export type ShortUrlOutcome = 'redirect' | 'not_found' | 'expired' | 'password_page' | 'password_failed' | 'rate_limited' | 'error';

/** Plain counters per outcome: no histogram observation, no timer per request. */
export interface ShortUrlCounters {
  count(outcome: ShortUrlOutcome): void;
}

export interface ShortUrlHandlerOptions {
  answer: ShortUrlAnswering;
  /** SHORT_BASE_URL: an https one adds Strict-Transport-Security to redirects. */
  shortBaseUrl: string;
  clientAddress: (request: IncomingMessage) => string;
  /** The Host the request names (requestHostOf); default: the Host header. */
  host?: (request: IncomingMessage) => string;
  passwordForms: PasswordFormLimit;
  counters: ShortUrlCounters;
  /** Called with what failed, for the log; the visitor gets a 503 page. */
  onError(error: unknown, request: IncomingMessage): void;
  /** Called once per answer when request lines are logged (LOG_REQUESTS); absent: nothing is measured. */
  onAnswered?(request: IncomingMessage, status: number, startedAt: number): void;
}

const SLUG = /^\/([A-Za-z0-9_-]{1,64})(?:\?|$)/;
const REQUEST_ID = /^[\w.:-]{1,128}$/;
const REDIRECT_CACHE_CONTROL = 'private, max-age=0';
const HSTS = DOCUMENT_SECURITY_HEADERS['strict-transport-security'];
/** A password form's body is a few dozen bytes. */
const FORM_LIMIT_BYTES = 8 * 1024;

class UnreadableBody extends Error {
  constructor(readonly status: 413 | 415 | 400) {
    super(`unreadable form body (${status})`);
  }
}

/** The caller's X-Request-Id when it is a sane token (1-128 of [A-Za-z0-9_.:-]), else undefined: none is made for a short URL. */
export function callerRequestId(request: IncomingMessage): string | undefined {
  const id = request.headers['x-request-id'];
  return typeof id === 'string' && REQUEST_ID.test(id) ? id : undefined;
}

let lastUrl: string | undefined;
let lastSlug: string | null = null;

/** The slug of a request for a short URL (`/{slug}`, with or without a query), else null. */
export function shortUrlSlugOf(url: string | undefined): string | null {
  // The API process asks twice per request (its dispatch, then the handler), and hot links repeat: the
  // last answer is kept (one entry).
  if (url === lastUrl) return lastSlug;
  const match = url ? SLUG.exec(url) : null;
  lastUrl = url;
  lastSlug = match ? match[1] : null;
  return lastSlug;
}

let lastHost: string | undefined = '';
let lastHostName = '';

/** The request's host name, without port or IPv6 brackets, as the links domain compares hosts (lower case, no trailing dot). */
export function hostNameOf(host: string | undefined): string {
  // Nearly every request names the host the one before named: its answer is kept (one entry).
  if (host === lastHost) return lastHostName;
  const name = shortUrlHost((host ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, ''));
  lastHost = host;
  lastHostName = name;
  return name;
}

function readBody(request: IncomingMessage): Promise<string> {
  const declared = Number(request.headers['content-length'] ?? 0);
  if (declared > FORM_LIMIT_BYTES) {
    request.resume();
    return Promise.reject(new UnreadableBody(413));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > FORM_LIMIT_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        reject(new UnreadableBody(413));
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', () => reject(new UnreadableBody(400)));
  });
}

/**
 * The password a form post carries: an urlencoded form (the page's), or a JSON object (as the API's
 * Fastify parser took it before); no body at all is no password. Anything else is refused unread.
 */
async function readPassword(request: IncomingMessage): Promise<string | undefined> {
  const type = (request.headers['content-type'] ?? '').toLowerCase();
  const form = type.startsWith('application/x-www-form-urlencoded');
  const json = type.startsWith('application/json');
  if (!form && !json) {
    if (!type && !request.headers['content-length'] && !request.headers['transfer-encoding']) return undefined;
    request.resume();
    throw new UnreadableBody(415);
  }
  const text = await readBody(request);
  if (form) return new URLSearchParams(text).get('password') ?? undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UnreadableBody(400);
  }
  const password = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>)['password'] : undefined;
  return typeof password === 'string' ? password : undefined;
}

/**
 * Answers short URLs (GET, HEAD and the password form's POST on `/{slug}`) on a bare node:http request,
 * with no framework in between: the apps/redirect server, and the API process in front of Fastify.
 * What the answer is belongs to the links domain (AnswerShortUrlUseCase); this renders it.
 *
 * A redirect carries what it needs only (Location, Cache-Control, Content-Length: 0, and HSTS when short
 * URLs are https): it has no body for CSP, framing or sniffing rules to protect. Pages (404, the password
 * form) carry every document header. No request id is made here: a caller's sane X-Request-Id is echoed.
 */
export class ShortUrlHandler {
  /** Whether redirects carry HSTS (short URLs are https): decided once, so a redirect's headers are one flat array literal. */
  private readonly hsts: boolean;

  constructor(private readonly options: ShortUrlHandlerOptions) {
    this.hsts = new URL(options.shortBaseUrl).protocol === 'https:';
  }

  /** Takes the request when it is one for a short URL (returns true), or leaves it (false). */
  handle(request: IncomingMessage, response: ServerResponse): boolean {
    const method = request.method;
    if (method !== 'GET' && method !== 'HEAD' && method !== 'POST') return false;
    const slug = shortUrlSlugOf(request.url);
    if (slug === null) return false;
    if (method === 'POST') {
      this.unlock(slug, request, response).catch((error: unknown) => this.fail(error, request, response));
      return true;
    }
    // GET and HEAD, the hot path: a cached link is answered synchronously (no promise, no closure, no
    // microtask hop); one that has to wait for the database gets one promise (the use case's).
    const startedAt = this.options.onAnswered ? performance.now() : 0;
    try {
      const answering = this.options.answer;
      const short = this.requestOf(slug, request);
      const asked = answering.answer ? answering.answer(short) : answering.execute(short);
      if (asked instanceof Promise) {
        asked.then(
          (answer) => this.renderOrFail(answer, request, response, startedAt),
          (error: unknown) => this.fail(error, request, response),
        );
        return true;
      }
      this.render(asked, request, response, startedAt, null);
    } catch (error) {
      this.fail(error, request, response);
    }
    return true;
  }

  private renderOrFail(answer: ShortUrlAnswer, request: IncomingMessage, response: ServerResponse, startedAt: number): void {
    try {
      this.render(answer, request, response, startedAt, null);
    } catch (error) {
      this.fail(error, request, response);
    }
  }

  private requestOf(slug: string, request: IncomingMessage, password?: string): ShortUrlRequest {
    const url = request.url as string;
    const queryAt = url.indexOf('?');
    return {
      method: request.method as string,
      host: hostNameOf(this.options.host ? this.options.host(request) : request.headers.host),
      slug,
      rawQuery: queryAt < 0 ? '' : url.slice(queryAt + 1),
      userAgent: request.headers['user-agent'],
      referer: request.headers.referer,
      ip: this.options.clientAddress(request),
      ...(password !== undefined ? { password } : {}),
    };
  }

  /** The password form's POST. */
  private async unlock(slug: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
    const startedAt = this.options.onAnswered ? performance.now() : 0;
    // The password form is a public endpoint: its requests count against the address's public budget.
    let password: string | undefined;
    try {
      password = await readPassword(request);
    } catch (error) {
      if (!(error instanceof UnreadableBody)) throw error;
      this.options.counters.count('error');
      return this.page(request, response, error.status, unreadablePage(error.status), startedAt);
    }
    const limited = await this.options.passwordForms.consume(clientAddressKey(this.options.clientAddress(request)));
    if (limited.blocked) {
      this.options.counters.count('rate_limited');
      return this.page(request, response, 429, passwordPage(slug, 'Too many attempts; try again later.'), startedAt, limited.headers);
    }
    const answer = await this.options.answer.execute(this.requestOf(slug, request, password));
    this.render(answer, request, response, startedAt, limited.headers);
  }

  private render(
    answer: ShortUrlAnswer,
    request: IncomingMessage,
    response: ServerResponse,
    startedAt: number,
    extra: Record<string, string> | null,
  ): void {
    const { counters } = this.options;
    switch (answer.kind) {
      case 'redirect':
        counters.count('redirect');
        return this.redirect(request, response, answer.location, startedAt, answer.status);
      case 'password-form': {
        counters.count(answer.status === 200 ? 'password_page' : answer.status === 401 ? 'password_failed' : 'rate_limited');
        const headers = answer.retryAfterSeconds !== undefined ? { ...extra, 'retry-after': String(answer.retryAfterSeconds) } : extra;
        return this.page(request, response, answer.status, passwordPage(answer.slug, answer.error), startedAt, headers);
      }
      case 'password-accepted':
        // A page that goes on, not a redirect: the form's CSP form-action stays 'self' (a redirect answering a
        // form is checked against form-action, which would then have to name the destination's origin).
        counters.count('redirect');
        return this.page(request, response, 200, onwardPage(answer.location), startedAt, extra);
      case 'not-found':
        counters.count('not_found');
        if (answer.redirectTo) return this.redirect(request, response, answer.redirectTo, startedAt);
        return this.page(request, response, 404, notFoundPage(), startedAt, extra);
      case 'expired':
        // Past its expiry or its visits: the link's expiredUrl (302), else 410 Gone; never the destination.
        counters.count('expired');
        if (answer.redirectTo) return this.redirect(request, response, answer.redirectTo, startedAt);
        return this.page(request, response, 410, expiredPage(), startedAt, extra);
      case 'unusable-destination':
        // A destination stored before destinations were checked as they are now, which no redirect can carry.
        counters.count('error');
        return this.page(request, response, 500, brokenDestinationPage(), startedAt, extra);
    }
  }

  /** `status`: a link's redirectType (301, 307, 308); 302 when absent. */
  private redirect(request: IncomingMessage, response: ServerResponse, location: string, startedAt: number, status = 302): void {
    // writeHead's flat [name, value, ...] form: no object built and spread per redirect.
    const headers = this.hsts
      ? ['location', location, 'cache-control', REDIRECT_CACHE_CONTROL, 'content-length', '0', 'strict-transport-security', HSTS]
      : ['location', location, 'cache-control', REDIRECT_CACHE_CONTROL, 'content-length', '0'];
    const id = request.headers['x-request-id'];
    if (typeof id === 'string' && REQUEST_ID.test(id)) headers.push('x-request-id', id);
    response.writeHead(status, headers);
    response.end();
    this.options.onAnswered?.(request, status, startedAt);
  }

  private page(
    request: IncomingMessage,
    response: ServerResponse,
    status: number,
    html: string,
    startedAt: number,
    extra?: Record<string, string> | null,
  ): void {
    const body = Buffer.from(html, 'utf8');
    const headers: Record<string, string> = {
      ...DOCUMENT_SECURITY_HEADERS,
      ...pageHeaders(),
      ...extra,
      'content-length': String(body.length),
    };
    const id = request.headers['x-request-id'];
    if (typeof id === 'string' && REQUEST_ID.test(id)) headers['x-request-id'] = id;
    // A POST answered before its body was read (refused) would otherwise leave the rest on the connection.
    if (request.method === 'POST' && !request.complete) headers['connection'] = 'close';
    response.writeHead(status, headers);
    response.end(request.method === 'HEAD' ? undefined : body);
    this.options.onAnswered?.(request, status, startedAt);
  }

  private fail(error: unknown, request: IncomingMessage, response: ServerResponse): void {
    this.options.onError(error, request);
    this.options.counters.count('error');
    if (response.headersSent) {
      response.destroy();
      return;
    }
    this.page(
      request,
      response,
      503,
      '<!doctype html><title>Unavailable</title><p>This link cannot be opened right now; try again shortly.</p>',
      0,
    );
  }
}
