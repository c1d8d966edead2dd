import { PasswordHasher } from '@lnk/shared/kernel';

/**
 * "Hashes" a test can write by hand (`hashed:<password>`). Verifying counts its calls, so a test can
 * show a refused attempt never reached the slow check, and yields once, as bcrypt does.
 */
export class CountingPasswordHasher extends PasswordHasher {
  verified = 0;
  async hash(password: string): Promise<string> {
    return `hashed:${password}`;
  }
  async verify(password: string, hash: string): Promise<boolean> {
    this.verified++;
    await new Promise((resolve) => setTimeout(resolve, 1));
    return hash === `hashed:${password}`;
  }
}
