import { Global, Module, Provider } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { AuthenticateUseCase } from '@lnk/identity/domain';
import { BearerStrategy } from '../auth/bearer.strategy';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, LOGGER } from '../config/config.module';
import { composeIdentityWithBridges, Identity } from './identity.composition';

export const IDENTITY = 'IDENTITY';

const identityProvider: Provider = {
  provide: IDENTITY,
  inject: [DataSource, APP_CONFIG, LOGGER],
  useFactory: (dataSource: DataSource, config: AppConfig, logger: Logger): Identity => composeIdentityWithBridges(dataSource, config, logger),
};

/** Identity's use cases, built once; controllers take the composed context. */
@Global()
@Module({
  imports: [PassportModule],
  providers: [
    identityProvider,
    { provide: AuthenticateUseCase, inject: [IDENTITY], useFactory: (identity: Identity) => identity.authenticate },
    BearerStrategy,
  ],
  exports: [IDENTITY, AuthenticateUseCase],
})
export class IdentityModule {}
