import { Global, Module, Provider } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AuthenticateUseCase } from '@lnk/identity/domain';
import { BearerStrategy } from '../auth/bearer.strategy';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../config/config.module';
import { composeContexts, Contexts } from './contexts.composition';
import { ClickFlusher } from './click-flusher';

export const CONTEXTS = 'CONTEXTS';
export const IDENTITY = 'IDENTITY';
export const LINKS = 'LINKS';
export const DOMAINS = 'DOMAINS';
export const ANALYTICS = 'ANALYTICS';

const contexts: Provider = {
  provide: CONTEXTS,
  inject: [DataSource, APP_CONFIG, LOGGER],
  useFactory: (dataSource: DataSource, config: AppConfig, logger: Logger): Contexts => composeContexts(dataSource, config, logger),
};

/** The composed contexts, built once; controllers take the use cases of their context. */
@Global()
@Module({
  imports: [PassportModule],
  providers: [
    contexts,
    { provide: IDENTITY, inject: [CONTEXTS], useFactory: (c: Contexts) => c.identity },
    { provide: LINKS, inject: [CONTEXTS], useFactory: (c: Contexts) => c.links },
    { provide: DOMAINS, inject: [CONTEXTS], useFactory: (c: Contexts) => c.domains },
    { provide: ANALYTICS, inject: [CONTEXTS], useFactory: (c: Contexts) => c.analytics },
    ClickFlusher,
    { provide: AuthenticateUseCase, inject: [CONTEXTS], useFactory: (c: Contexts) => c.identity.authenticate },
    BearerStrategy,
  ],
  exports: [IDENTITY, LINKS, DOMAINS, ANALYTICS, AuthenticateUseCase],
})
export class ContextsModule {}
