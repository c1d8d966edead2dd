import bcrypt from 'bcrypt';
import { PasswordHasher } from '@lnk/identity/domain';

/** bcrypt through its async API only: a synchronous hash would block the event loop. */
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
