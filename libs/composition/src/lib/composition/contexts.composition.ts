import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import type { AnalyticsPorts } from '@lnk/analytics/adapter-nest';
import { TypeormStatsInsightRepository, TypeormStatsRepository } from '@lnk/analytics/adapter-typeorm';
import { BcryptPasswordHasher } from '@lnk/identity/adapter-crypto';
import type { LoginThrottle } from '@lnk/identity/domain';
import { LinkListChanges, RepositoryLinkLists } from '@lnk/links/domain';
import { CachedLinkLists, weighLinkListAnswer } from '@lnk/links/adapter-cache';
import type { LinksPorts, LinksSettings } from '@lnk/links/adapter-nest';
import { TypeormLinkRepository, TypeormTagRepository } from '@lnk/links/adapter-typeorm';
import { CryptoSlugGenerator } from '@lnk/links/adapter-crypto';
import {
  AllowCertificateUseCase,
  DomainVerificationListener,
  RecheckDomainsUseCase,
  RepositoryCertificateHostLookup,
} from '@lnk/domains/domain';
import { CachedCertificateHostLookup } from '@lnk/domains/adapter-cache';
import type { DomainsPorts, DomainsSettings } from '@lnk/domains/adapter-nest';
import { TypeormDomainRepository } from '@lnk/domains/adapter-typeorm';
import { CryptoChallengeGenerator, NodeDnsResolver } from '@lnk/domains/adapter-dns';
import { ObjectIdGenerator, SystemClock } from '@lnk/shared/kernel';
import { TypeormUnitOfWork } from '@lnk/shared/database';
import {
  broadcastAccountChanges,
  broadcastDomainChanges,
  broadcastLinkChanges,
  broadcastLinkListChanges,
  broadcastRevocations,
  broadcastWebhookChanges,
} from '../bridges/cache-broadcast';
import { RedisBus } from '@lnk/shared/redis';
import {
  AccountDataEraserViaOtherContexts,
  LinkDomainsViaDomains,
  AccountLimitsReaderViaBilling,
  DomainUsageViaLinks,
  StatsLinksViaLinks,
  DomainVerificationListenerViaLinks,
  AccountUsageViaLinksAndDomains,
} from '@lnk/bridges';
import { AppConfig } from '../config/app-config';
import { composeIdentity } from './identity.composition';
import { composeBilling } from './billing.composition';
import { composeWebhooks } from './webhooks.composition';
import { poolFiguresOf, ServiceMetrics } from '@lnk/shared/metrics';
import { composeShortUrlEdge } from '../edge/short-url-edge.composition';

/** Every context with its ports bound to adapters, and the bridges between contexts: the composition root. */

/** The Redis bus other instances listen on (REDIS_URL set), or none; whoever opens it closes it. */
export function openBus(config: AppConfig, logger: Logger): RedisBus | null {
  return config.redisUrl ? new RedisBus(config.redisUrl, (error) => logger.warn({ err: error.message }, 'redis')) : null;
}

/** The list cache's bounds: answers held across all accounts, and about the memory they take. */
const LINK_LIST_CACHE = { maxEntries: 10_000, maxBytes: 32 * 1024 * 1024 };

/**
 * TLS asks: answers kept per host (a flood of made-up names cannot push out the allowed ones; refusals
 * live shorter, though a verification tells them at once), and database lookups running at once.
 */
const CERTIFICATE_ASKS = { cache: { maxEntries: 10_000, allowedTtlMs: 60_000, refusedTtlMs: 10_000 }, maxLookups: 4 };

/**
 * `bus`: where cache invalidations go to the other instances; without one they stay in process.
 * `loginThrottle`: the sign-in throttle (openLoginThrottle, shared through Redis); by default one of this process.
 */
