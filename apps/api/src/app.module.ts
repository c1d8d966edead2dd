import { DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import type { Logger } from 'pino';
import { AccessGuard } from './auth/access.guard';
import { FormBodyGuard } from './auth/form-body.guard';
import { LINKS_CONTROLLERS, LinksModule } from '@lnk/links/adapter-nest';
import { ANALYTICS_CONTROLLERS, AnalyticsModule } from '@lnk/analytics/adapter-nest';
import { WEBHOOKS_CONTROLLERS, WebhooksModule } from '@lnk/webhooks/adapter-nest';
import { BILLING_CONTROLLERS, BillingModule } from '@lnk/billing/adapter-nest';
import { DOMAINS_CONTROLLERS, DomainsModule } from '@lnk/domains/adapter-nest';
import { DASHBOARD_SESSION_CONTROLLERS, DashboardSessionModule } from '@lnk/identity/adapter-nest-web';
import { applicationKeys } from './config/secret-key';
import { ContextsModule, CONTEXTS } from './composition/contexts.module';
import type { Contexts } from './composition/contexts.composition';
import { AccountController, EmailVerificationController } from './http/account/account.controller';
import { HomeController } from './http/home/home.controller';
import { OAuthController } from './http/oauth/oauth.controller';
import { ShortUrlRoutes } from './http/redirect/short-url.routes';
import { OAuthClientsController } from './http/oauth-clients/oauth-clients.controller';
import { TokensController } from './http/tokens/tokens.controller';
import { createLogger } from './logging/logger';
import { AppConfig } from './config/app-config';
import { APP_CONFIG, ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { AllExceptionsFilter } from './envelope/all-exceptions.filter';
import { ApiValidationPipe } from './envelope/validation.pipe';
import { HealthController } from './health/health.controller';
import { RateLimitModule } from './rate-limit/rate-limit.module';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsController } from './metrics/metrics.controller';
import { RateLimitGuard } from './rate-limit/rate-limit.guard';

/** The app's own controllers; each context module brings its own (LinksModule: links and tags). */
export const APP_CONTROLLERS = [
  HomeController,
  HealthController,
  MetricsController,
  OAuthController,
  TokensController,
  OAuthClientsController,
  AccountController,
  EmailVerificationController,
];

/** Every controller of the API: each handler declares its access (@Public or @RequireScope) and its answer (@Responds). */
export const API_CONTROLLERS = [...APP_CONTROLLERS, ...LINKS_CONTROLLERS, ...ANALYTICS_CONTROLLERS, ...WEBHOOKS_CONTROLLERS, ...BILLING_CONTROLLERS, ...DOMAINS_CONTROLLERS, ...DASHBOARD_SESSION_CONTROLLERS];

/** The composition root: configuration, database, the envelope and access rules for every route. */
@Module({})
export class AppModule {
  static forRoot(config: AppConfig, logger: Logger = createLogger(config)): DynamicModule {
    return {
      module: AppModule,
      imports: [
        ConfigModule.forRoot(config, logger),
        DatabaseModule,
        ContextsModule,
        RateLimitModule,
        MetricsModule,
        // Each context's HTTP face, given the ports the composition root bound.
        LinksModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ links }: Contexts) => links }),
        AnalyticsModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ analytics }: Contexts) => analytics }),
        WebhooksModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ webhooks }: Contexts) => webhooks }),
        BillingModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ billing }: Contexts) => billing }),
        DomainsModule.forRootAsync({ inject: [CONTEXTS], useFactory: ({ domains }: Contexts) => domains }),
        DashboardSessionModule.forRootAsync({
          inject: [CONTEXTS, APP_CONFIG],
          useFactory: ({ identity }: Contexts, config: AppConfig) => ({
            grantTokens: identity.grantTokens,
            revokeToken: identity.revokeToken,
            publicBaseUrl: config.publicBaseUrl,
            signingKey: applicationKeys(config).dashboardSignIn,
          }),
        }),
      ],
      controllers: APP_CONTROLLERS,
      providers: [
        { provide: APP_PIPE, useClass: ApiValidationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: FormBodyGuard },
        // Access first: the API budget is keyed on the token once it is known valid, and the access guard
        // charges the requests it refuses to their address.
        { provide: APP_GUARD, useClass: AccessGuard },
        { provide: APP_GUARD, useClass: RateLimitGuard },
        ShortUrlRoutes,
      ],
    };
  }
}
