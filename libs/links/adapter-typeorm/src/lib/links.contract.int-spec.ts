import { DataSource } from 'typeorm';
import { createDataSource, openDatabase } from '@lnk/shared/database';
import { createTestDatabase, describeLinkRepositoryContract, describeTagRepositoryContract, TestDatabase } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormTagRepository } from './typeorm-tag.repository';

// The contract the links domain's in-memory fakes also pass (links.contract.spec.ts there).
describe('TypeORM links repositories', () => {
  let database: TestDatabase;
  let dataSource: DataSource;

  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, [linksPersistence]));
  });

  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });

  const repos = () => ({ links: new TypeormLinkRepository(dataSource), tags: new TypeormTagRepository(dataSource) });
  describeLinkRepositoryContract(repos);
  describeTagRepositoryContract(repos);
});
