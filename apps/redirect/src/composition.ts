import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ClickBuffer } from '@lnk/analytics/domain';
import { analyticsPersistence, TypeormStatsRepository } from '@lnk/analytics/adapter-typeorm';
import { domainsPersistence, TypeormDomainRepository } from '@lnk/domains/adapter-typeorm';
import { BcryptPasswordHasher } from '@lnk/identity/adapter-crypto';
import { AnswerShortUrlUseCase } from '@lnk/links/domain';
import { LinkDomainsViaDomains, webhookEventSinks } from '@lnk/bridges';
import { TypeormWebhookOutbox, webhooksPersistence } from '@lnk/webhooks/adapter-typeorm';
import { linksPersistence, TypeormLinkRepository } from '@lnk/links/adapter-typeorm';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { createDataSource, databaseBounds, PersistenceModule } from '@lnk/shared/database';
import { RedisBus } from '@lnk/shared/redis';
import { poolFiguresOf } from '@lnk/shared/metrics';
import { composeShortUrlEdge, hearOtherInstances } from '@lnk/composition/edge';
import type { RedirectConfig } from './config';
import { RedirectMetrics } from './redirect-metrics';

/**
 * The redirect app's composition root: the short-URL edge as the API composes it (composeShortUrlEdge:
 * resolving a short URL, the password check, the click buffer, the webhook events a visit makes), on the
 * API's database, with no framework, and the API's cache invalidations through Redis.
 */

/** The tables a short URL reads and writes (webhooks: the outbox its clicks enqueue to); the API owns the schema (its migrations). */
export const REDIRECT_PERSISTENCE: PersistenceModule[] = [linksPersistence, domainsPersistence, analyticsPersistence, webhooksPersistence];

export interface RedirectContexts {
  dataSource: DataSource;
  answer: AnswerShortUrlUseCase;
  clicks: ClickBuffer;
  metrics: RedirectMetrics;
  bus: RedisBus | null;
}

/** Connects to the API's database (refusing a schema the API has not migrated yet) and composes the use cases. */
export async function composeRedirect(config: RedirectConfig, logger: Logger): Promise<RedirectContexts> {
  const bounds = databaseBounds(config.databaseBounds);
  const dataSource = createDataSource(
    { kind: 'postgres', url: config.databaseUrl, poolSize: config.poolSize },
    REDIRECT_PERSISTENCE,
    undefined,
    { connectTimeoutMs: bounds.connectTimeoutMs, query: bounds.requests },
  );
  await dataSource.initialize();
  if (await dataSource.showMigrations()) {
    await dataSource.destroy();
    throw new Error(
      'the database schema is behind this version: start the API on it first (it applies the migrations), or run `npm run migrate`',
    );
  }
  const metrics = new RedirectMetrics(poolFiguresOf(dataSource));
  // Webhooks: the owners with a webhook for clicks (or for a link's last visit) get their events enqueued
  // with the click write, as in the API (the same webhookEventSinks); everyone else's clicks pay one Set lookup.
  const ids = new ObjectIdGenerator();
  const clock = new SystemClock();
  const webhooks = webhookEventSinks(new TypeormWebhookOutbox(dataSource), ids, clock, (error) =>
    logger.warn({ err: error.message }, 'webhooks: could not read the subscribers'),
  );
  await webhooks.ready();
  const edge = composeShortUrlEdge({
    dataSource,
    settings: config,
    logger,
    metrics,
    clock,
    links: new TypeormLinkRepository(dataSource),
    linkDomains: new LinkDomainsViaDomains(new TypeormDomainRepository(dataSource)),
    stats: new TypeormStatsRepository(dataSource, ids),
    // This app only verifies link passwords (bcrypt reads the cost from each hash): the cost given here is never used.
    passwords: new BcryptPasswordHasher(4),
    webhooks,
  });
  // The API publishes every link, domain and webhook change: this app's caches forget them at once.
  const bus = config.redisUrl ? new RedisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis')) : null;
  if (bus) await hearOtherInstances(bus, edge, config, logger, metrics);
  return { dataSource, answer: edge.answer, clicks: edge.clicks, metrics, bus };
}
