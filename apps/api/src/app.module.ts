import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { PassportModule } from '@nestjs/passport';
import type { Logger } from 'pino';
import { AccessGuard } from './auth/access.guard';
import { BearerStrategy } from './auth/bearer.strategy';
import { FormBodyGuard } from './auth/form-body.guard';
import { LINKS_CONTROLLERS, LinksModule } from '@lnk/links/adapter-nest';
import { IDENTITY_CONTROLLERS, IdentityModule } from '@lnk/identity/adapter-nest';
import { ErrorAnswers } from '@lnk/shared/http';
import { ANALYTICS_CONTROLLERS, AnalyticsModule } from '@lnk/analytics/adapter-nest';
import { WEBHOOKS_CONTROLLERS, WebhooksModule } from '@lnk/webhooks/adapter-nest';
import { BILLING_CONTROLLERS, BillingModule } from '@lnk/billing/adapter-nest';
import { DOMAINS_CONTROLLERS, DomainsModule } from '@lnk/domains/adapter-nest';
import { ContextsModule, CONTEXTS, type Contexts, AppConfig, ConfigModule, DatabaseModule } from '@lnk/composition';
import { HomeController } from './http/home/home.controller';
import { ShortUrlRoutes } from './http/redirect/short-url.routes';
import { createLogger } from '@lnk/shared/logging';
import { EnvelopeModule } from './envelope/envelope.module';
import { ApiValidationPipe } from './envelope/validation.pipe';
import { HealthController } from './health/health.controller';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsController } from './metrics/metrics.controller';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';
import { IdempotencyModule } from './idempotency/idempotency.module';
import { ConditionalRequestsModule } from './conditional/conditional-requests.module';

/** The app's own controllers; each context module brings its own (LinksModule: links and tags). */
export const APP_CONTROLLERS = [HomeController, HealthController, MetricsController];

/** Every controller of the API: each handler declares its access (@Public or @RequireScope) and its answer (@Responds). */
export const API_CONTROLLERS = [
  ...APP_CONTROLLERS,
  ...LINKS_CONTROLLERS,
  ...ANALYTICS_CONTROLLERS,
  ...WEBHOOKS_CONTROLLERS,
  ...BILLING_CONTROLLERS,
  ...DOMAINS_CONTROLLERS,
  ...IDENTITY_CONTROLLERS,
];

/** The composition root: configuration, database, the envelope and access rules for every route. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger = createLogger(config)): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, logger),
        EnvelopeModule,
        DatabaseModule,
        ContextsModule,
        PassportModule,
        RateLimitModule,
        MetricsModule,
        // Around the handlers of the routes that declare them: ETags (GET, PUT), then Idempotency-Key (POST).
        ConditionalRequestsModule,
        IdempotencyModule,
        // Each context's HTTP face, given the ports the composition root bound.
        LinksModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ links }: Contexts) => links }),
        AnalyticsModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ analytics }: Contexts) => analytics }),
        WebhooksModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ webhooks }: Contexts) => webhooks }),
        BillingModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ billing }: Contexts) => billing }),
        DomainsModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ domains }: Contexts) => domains }),
        IdentityModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ identity }: Contexts) => identity }),
      ],
      controllers: APP_CONTROLLERS,
      providers: [
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_FILTER, useExisting: ErrorAnswers },
        { provide: APP_GUARD, useClass: FormBodyGuard },
        // Access first: the API budget is keyed on the token once it is known valid, and the access guard
        // charges the requests it refuses to their address.
        { provide: APP_GUARD, useClass: AccessGuard },
        // Bearer tokens, checked by identity's AuthenticateUseCase (from ContextsModule).
        BearerStrategy,
        { provide: APP_GUARD, useClass: RateLimitGuard },
        ShortUrlRoutes,
      ],
    };
  }
}
