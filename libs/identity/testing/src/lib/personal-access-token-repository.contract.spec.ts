import { MemoryPersonalAccessTokenRepository } from './identity.fakes';
import { describePersonalAccessTokenRepositoryContract } from './personal-access-tokens.contract';

// The in-memory repository the unit tests use, held to the contract the TypeORM adapter passes
// (typeorm-personal-access-token.contract.int-spec.ts in identity/adapter-typeorm).
describe('in-memory personal access token repository', () => {
  let users = 0;
  describePersonalAccessTokenRepositoryContract(() => ({
    pats: new MemoryPersonalAccessTokenRepository(),
    newUser: async () => `u${++users}`,
  }));
});
