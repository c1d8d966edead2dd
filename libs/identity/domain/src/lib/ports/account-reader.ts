import { User } from '../model/user.entity';

/**
 * Reads an account by id, for answers that only show it (GET /user/me); the user repository is one. An
 * adapter may keep accounts, as long as every change of one evicts it (see AccountChanges): what it gives
 * may be shared, so the reader freezes it and never changes it.
 */
export abstract class AccountReader {
  abstract findById(id: string): Promise<User | null>;
}
