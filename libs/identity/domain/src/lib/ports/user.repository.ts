import { User } from '../model/user.entity';

export abstract class UserRepository {
  abstract findById(id: string): Promise<User | null>;
  abstract findByEmail(email: string): Promise<User | null>;
  /** Stores a new user; a taken e-mail is a validation error on `email`, also under a race. */
  abstract insert(user: User): Promise<void>;
}
