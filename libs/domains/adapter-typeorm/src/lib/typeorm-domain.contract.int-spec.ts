import { describeDomainRepositoryContract, useTestDataSource } from '@lnk/shared/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';

// The contract the domains domain's in-memory fake also passes (domains.contract.spec.ts there).
describe('TypeormDomainRepository', () => {
  const dataSource = useTestDataSource([domainsPersistence]);
  describeDomainRepositoryContract(() => new TypeormDomainRepository(dataSource()));
});
