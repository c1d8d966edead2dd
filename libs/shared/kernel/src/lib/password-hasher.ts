/**
 * Slow, salted hashing for passwords people choose: account passwords and link passwords alike. `verify`
 * takes as long for a wrong password as for a right one (bcrypt's compare), so timing tells nothing.
 */
export abstract class PasswordHasher {
  abstract hash(password: string): Promise<string>;
  abstract verify(password: string, hash: string): Promise<boolean>;
}
