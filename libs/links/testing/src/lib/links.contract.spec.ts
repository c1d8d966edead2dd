import { describeLinkRepositoryContract, describeTagRepositoryContract } from './links.contract';
import { memoryLinksRepositories } from './links.fakes';

// The in-memory repositories the unit tests use, held to the contract the TypeORM adapters pass
// (links.contract.int-spec.ts in links/adapter-typeorm), so a unit test cannot rely on a fake's leniency.
describe('in-memory links repositories', () => {
  describeLinkRepositoryContract(() => memoryLinksRepositories());
  describeTagRepositoryContract(() => memoryLinksRepositories());
});
