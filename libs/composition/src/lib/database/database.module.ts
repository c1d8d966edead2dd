import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource, databaseBounds, describeDatabase, openDatabase } from '@lnk/shared/database';
import { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { PERSISTENCE_MODULES } from './persistence-modules';

/** Opens the database and applies pending migrations before the app serves anything. */
@Global()
@Module({
  providers: [
    {
      provide: DataSource,
      inject: [APP_CONFIG],
      useFactory: async (config: AppConfig) => {
        // A line per step at info: a first embedded start takes seconds, and said nothing meanwhile.
        const log = new Logger('Database');
        const where = describeDatabase(config.database);
        log.log(config.database.kind === 'pglite' ? `opening ${where} (a first start takes a few seconds)` : `connecting to ${where}`);
        const bounds = databaseBounds(config.databaseBounds);
        const dataSource = createDataSource(config.database, PERSISTENCE_MODULES, undefined, {
          connectTimeoutMs: bounds.connectTimeoutMs,
          query: bounds.requests,
        });
        await dataSource.initialize();
        log.log(`database ready: ${where}`);
        // Migrations have bounds of their own (none by default): on a server, through a connection of their own.
        const migrator =
          config.database.kind === 'postgres'
            ? createDataSource({ ...config.database, poolSize: 1 }, PERSISTENCE_MODULES, undefined, {
                connectTimeoutMs: bounds.connectTimeoutMs,
                query: bounds.migrations,
              })
            : dataSource;
        let applied: unknown[];
        try {
          if (!migrator.isInitialized) await migrator.initialize();
          applied = await migrator.runMigrations({ transaction: 'each' });
        } finally {
          if (migrator !== dataSource && migrator.isInitialized) await migrator.destroy();
        }
        log.log(
          applied.length
            ? `migrations: ${applied.length} applied, the schema is up to date`
            : 'migrations: none pending, the schema is up to date',
        );
        // Whatever else opening involves (nothing is left to migrate).
        return openDatabase(dataSource);
      },
    },
  ],
  exports: [DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    new Logger('Database').log('database closed: stopped');
  }
}
