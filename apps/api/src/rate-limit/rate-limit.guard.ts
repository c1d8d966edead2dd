import { CanActivate, ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { InjectThrottlerOptions, InjectThrottlerStorage, SkipThrottle, ThrottlerModuleOptions, ThrottlerStorage } from '@nestjs/throttler';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '@lnk/identity/domain';
import { clientAddressKey } from '@lnk/shared/client-address';
import { RateLimitedError } from '@lnk/shared/kernel';
import { PUBLIC_ROUTE, RATE_LIMIT_BUDGET } from '@lnk/shared/http';
import { perRoute } from '../auth/route-metadata';
import { AppConfig, RateLimit, APP_CONFIG } from '@lnk/composition';

/** The budgets: the API's, the public endpoints', and the ones routes take with @RateLimitBudget (QR codes). */
export type RateLimitKind = 'api' | 'public' | 'qr';

/**
 * Who a request counts against. On the API, once its bearer token is known to be valid (the access guard
 * runs first and charges refused requests itself), the token's account: every token of an account (its
 * sign-ins, its PATs, the apps it authorised) spends one budget, so minting tokens buys no more requests
 * nor QR codes. Otherwise the client address (an IPv6 address as its /64), so a made-up token gets no
 * budget of its own.
 */
export function trackerOf(request: FastifyRequest, kind: RateLimitKind): string {
  const principal = (request as FastifyRequest & { user?: Principal }).user;
  if (kind !== 'public' && principal) return `account:${principal.userId}`;
  return `ip:${clientAddressKey(request.ip)}`;
}

/**
 * The metadata key @SkipThrottle() writes for the throttler `name`. The package exports the decorator but
 * not its key (a constant of its dist/ folder), so the key is read off a class decorated once, at start-up:
 * what the decorator marks is what the guard reads. A release that marks targets otherwise fails here, at
 * start-up and in rate-limit.guard.spec.ts, rather than counting the routes meant to be skipped.
 */
export function skipThrottleKey(name: string): string | symbol {
  class Probe {}
  SkipThrottle({ [name]: true })(Probe);
  const keys = Reflect.getOwnMetadataKeys(Probe).filter((key) => Reflect.getOwnMetadata(key, Probe) === true);
  if (keys.length !== 1)
    throw new Error(
      '@SkipThrottle() of @nestjs/throttler no longer marks its target with one metadata entry ' +
        `per throttler (found ${keys.length}): the rate-limit guard cannot read it`,
    );
  return keys[0] as string | symbol;
}

/** RateLimit-* headers (IETF draft names) of one counted request. */
export function rateLimitHeaders(limit: RateLimit, remaining: number, resetSeconds: number): Record<string, string> {
  return {
    'ratelimit-limit': String(limit.limit),
    'ratelimit-remaining': String(Math.max(0, remaining)),
    'ratelimit-reset': String(Math.max(0, resetSeconds)),
    'ratelimit-policy': `${limit.limit};w=${limit.seconds}`,
  };
}

export interface RateLimitOutcome {
  blocked: boolean;
  retryAfterSeconds: number;
  headers: Record<string, string>;
}

/** Counts one request of `kind` from `request` against its budget (used by the guard and the plain Fastify routes). */
export function consumeRateLimit(
  storage: ThrottlerStorage,
  config: AppConfig,
  request: FastifyRequest,
  kind: RateLimitKind,
): Promise<RateLimitOutcome> {
  return consumeBudget(storage, config, kind, trackerOf(request, kind));
}

/**
 * Counts one request of `kind` against `tracker`'s budget (`ip:<address key>` or `account:<user id>`); the short-URL handler's password
 * form too.
 */
export async function consumeBudget(
  storage: ThrottlerStorage,
  config: AppConfig,
  kind: RateLimitKind,
  tracker: string,
): Promise<RateLimitOutcome> {
  const budget = config.rateLimits[kind];
  const ttl = budget.seconds * 1000;
  const record = await storage.increment(`${kind}:${tracker}`, ttl, budget.limit, ttl, 'default');
  const retryAfterSeconds = Math.max(1, record.timeToBlockExpire);
  const headers = rateLimitHeaders(budget, budget.limit - record.totalHits, record.isBlocked ? retryAfterSeconds : record.timeToExpire);
  return {
    blocked: record.isBlocked,
    retryAfterSeconds,
    headers: record.isBlocked ? { ...headers, 'retry-after': String(retryAfterSeconds) } : headers,
  };
}

/**
 * The guard of @nestjs/throttler's counters (its storage, its @SkipThrottle()) with the service's two
 * budgets: each account (or address) on the API, each address on the public endpoints (OAuth,
 * authorization page, forms). A budget is shared by all routes of its kind. Over it: 429 RATE_LIMITED
 * with Retry-After and the RateLimit-* headers.
 *
 * Not the throttler's ThrottlerGuard: per request, that one read each throttler's skip, limit, ttl, block
 * duration, tracker and key generator from the route's metadata (a dozen reflect-metadata lookups) and
 * awaited each, while the budgets come from configuration. Here @SkipThrottle() and the route's budget
 * are read once per route; each throttler a route does not skip counts the request once (there is one,
 * 'default', see rate-limit.module.ts), as there.
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  /** The key @SkipThrottle() marks a route with, per throttler. */
  private readonly skipKeys: (string | symbol)[];
  private readonly countedOf = perRoute((handler, controller) => {
    const targets = [handler, controller];
    const kind: RateLimitKind =
      this.reflector.getAllAndOverride<RateLimitKind | undefined>(RATE_LIMIT_BUDGET, targets) ??
      (this.reflector.getAllAndOverride<boolean>(PUBLIC_ROUTE, targets) ? 'public' : 'api');
    const times = this.skipKeys.filter((key) => !this.reflector.getAllAndOverride<boolean>(key, targets)).length;
    return { kind, times };
  });

  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly reflector: Reflector,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.skipKeys = (Array.isArray(options) ? options : options.throttlers).map((throttler) =>
      skipThrottleKey(throttler.name ?? 'default'),
    );
  }

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const { kind, times } = this.countedOf(context);
    return times === 0 || this.count(context, kind, times);
  }

  private async count(context: ExecutionContext, kind: RateLimitKind, times: number): Promise<boolean> {
    const http = context.switchToHttp();
    for (let i = 0; i < times; i++) {
      const outcome = await consumeRateLimit(this.storage, this.config, http.getRequest<FastifyRequest>(), kind);
      void http.getResponse<FastifyReply>().headers(outcome.headers);
      if (outcome.blocked) throw new RateLimitedError(outcome.retryAfterSeconds);
    }
    return true;
  }
}
