import { describeEmailVerificationRepositoryContract } from './identity.contract';
import { MemoryEmailVerificationRepository, MemoryUserRepository } from './identity.fakes';

// The in-memory repositories the unit tests use, held to the contract the TypeORM adapter passes
// (typeorm-email-verification.contract.int-spec.ts in identity/adapter-typeorm).
describe('in-memory e-mail verification repository', () => {
  describeEmailVerificationRepositoryContract(() => ({
    verifications: new MemoryEmailVerificationRepository(),
    users: new MemoryUserRepository(),
  }));
});
