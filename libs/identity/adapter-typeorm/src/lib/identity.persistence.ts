import type { PersistenceModule } from '@lnk/shared/database';
import { OAuthClientSchema, UserSchema } from './identity.schema';
import { IdentityAccounts1763800000000 } from './migrations/1763800000000-identity-accounts';

/** What the identity context adds to the application's DataSource. */
export const identityPersistence: PersistenceModule = {
  entities: [UserSchema, OAuthClientSchema],
  migrations: [IdentityAccounts1763800000000],
};
