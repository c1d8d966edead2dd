import { Scope } from './scope';
import { User } from './user.entity';

/**
 * The scope that shows the account's personal data, its e-mail address and name, as `GET /user/me`
 * does. A token without it must not learn them another way: not in a sign-in's answer, not through
 * introspection.
 */
export const PROFILE_SCOPE: Scope = 'user:read';

export function mayReadProfile(scopes: readonly Scope[]): boolean {
  return scopes.includes(PROFILE_SCOPE);
}

/** The account as a grant of these scopes shows it (spec 2.6 `user`): always its id, the rest only with `user:read`. */
export interface GrantedAccount {
  id: string;
  email?: string;
  name?: string;
}

export function accountSeenWith(user: User, scopes: readonly Scope[]): GrantedAccount {
  // The name is personal data as much as the address: a person's own name, shown nowhere else without user:read.
  return mayReadProfile(scopes) ? { id: user.id, email: user.email, name: user.name } : { id: user.id };
}
