import bcrypt from 'bcrypt';
import { PasswordHasher } from '@lnk/shared/kernel';

/**
 * bcrypt through its async API only (a synchronous hash would block the event loop), for every password
 * the service keeps: accounts' and links'. `compare` takes the same time whether the password is right.
 */
export class BcryptPasswordHasher extends PasswordHasher {
  constructor(private readonly cost: number) {
    super();
  }

  hash(password: string): Promise<string> {
    return bcrypt.hash(password, this.cost);
  }

  verify(password: string, hash: string): Promise<boolean> {
    return bcrypt.compare(password, hash);
  }
}
