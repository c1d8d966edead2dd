import { Global, Inject, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { createDataSource, describeDatabase, openDatabase } from '@lnk/shared/database';
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
        const dataSource = await openDatabase(createDataSource(config.database, PERSISTENCE_MODULES));
        new Logger('Database').log(`connected to ${describeDatabase(config.database)}, migrations applied`);
        return dataSource;
      },
    },
  ],
  exports: [DataSource],
})
export class DatabaseModule implements OnApplicationShutdown {
  constructor(@Inject(DataSource) private readonly dataSource: DataSource) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
  }
}
