import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { ClickBuffer, LinkClickTotals } from '@lnk/analytics/domain';
import { analyticsPersistence, TypeormStatsRepository } from '@lnk/analytics/adapter-typeorm';
import { DomainRepository } from '@lnk/domains/domain';
import { domainsPersistence, TypeormDomainRepository } from '@lnk/domains/adapter-typeorm';
import { InMemoryLoginThrottle, LoginThrottleOptions } from '@lnk/identity/adapter-crypto';
import type { LoginThrottle } from '@lnk/identity/domain';
import {
  AnswerShortUrlUseCase,
  CheckLinkPasswordUseCase,
  ClickRecorder,
  LinkClicked,
  LinkDomain,
  LinkDomains,
  LinkRepository,
  PasswordAttempt,
  PasswordAttempts,
  ResolveRedirectUseCase,
} from '@lnk/links/domain';
import { linksPersistence, TypeormLinkRepository } from '@lnk/links/adapter-typeorm';
import { BcryptLinkPasswordHasher } from '@lnk/links/adapter-crypto';
import { IsbotBotDetector } from '@lnk/links/adapter-isbot';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { createDataSource, PersistenceModule, TypeormUnitOfWork } from '@lnk/shared/database';
import { CACHE_CHANNELS, RedisBus } from '@lnk/shared/redis';
import type { RedirectConfig } from './config';
import { RedirectMetrics } from './redirect-metrics';

/**
 * The redirect app's composition root: the links, domains and analytics libraries the API is built from,
 * bound to the same adapters, with no framework. Only what answering a short URL needs: resolving it, the
 * password check, the click buffer, and the API's cache invalidations through Redis.
 */

/** The tables a short URL reads and writes; the API owns the schema (its migrations). */
export const REDIRECT_PERSISTENCE: PersistenceModule[] = [linksPersistence, domainsPersistence, analyticsPersistence];

/** The API's rule for guesses at a link's password (per process, as in the API). */
const LINK_PASSWORD_THROTTLE: LoginThrottleOptions = {
  rules: [
    { prefix: 'link-ip:', maxFailures: 10, freeFailures: 3, forgivenBySuccess: true },
    { prefix: 'link:', maxFailures: 100, freeFailures: 20, forgivenBySuccess: false },
  ],
  windowMs: 15 * 60_000,
  delayStepMs: 100,
  maxDelayMs: 1000,
};

// The bridges between contexts, as the API composes them (an app's own wiring; the contexts never import each other).

class VerifiedDomains extends LinkDomains {
  constructor(private readonly domains: DomainRepository) {
    super();
  }

  async verifiedDomainOf(ownerId: string, domainId: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedOfOwner(ownerId, domainId);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async verifiedDomainByName(name: string): Promise<LinkDomain | null> {
    const domain = await this.domains.findVerifiedByName(name);
    return domain ? { id: domain.id, name: domain.name } : null;
  }

  async namesOf(ownerId: string, domainIds: string[]): Promise<Map<string, string>> {
    const found = await Promise.all(domainIds.map((id) => this.domains.findOfOwner(ownerId, id)));
    return new Map(found.filter((d) => d !== null).map((d) => [d.id, d.name]));
  }
}

class ClickTotalsOfLinks extends LinkClickTotals {
  constructor(private readonly links: LinkRepository) {
    super();
  }

  addVisits(visitsByLink: Map<string, number>): Promise<void> {
    return this.links.addClicks(visitsByLink);
  }
}

class BufferedClicks extends ClickRecorder {
  constructor(private readonly buffer: ClickBuffer) {
    super();
  }

  record(click: LinkClicked): void {
    this.buffer.record(click);
  }
}

class ThrottledAttempts extends PasswordAttempts {
  constructor(private readonly throttle: LoginThrottle) {
    super();
  }

  admit(keys: string[]): Promise<PasswordAttempt> {
    return this.throttle.admit(keys);
  }
}

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
  const dataSource = createDataSource({ kind: 'postgres', url: config.databaseUrl, poolSize: config.poolSize }, REDIRECT_PERSISTENCE);
  await dataSource.initialize();
  if (await dataSource.showMigrations()) {
    await dataSource.destroy();
    throw new Error('the database schema is behind this version: start the API on it first (it applies the migrations), or run `npm run migrate`');
  }
  const linkRepository = new TypeormLinkRepository(dataSource);
  const resolveRedirect = new ResolveRedirectUseCase(linkRepository, new VerifiedDomains(new TypeormDomainRepository(dataSource)), config.redirectCache);
  const checkPassword = new CheckLinkPasswordUseCase(new BcryptLinkPasswordHasher(4), new ThrottledAttempts(new InMemoryLoginThrottle(LINK_PASSWORD_THROTTLE)));
  let clicks: ClickBuffer | null = null;
  const metrics = new RedirectMetrics(() => clicks?.size ?? 0, poolOf(dataSource));
  const clickMetrics = {
    written: (count: number) => metrics.written(count),
    dropped: (count: number) => {
      metrics.dropped(count);
      logger.error({ dropped: count }, 'click buffer full: clicks dropped');
    },
  };
  clicks = new ClickBuffer(new TypeormStatsRepository(dataSource, new ObjectIdGenerator()), new ClickTotalsOfLinks(linkRepository), new TypeormUnitOfWork(dataSource), clickMetrics, { maxRows: config.clickBufferMaxRows });
  const answer = new AnswerShortUrlUseCase(resolveRedirect, checkPassword, new BufferedClicks(clicks), new IsbotBotDetector(), new SystemClock(), {
    defaultDomainName: new URL(config.shortBaseUrl).hostname,
    notFoundRedirectUrl: config.notFoundRedirectUrl,
  });
  // The API publishes every link and domain change: this app's cache forgets them at once.
  let bus: RedisBus | null = null;
  if (config.redisUrl) {
    bus = new RedisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis'));
    await bus.subscribe(CACHE_CHANNELS.linkChanged, (message) => {
      const { domainId, slug } = (message ?? {}) as { domainId?: unknown; slug?: unknown };
      if (typeof slug === 'string' && (domainId === null || typeof domainId === 'string')) resolveRedirect.linkChanged(domainId, slug);
    });
    await bus.subscribe(CACHE_CHANNELS.domainChanged, (message) => {
      const { name } = (message ?? {}) as { name?: unknown };
      if (typeof name === 'string') resolveRedirect.forgetHost(name);
    });
  }
  return { dataSource, answer, resolveRedirect, clicks, metrics, bus };
}

function poolOf(dataSource: DataSource) {
  return () => {
    const pool = (dataSource.driver as { master?: { totalCount?: number; idleCount?: number; waitingCount?: number } }).master;
    return pool && typeof pool.totalCount === 'number' ? { totalCount: pool.totalCount, idleCount: pool.idleCount ?? 0, waitingCount: pool.waitingCount ?? 0 } : null;
  };
}
