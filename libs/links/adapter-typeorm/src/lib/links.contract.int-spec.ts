import { describeLinkRepositoryContract, describeTagRepositoryContract, useTestDataSource } from '@lnk/shared/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormTagRepository } from './typeorm-tag.repository';

// The contract the links domain's in-memory fakes also pass (links.contract.spec.ts there).
describe('TypeORM links repositories', () => {
  const dataSource = useTestDataSource([linksPersistence]);
  const repos = () => ({ links: new TypeormLinkRepository(dataSource()), tags: new TypeormTagRepository(dataSource()) });
  describeLinkRepositoryContract(repos);
  describeTagRepositoryContract(repos);
});
