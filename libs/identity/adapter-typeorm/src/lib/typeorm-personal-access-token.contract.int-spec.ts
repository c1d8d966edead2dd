import { User } from '@lnk/identity/domain';
import { ObjectIdGenerator } from '@lnk/shared/kernel';
import { useTestDataSource } from '@lnk/shared/testing';
import { describePersonalAccessTokenRepositoryContract } from '@lnk/identity/testing';
import { identityPersistence } from './identity.persistence';
import { TypeormPersonalAccessTokenRepository } from './typeorm-token.repositories';
import { TypeormUserRepository } from './typeorm-user.repository';

// The contract the in-memory fake also passes (personal-access-token-repository.contract.spec.ts in identity/testing).
describe('TypeormPersonalAccessTokenRepository', () => {
  const dataSource = useTestDataSource([identityPersistence]);
  const ids = new ObjectIdGenerator();
  describePersonalAccessTokenRepositoryContract(() => ({
    pats: new TypeormPersonalAccessTokenRepository(dataSource()),
    newUser: async () => {
      const id = ids.next();
      const now = new Date();
      await new TypeormUserRepository(dataSource()).insert(
        new User({
          id,
          email: `${id}@example.com`,
          name: '',
          passwordHash: null,
          isVerified: true,
          isActive: true,
          twoFactorSecret: null,
          createdAt: now,
          updatedAt: now,
        }),
      );
      return id;
    },
  }));
});
