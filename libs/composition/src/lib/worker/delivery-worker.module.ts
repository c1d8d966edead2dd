import { DynamicModule, Inject, Module, OnApplicationShutdown, Provider } from '@nestjs/common';
import type { Logger } from 'pino';
import { DataSource } from 'typeorm';
import { connectDatabase, createDataSource, databaseBounds } from '@lnk/shared/database';
import { RedisBus } from '@lnk/shared/redis';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG, ConfigModule } from '../config/config.module';
import { BUS, bus, contexts, LOGIN_THROTTLE, loginThrottle } from '../composition/contexts.module';
import type { ClosableLoginThrottle } from '../composition/identity.composition';
import { WebhookWorker } from '../composition/webhook-worker';
import { PERSISTENCE_MODULES } from '../database/persistence-modules';
import { ServiceMetrics } from '@lnk/shared/metrics';

/**
 * The API's database for the worker, which does not migrate it on a server (the API does, at its start,
 * or `npm run migrate`): two processes starting together would otherwise both apply the same migrations.
 * The embedded database is reached through the API's socket while the API holds it (as an operator command).
 */
const workerDatabase: Provider = {
  provide: DataSource,
  inject: [APP_CONFIG],
  useFactory: async (config: AppConfig): Promise<DataSource> => {
    const bounds = databaseBounds(config.databaseBounds);
    if (config.database.kind !== 'postgres')
      return connectDatabase(
        config.database,
        PERSISTENCE_MODULES,
        { name: 'the webhook delivery worker' },
        { connectTimeoutMs: bounds.connectTimeoutMs, query: bounds.requests },
      );
    const dataSource = createDataSource(config.database, PERSISTENCE_MODULES, undefined, {
      connectTimeoutMs: bounds.connectTimeoutMs,
      query: bounds.requests,
    });
    await dataSource.initialize();
    if (await dataSource.showMigrations()) {
      await dataSource.destroy();
      throw new Error(
        'the database schema is behind this version: start the API on it first (it applies the migrations), or run `npm run migrate`',
      );
    }
    return dataSource;
  },
};

/**
 * The webhooks' delivery worker as a process of its own (worker.ts): the contexts composed as in the API
 * (the Redis bus included, so a webhook it turns off after failures is told to every instance), and the
 * worker; no HTTP server, no click buffer, no domain re-checks.
 */
@Module({})
export class DeliveryWorkerModule implements OnApplicationShutdown {
  static forRoot(config: AppConfig, logger: Logger): DynamicModule {
    return {
      module: DeliveryWorkerModule,
      imports: [ConfigModule.forRoot(config, logger)],
      // The contexts are composed as in the API, the sign-in throttle included (no sign-in reaches a worker).
      // Its figures are counted as the API's are, though no one scrapes a worker (it serves no HTTP).
      providers: [workerDatabase, { provide: ServiceMetrics, useValue: new ServiceMetrics() }, bus, loginThrottle, contexts, WebhookWorker],
    };
  }

  constructor(
    @Inject(BUS) private readonly bus: RedisBus | null,
    @Inject(DataSource) private readonly dataSource: DataSource,
    @Inject(LOGIN_THROTTLE) private readonly loginThrottle: ClosableLoginThrottle,
  ) {}

  /** After the worker's own hook (it waits for the run in flight, whose results it records). */
  async onApplicationShutdown(): Promise<void> {
    await Promise.all([this.bus?.close(), this.loginThrottle.close()]);
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
