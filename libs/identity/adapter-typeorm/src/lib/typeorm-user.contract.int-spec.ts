import { describeUserRepositoryContract, useTestDataSource } from '@lnk/shared/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the identity domain's in-memory fake also passes (user-repository.contract.spec.ts there).
describe('TypeormUserRepository', () => {
  const dataSource = useTestDataSource([identityPersistence]);
  describeUserRepositoryContract(() => new TypeormUserRepository(dataSource()));
});
