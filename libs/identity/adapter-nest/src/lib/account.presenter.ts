import type { User } from '@lnk/identity/domain';
import type { Static } from '@lnk/shared/http';
import type { UserSchema } from './account.schemas';

/** A user as the API shows it (spec 2.3). */
export function presentUser(user: User): Static<typeof UserSchema> {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    isVerified: user.isVerified,
    isActive: user.isActive,
    createdAt: user.createdAt.toISOString(),
  };
}
