import { describeUserRepositoryContract } from './identity.contract';
import { MemoryUserRepository } from './identity.fakes';

// The in-memory repository the unit tests use, held to the contract the TypeORM adapter passes
// (typeorm-user.contract.int-spec.ts in identity/adapter-typeorm).
describe('in-memory user repository', () => {
  describeUserRepositoryContract(() => new MemoryUserRepository());
});
