import { useTestDataSource } from '@lnk/shared/testing';
import { describeEmailVerificationRepositoryContract } from '@lnk/identity/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormEmailVerificationRepository } from './typeorm-account.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the in-memory fake also passes (email-verification-repository.contract.spec.ts in identity/testing).
describe('TypeormEmailVerificationRepository', () => {
  const dataSource = useTestDataSource([identityPersistence]);
  describeEmailVerificationRepositoryContract(() => ({
    verifications: new TypeormEmailVerificationRepository(dataSource()),
    users: new TypeormUserRepository(dataSource()),
  }));
});
