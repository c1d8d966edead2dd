/** One admitted attempt at a link's password: it counts as a failure unless it is taken back as a success. */
export interface PasswordAttempt {
  succeeded(): void;
}

/**
 * Attempts at link passwords, counted per key before the password is checked (so parallel guesses see
 * each other): past a key's allowance, admit rejects with RateLimitedError.
 */
export abstract class PasswordAttempts {
  abstract admit(keys: string[]): Promise<PasswordAttempt>;

  /** The key a visitor's address is counted under: every address of one subscriber together (an IPv6 address as its /64). */
  abstract addressKey(address: string): string;
}
