import { DataSource } from 'typeorm';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, describeUserRepositoryContract, TestDatabase } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the identity domain's in-memory fake also passes (user-repository.contract.spec.ts there).
describe('TypeormUserRepository', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, [identityPersistence]));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  describeUserRepositoryContract(() => new TypeormUserRepository(dataSource));
});
