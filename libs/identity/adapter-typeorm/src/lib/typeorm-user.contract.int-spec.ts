import { useTestDataSource } from '@lnk/shared/testing';
import { describeUserRepositoryContract } from '@lnk/identity/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the in-memory fake also passes (user-repository.contract.spec.ts in identity/testing).
describe('TypeormUserRepository', () => {
  const dataSource = useTestDataSource([identityPersistence]);
  describeUserRepositoryContract(() => new TypeormUserRepository(dataSource()));
});
