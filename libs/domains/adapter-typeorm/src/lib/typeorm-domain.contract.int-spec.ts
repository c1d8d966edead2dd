import { useTestDataSource } from '@lnk/shared/testing';
import { describeDomainRepositoryContract } from '@lnk/domains/testing';
import { domainsPersistence, TypeormDomainRepository } from './typeorm-domain.repository';

// The contract the in-memory fake also passes (domains.contract.spec.ts in domains/testing).
describe('TypeormDomainRepository', () => {
  const dataSource = useTestDataSource([domainsPersistence]);
  describeDomainRepositoryContract(() => new TypeormDomainRepository(dataSource()));
});
