import { describeDomainRepositoryContract } from './domains.contract';
import { MemoryDomainRepository } from './domains.fakes';

// The in-memory repository the unit tests use, held to the contract the TypeORM adapter passes
// (typeorm-domain.contract.int-spec.ts in domains/adapter-typeorm).
describe('in-memory domain repository', () => {
  describeDomainRepositoryContract(() => new MemoryDomainRepository());
});