export function composeContexts(
  dataSource: DataSource,
  config: AppConfig,
  logger: Logger,
  metrics: ServiceMetrics,
  bus: RedisBus | null,
  loginThrottle?: LoginThrottle,
) {
  const ids = new ObjectIdGenerator();
  const clock = new SystemClock();
  // Every write of links (any use case, bulk, import, erasure) reports its owner from the repository, to the
  // cache of lists (made below, over the repository: writes come only once composed).
  const listChanges: LinkListChanges = { linksChanged: (ownerId) => linkLists.linksChanged(ownerId) };
  const linkRepository = new TypeormLinkRepository(dataSource, undefined, bus ? broadcastLinkListChanges(listChanges, bus) : listChanges);
  const tagRepository = new TypeormTagRepository(dataSource);
  const domainRepository = new TypeormDomainRepository(dataSource);
  const { billing, quota, eraseAccount } = composeBilling(
    dataSource,
    config,
    logger,
    ids,
    clock,
    new AccountUsageViaLinksAndDomains(linkRepository, tagRepository, domainRepository),
  );
  const linkDomains = new LinkDomainsViaDomains(domainRepository);
  const linkPasswords = new BcryptPasswordHasher(config.bcryptCost);
  const linkLists = new CachedLinkLists(
    new RepositoryLinkLists(linkRepository, linkDomains, clock),
    // The click totals in an answer are not invalidated (see docs/links.md): it lives as long as they take to be written.
    { ...LINK_LIST_CACHE, maxAgeMs: config.clickFlushIntervalMs },
    // The answer and the controller's presentation of it, about as large again.
    (answer) => 2 * weighLinkListAnswer(answer),
    () => clock.nowMs(),
  );
  const webhooks = composeWebhooks(dataSource, config, logger, ids, clock, linkRepository, (local) =>
    bus ? broadcastWebhookChanges(local, bus) : local,
  );
  const statsRepository = new TypeormStatsRepository(dataSource, ids);
  // The short-URL edge (resolving, the password check, the click buffer), as apps/redirect composes it.
  const edge = composeShortUrlEdge({
    dataSource,
    settings: config,
    logger,
    metrics,
    clock,
    links: linkRepository,
    linkDomains,
    stats: statsRepository,
    passwords: linkPasswords,
    webhooks,
  });
  const { redirectCache } = edge;
  const linkChanges = bus ? broadcastLinkChanges(redirectCache, bus) : redirectCache;
  // A TLS proxy's question before it gets a certificate for a host (GET /tls/ask).
  const certificateHosts = new CachedCertificateHostLookup(new RepositoryCertificateHostLookup(domainRepository), CERTIFICATE_ASKS);
  const certificates = new AllowCertificateUseCase(certificateHosts, {
    servedHosts: [config.publicBaseUrl, config.shortBaseUrl].map((url) => new URL(url).hostname.toLowerCase()),
    ownHosts: config.ownHosts,
  });
  // A domain verified or unverified: every instance's redirect cache and certificate answers forget its host at once.
  const redirectHosts = new DomainVerificationListenerViaLinks(redirectCache);
  const hostChanges: DomainVerificationListener = {
    verificationChanged(name) {
      redirectHosts.verificationChanged(name);
      certificateHosts.hostChanged(name);
    },
  };
  const domainChanges = bus ? broadcastDomainChanges(hostChanges, bus) : hostChanges;

  // The ports of the links use cases (LinksModule builds them); the redirect path is the edge's, above.
  const ports: LinksPorts = {
    links: linkRepository,
    tags: tagRepository,
    domains: linkDomains,
    quota,
    passwords: linkPasswords,
    slugs: new CryptoSlugGenerator(),
    ids,
    clock,
    changes: linkChanges,
    events: webhooks.linkEvents,
    unitOfWork: new TypeormUnitOfWork(dataSource),
    lists: linkLists,
  };
  const settings: LinksSettings = {
    ownHosts: config.ownHosts,
    shortBaseUrl: config.shortBaseUrl,
    customDomainScheme: config.customDomainScheme,
  };
  const links = {
    ports,
    settings,
    linkLists,
    /** The short-URL edge: the dispatch's answers, and what other instances' changes do to its caches. */
    edge,
  };

  const dns = new NodeDnsResolver({ servers: config.dnsServers, timeoutMs: 3000 });
  const routing = { host: config.dnsTarget, addresses: config.dnsTargetAddresses };
  // The ports of the domains use cases DomainsModule builds for its routes; the TLS ask and the re-check
  // (the app's timer) are composed here, as the bus and the timer use them.
  const domainPorts: DomainsPorts = {
    domains: domainRepository,
    quota,
    ids,
    challenges: new CryptoChallengeGenerator(),
    clock,
    dns,
    changes: domainChanges,
    usage: new DomainUsageViaLinks(linkRepository),
  };
  const domainSettings: DomainsSettings = {
    ownHosts: config.ownHosts,
    dnsTarget: config.dnsTarget,
    dnsTargetAddresses: config.dnsTargetAddresses,
  };
  const domains = {
    ports: domainPorts,
    settings: domainSettings,
    certificates,
    certificateHosts,
    recheck: new RecheckDomainsUseCase({
      domains: domainRepository,
      dns,
      clock,
      listener: domainChanges,
      config: { target: routing, batchSize: 20 },
    }),
    /** What a domain change on another instance is told to here. */
    hostChanges,
  };

  // The ports of the statistics use cases (AnalyticsModule builds them); the click buffer is the app's, for the short URLs.
  const analyticsPorts: AnalyticsPorts = {
    stats: statsRepository,
    insights: new TypeormStatsInsightRepository(dataSource),
    links: new StatsLinksViaLinks(linkRepository, tagRepository),
  };
  const analytics = { clicks: edge.clicks, ports: analyticsPorts };

  const identity = composeIdentity(
    dataSource,
    config,
    logger,
    {
      eraser: new AccountDataEraserViaOtherContexts({
        links: linkRepository,
        tags: tagRepository,
        domains: domainRepository,
        stats: statsRepository,
        billing: eraseAccount,
        webhooks: webhooks.repository,
      }),
      limits: new AccountLimitsReaderViaBilling(billing.limits),
      ...(bus
        ? {
            broadcastRevocations: (local) => broadcastRevocations(local, bus),
            broadcastAccountChanges: (local) => broadcastAccountChanges(local, bus),
          }
        : {}),
    },
    loginThrottle,
  );

  metrics.watchPool(poolFiguresOf(dataSource));

  return { identity, links, domains, analytics, billing, webhooks };
}

export type Contexts = ReturnType<typeof composeContexts>;
export type Domains = Contexts['domains'];
