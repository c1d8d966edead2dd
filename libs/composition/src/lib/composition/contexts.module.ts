import { Global, Inject, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AuthenticateUseCase } from '@lnk/identity/domain';
import { AnswerShortUrlUseCase, ResolveRedirectUseCase } from '@lnk/links/domain';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../config/config.module';
import { composeContexts, Contexts, openBus } from './contexts.composition';
import { RedisBus } from '@lnk/shared/redis';
import { hearOtherInstances } from '../edge/short-url-edge.composition';
import { ClickFlusher } from './click-flusher';
import { DomainRechecker } from './domain-rechecker';
import { WebhookWorker } from './webhook-worker';
import { ServiceMetrics } from '@lnk/shared/metrics';
import { ClosableLoginThrottle, openLoginThrottle } from './identity.composition';

export const CONTEXTS = 'CONTEXTS';

export const BUS = 'BUS';
export const LOGIN_THROTTLE = 'LOGIN_THROTTLE';

/** With several instances, cache invalidations travel through Redis; alone, they stay in process. */
export const bus: Provider = {
  provide: BUS,
  inject: [APP_CONFIG, LOGGER],
  useFactory: (config: AppConfig, logger: Logger): RedisBus | null => openBus(config, logger),
};

/** The sign-in throttle, its counts shared through Redis with several instances; closed with the app. */
export const loginThrottle: Provider = {
  provide: LOGIN_THROTTLE,
  inject: [APP_CONFIG, LOGGER, ServiceMetrics],
  useFactory: (config: AppConfig, logger: Logger, metrics: ServiceMetrics): ClosableLoginThrottle =>
    openLoginThrottle(config, logger, (shared) => metrics.watchRedis('login_throttle', shared)),
};

export const contexts: Provider = {
  provide: CONTEXTS,
  inject: [DataSource, APP_CONFIG, LOGGER, ServiceMetrics, BUS, LOGIN_THROTTLE],
  useFactory: async (
    dataSource: DataSource,
    config: AppConfig,
    logger: Logger,
    metrics: ServiceMetrics,
    bus: RedisBus | null,
    throttle: ClosableLoginThrottle,
  ): Promise<Contexts> => {
    const composed = composeContexts(dataSource, config, logger, metrics, bus, throttle);
    const { links, identity, webhooks, domains } = composed;
    // Read before the first request: until then every link change would take the transaction path.
    await webhooks.ready();
    if (bus) {
      const tokensRevoked = () => identity.principalCache.tokensRevoked();
      await hearOtherInstances(
        bus,
        {
          // The short-URL edge's, as the redirect app's, and the caches only the API keeps.
          listeners: {
            ...links.edge.listeners,
            tokensRevoked,
            accountChanged: (userId) => identity.accountCache.accountChanged(userId),
            // The redirect cache's and the certificate answers'.
            domainChanged: (name) => domains.hostChanges.verificationChanged(name),
            linksChanged: (ownerId) => links.linkLists.linksChanged(ownerId),
          },
          forgetAll: () => {
            links.edge.forgetAll();
            domains.certificateHosts.forgetAll();
            links.linkLists.clear();
            tokensRevoked();
          },
        },
        config,
        logger,
        metrics,
      );
    }
    return composed;
  },
};

/** The composed contexts, built once; controllers take the use cases of their context (links': from LinksModule). */
@Global()
@Module({
  providers: [
    bus,
    loginThrottle,
    contexts,
    // The redirect path, composed for the short-URL dispatch (and a custom domain's home page); the links
    // use cases are LinksModule's, built from the ports in c.links.
    { provide: ResolveRedirectUseCase, inject: [CONTEXTS], useFactory: (c: Contexts) => c.links.edge.resolveRedirect },
    { provide: AnswerShortUrlUseCase, inject: [CONTEXTS], useFactory: (c: Contexts) => c.links.edge.answer },
    WebhookWorker,
    ClickFlusher,
    DomainRechecker,
    { provide: AuthenticateUseCase, inject: [CONTEXTS], useFactory: (c: Contexts) => c.identity.authenticate },
  ],
  exports: [CONTEXTS, ResolveRedirectUseCase, AnswerShortUrlUseCase, AuthenticateUseCase],
})
export class ContextsModule implements OnApplicationShutdown {
  constructor(
    @Inject(BUS) private readonly bus: RedisBus | null,
    @Inject(LOGIN_THROTTLE) private readonly loginThrottle: ClosableLoginThrottle,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.bus?.close(), this.loginThrottle.close()]);
  }
}
