import { DataSource } from 'typeorm';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, describeDomainRepositoryContract, TestDatabase } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';

// The contract the domains domain's in-memory fake also passes (domains.contract.spec.ts there).
describe('TypeormDomainRepository', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, [domainsPersistence]));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  describeDomainRepositoryContract(() => new TypeormDomainRepository(dataSource));
});
