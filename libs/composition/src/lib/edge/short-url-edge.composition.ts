import type { Logger } from 'pino';
import type { DataSource } from 'typeorm';
import { ClickBuffer, StatsRepository } from '@lnk/analytics/domain';
import { BowserClickDimensions } from '@lnk/analytics/adapter-bowser';
import { InMemoryLoginThrottle } from '@lnk/identity/adapter-crypto';
import {
  AnswerShortUrlUseCase,
  CheckLinkPasswordUseCase,
  LinkDomains,
  LinkRepository,
  RepositoryRedirectLookup,
  ResolveRedirectUseCase,
} from '@lnk/links/domain';
import { CachedRedirectLookup } from '@lnk/links/adapter-cache';
import { TypeormVisitLimits } from '@lnk/links/adapter-typeorm';
import { IsbotBotDetector } from '@lnk/links/adapter-isbot';
import {
  ClickRecorderViaAnalytics,
  LINK_PASSWORD_THROTTLE,
  LinkClickTotalsViaLinks,
  PasswordAttemptsViaIdentity,
  VisitorLocatorViaAnalytics,
  webhookEventSinks,
} from '@lnk/bridges';
import type { Clock, PasswordHasher } from '@lnk/shared/kernel';
import type { DatabaseBoundsConfig, ShortUrlEdgeConfig } from '@lnk/shared/config';
import { databaseBounds, TypeormUnitOfWork } from '@lnk/shared/database';
import { CacheListeners, listenToOtherInstances, RedisBus } from '@lnk/shared/redis';
import type { ServiceMetrics } from '@lnk/shared/metrics';

/**
 * The short-URL edge: what answering a short URL takes (the redirect lookup and its cache, the password
 * check, the click buffer, the webhook events a visit makes) and what other instances' changes do to its
 * caches. The API and the redirect app compose it here, from the same adapters: this file (the
 * `@lnk/composition/edge` entry point) loads no Nest and no other context, so the redirect app stays light.
 */

/** The settings of the edge: the variables the API and the redirect app both read (AppConfig and RedirectConfig have them). */
export interface ShortUrlEdgeSettings extends ShortUrlEdgeConfig {
  shortBaseUrl: string;
  /** The hosts that get the default short domain's links. */
  shortHosts: string[];
  notFoundRedirectUrl: string | null;
  databaseBounds: DatabaseBoundsConfig;
  /** How long cached answers live while Redis is away (the other instances' changes are not heard). */
  redisOutageCacheTtlMs: number;
}

/** What the edge is built on: the app's database and settings, and the ports it shares with the rest of the app. */
export interface ShortUrlEdgeParts {
  dataSource: DataSource;
  settings: ShortUrlEdgeSettings;
  logger: Logger;
  metrics: ServiceMetrics;
  clock: Clock;
  /** The app's link repository (the API's tells its list cache of every write). */
  links: LinkRepository;
  linkDomains: LinkDomains;
  stats: StatsRepository;
  /** Verifies link passwords (bcrypt reads the cost from each hash). */
  passwords: PasswordHasher;
  /** The webhook intake (webhookEventSinks): clicks and a link's last visit are told to it. */
  webhooks: Pick<ReturnType<typeof webhookEventSinks>, 'clickEvents' | 'lifecycleEvents' | 'subscribers'>;
}

/** Composes the edge; `listeners` and `forgetAll` are what an app gives `hearOtherInstances` for it. */
export function composeShortUrlEdge(parts: ShortUrlEdgeParts) {
  const { dataSource, settings, logger, metrics, clock, webhooks } = parts;
  const redirectCache = new CachedRedirectLookup(new RepositoryRedirectLookup(parts.links, parts.linkDomains), settings.redirectCache);
  const resolveRedirect = new ResolveRedirectUseCase(redirectCache, settings.shortHosts);
  const checkPassword = new CheckLinkPasswordUseCase(
    parts.passwords,
    new PasswordAttemptsViaIdentity(new InMemoryLoginThrottle(LINK_PASSWORD_THROTTLE)),
  );
  // One parser and country table for statistics and for links' targets (each remembers what it has read).
  const dimensions = new BowserClickDimensions();
  const clicks = new ClickBuffer({
    stats: parts.stats,
    totals: new LinkClickTotalsViaLinks(parts.links),
    unitOfWork: new TypeormUnitOfWork(dataSource, databaseBounds(settings.databaseBounds).clicks),
    metrics: metrics.clickMetricsLoggingDrops(logger),
    dimensions,
    options: { maxRows: settings.clickBufferMaxRows, dimensions: settings.clickDimensions },
    clickEvents: webhooks.clickEvents,
  });
  metrics.watchClickBuffer(() => clicks.size);
  // What a short URL answers, and which visits count (bots by isbot's list, remembered per User-Agent).
  const answer = new AnswerShortUrlUseCase({
    resolve: resolveRedirect,
    checkPassword,
    clicks: new ClickRecorderViaAnalytics(clicks),
    bots: new IsbotBotDetector(),
    clock,
    config: { defaultDomainName: new URL(settings.shortBaseUrl).hostname, notFoundRedirectUrl: settings.notFoundRedirectUrl },
    visitLimits: new TypeormVisitLimits(dataSource),
    visitors: new VisitorLocatorViaAnalytics(dimensions),
    lifecycle: webhooks.lifecycleEvents,
    onError: (error) => logger.warn({ err: error.message }, 'webhooks: a link.limit_reached event was not recorded'),
  });
  // Another instance's change: the link or host is forgotten at once; a webhook made or changed: clicks
  // are enqueued for its owner from the moment this is heard.
  const listeners = {
    linkChanged: (domainId, slug) => redirectCache.linkChanged(domainId, slug),
    domainChanged: (name) => redirectCache.hostChanged(name),
    webhooksChanged: () => webhooks.subscribers.invalidate(),
  } satisfies CacheListeners;
  const forgetAll = () => {
    redirectCache.forgetAll();
    webhooks.subscribers.invalidate();
  };
  return { redirectCache, resolveRedirect, answer, clicks, listeners, forgetAll };
}

export type ShortUrlEdge = ReturnType<typeof composeShortUrlEdge>;

/** What an app hears from the other instances: its caches' listeners, and how to empty them all. */
export interface InstanceChanges {
  listeners: CacheListeners;
  /** Empties every cache the listeners keep honest (messages may have been missed). */
  forgetAll: () => void;
}

/**
 * Subscribes to the other instances' changes on `bus`. Redis away: their changes are not heard, so
 * nothing cached lives longer than REDIS_OUTAGE_CACHE_TTL meanwhile, and everything cached is forgotten
 * when Redis is back.
 */
export async function hearOtherInstances(
  bus: RedisBus,
  changes: InstanceChanges,
  settings: Pick<ShortUrlEdgeSettings, 'redisOutageCacheTtlMs'>,
  logger: Logger,
  metrics: ServiceMetrics,
): Promise<void> {
  bus.guardCaches(changes.forgetAll, settings.redisOutageCacheTtlMs);
  bus.onStateChange((up) =>
    up
      ? logger.info('redis subscription in place: invalidations from other instances are heard (caches emptied after an outage)')
      : logger.warn(
          { cacheTtlSeconds: settings.redisOutageCacheTtlMs / 1000 },
          'redis unreachable: invalidations from other instances are not heard; caches kept short-lived until it answers',
        ),
  );
  metrics.watchRedis('invalidations', () => bus.up);
  await listenToOtherInstances(bus, changes.listeners);
}
