import { DynamicModule, Global, Module } from '@nestjs/common';
import type { Logger } from 'pino';
import { AppConfig } from './app-config';

export const APP_CONFIG = 'APP_CONFIG';
export const LOGGER = 'LOGGER';

@Global()
@Module({})
export class ConfigModule {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: ConfigModule,
      providers: [
        { provide: APP_CONFIG, useValue: config },
        { provide: LOGGER, useValue: logger },
      ],
      exports: [APP_CONFIG, LOGGER],
    };
  }
}
