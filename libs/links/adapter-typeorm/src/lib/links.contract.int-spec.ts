import { useTestDataSource } from '@lnk/shared/testing';
import { describeLinkRepositoryContract, describeTagRepositoryContract } from '@lnk/links/testing';
import { linksPersistence } from './links.persistence';
import { TypeormLinkRepository } from './typeorm-link.repository';
import { TypeormTagRepository } from './typeorm-tag.repository';

// The contract the in-memory fakes also pass (links.contract.spec.ts in links/testing).
describe('TypeORM links repositories', () => {
  const dataSource = useTestDataSource([linksPersistence]);
  const repos = () => ({ links: new TypeormLinkRepository(dataSource()), tags: new TypeormTagRepository(dataSource()) });
  describeLinkRepositoryContract(repos);
  describeTagRepositoryContract(repos);
});
