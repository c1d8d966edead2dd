import { describeEmailVerificationRepositoryContract, useTestDataSource } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormEmailVerificationRepository } from './typeorm-account.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the identity domain's in-memory fake also passes (email-verification-repository.contract.spec.ts there).
describe('TypeormEmailVerificationRepository', () => {
  const dataSource = useTestDataSource([identityPersistence]);
  describeEmailVerificationRepositoryContract(() => ({ verifications: new TypeormEmailVerificationRepository(dataSource()), users: new TypeormUserRepository(dataSource()) }));
});
