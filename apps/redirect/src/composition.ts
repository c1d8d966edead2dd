import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ClickBuffer } from '@lnk/analytics/domain';
import { analyticsPersistence, TypeormStatsRepository } from '@lnk/analytics/adapter-typeorm';
import { BowserClickDimensions } from '@lnk/analytics/adapter-bowser';
import { domainsPersistence, TypeormDomainRepository } from '@lnk/domains/adapter-typeorm';
import { BcryptPasswordHasher, InMemoryLoginThrottle } from '@lnk/identity/adapter-crypto';
import { AnswerShortUrlUseCase, CheckLinkPasswordUseCase, RepositoryRedirectLookup, ResolveRedirectUseCase } from '@lnk/links/domain';
import { CachedRedirectLookup } from '@lnk/links/adapter-cache';
import { ClickRecorderViaAnalytics, VisitorLocatorViaAnalytics, LinkDomainsViaDomains, LINK_PASSWORD_THROTTLE, LinkClickTotalsViaLinks, PasswordAttemptsViaIdentity, webhookEventSinks } from '@lnk/bridges';
import { TypeormWebhookOutbox, webhooksPersistence } from '@lnk/webhooks/adapter-typeorm';
import { linksPersistence, TypeormLinkRepository, TypeormVisitLimits } from '@lnk/links/adapter-typeorm';
import { IsbotBotDetector } from '@lnk/links/adapter-isbot';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { createDataSource, databaseBounds, PersistenceModule, TypeormUnitOfWork } from '@lnk/shared/database';
import { listenToOtherInstances, RedisBus } from '@lnk/shared/redis';
import { poolFiguresOf } from '@lnk/shared/metrics';
import type { RedirectConfig } from './config';
import { RedirectMetrics } from './redirect-metrics';

/**
 * The redirect app's composition root: the links, domains and analytics libraries the API is built from,
 * bound to the same adapters, with no framework. Only what answering a short URL needs: resolving it, the
 * password check, the click buffer, the webhook events a visit makes (link.clicked with the click write,
 * link.limit_reached), and the API's cache invalidations through Redis.
 */

/** The tables a short URL reads and writes (webhooks: the outbox its clicks enqueue to); the API owns the schema (its migrations). */
export const REDIRECT_PERSISTENCE: PersistenceModule[] = [linksPersistence, domainsPersistence, analyticsPersistence, webhooksPersistence];

export interface RedirectContexts {
  dataSource: DataSource;
  answer: AnswerShortUrlUseCase;
  resolveRedirect: ResolveRedirectUseCase;
  clicks: ClickBuffer;
  metrics: RedirectMetrics;
  bus: RedisBus | null;
}

/** Connects to the API's database (refusing a schema the API has not migrated yet) and composes the use cases. */
export async function composeRedirect(config: RedirectConfig, logger: Logger): Promise<RedirectContexts> {
  const bounds = databaseBounds(config.databaseBounds);
  const dataSource = createDataSource({ kind: 'postgres', url: config.databaseUrl, poolSize: config.poolSize }, REDIRECT_PERSISTENCE, undefined, { connectTimeoutMs: bounds.connectTimeoutMs, query: bounds.requests });
  await dataSource.initialize();
  if (await dataSource.showMigrations()) {
    await dataSource.destroy();
    throw new Error('the database schema is behind this version: start the API on it first (it applies the migrations), or run `npm run migrate`');
  }
  const linkRepository = new TypeormLinkRepository(dataSource);
  const redirectCache = new CachedRedirectLookup(new RepositoryRedirectLookup(linkRepository, new LinkDomainsViaDomains(new TypeormDomainRepository(dataSource))), config.redirectCache);
  const resolveRedirect = new ResolveRedirectUseCase(redirectCache, config.shortHosts);
  // This app only verifies link passwords (bcrypt reads the cost from each hash): the cost given here is never used.
  const checkPassword = new CheckLinkPasswordUseCase(new BcryptPasswordHasher(4), new PasswordAttemptsViaIdentity(new InMemoryLoginThrottle(LINK_PASSWORD_THROTTLE)));
  let clicks: ClickBuffer | null = null;
  const metrics = new RedirectMetrics(() => clicks?.size ?? 0, poolFiguresOf(dataSource));

  // Webhooks: the owners with a webhook for clicks (or for a link's last visit) get their events enqueued
  // with the click write, as in the API (the same webhookEventSinks); everyone else's clicks pay one Set lookup.
  const ids = new ObjectIdGenerator();
  const clock = new SystemClock();
  const webhooks = webhookEventSinks(new TypeormWebhookOutbox(dataSource), ids, clock, (error) => logger.warn({ err: error.message }, 'webhooks: could not read the subscribers'));
  await webhooks.ready();

  // One parser and country table for statistics and for links' targets (each remembers what it has read).
  const clickDimensions = new BowserClickDimensions();
  clicks = new ClickBuffer({ stats: new TypeormStatsRepository(dataSource, ids), totals: new LinkClickTotalsViaLinks(linkRepository), unitOfWork: new TypeormUnitOfWork(dataSource, bounds.clicks), metrics: metrics.clickMetricsLoggingDrops(logger), dimensions: clickDimensions, options: { maxRows: config.clickBufferMaxRows, dimensions: config.clickDimensions }, clickEvents: webhooks.clickEvents });
  const answer = new AnswerShortUrlUseCase({
    resolve: resolveRedirect,
    checkPassword,
    clicks: new ClickRecorderViaAnalytics(clicks),
    bots: new IsbotBotDetector(),
    clock,
    config: {
      defaultDomainName: new URL(config.shortBaseUrl).hostname,
      notFoundRedirectUrl: config.notFoundRedirectUrl,
    },
    visitLimits: new TypeormVisitLimits(dataSource),
    visitors: new VisitorLocatorViaAnalytics(clickDimensions),
    lifecycle: webhooks.lifecycleEvents,
    onError: (error) => logger.warn({ err: error.message }, 'webhooks: a link.limit_reached event was not recorded'),
  });
  // The API publishes every link and domain change: this app's cache forgets them at once.
  let bus: RedisBus | null = null;
  if (config.redisUrl) {
    bus = new RedisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis'));
    // Redis away: the API's changes are not heard, so nothing cached lives longer than REDIS_OUTAGE_CACHE_TTL
    // meanwhile, and everything cached is forgotten when Redis is back.
    bus.guardCaches(() => {
      redirectCache.forgetAll();
      webhooks.subscribers.invalidate();
    }, config.redisOutageCacheTtlMs);
    bus.onStateChange((up) =>
      up
        ? logger.info('redis subscription in place: link and domain changes are heard (cache emptied after an outage)')
        : logger.warn({ cacheTtlSeconds: config.redisOutageCacheTtlMs / 1000 }, 'redis unreachable: link and domain changes are not heard; cache kept short-lived until it answers'),
    );
    const subscription = bus;
    metrics.watchRedis('invalidations', () => subscription.up);
    // The API's changes, as its other instances hear them; a webhook made or changed: clicks are enqueued for its owner from the moment this is heard.
    await listenToOtherInstances(bus, {
      linkChanged: (domainId, slug) => redirectCache.linkChanged(domainId, slug),
      webhooksChanged: () => webhooks.subscribers.invalidate(),
      domainChanged: (name) => redirectCache.hostChanged(name),
    });
  }
  return { dataSource, answer, resolveRedirect, clicks, metrics, bus };
}
