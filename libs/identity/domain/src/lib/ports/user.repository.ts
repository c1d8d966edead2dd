import { User } from '../model/user.entity';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  /** Stores a new user; a taken e-mail is a validation error on `email`, also under a race. */
  abstract insert(user: User): Promise<void>;
  /** Saves a changed user; a taken e-mail is a validation error on `email`. */
  abstract update(user: User): Promise<void>;
  /** Deletes the account and, with it, everything of identity's that belongs to it. */
  abstract delete(id: string): Promise<boolean>;
}
