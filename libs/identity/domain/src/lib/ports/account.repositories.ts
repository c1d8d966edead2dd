export interface EmailVerification {
  id: string;
  userId: string;
  email: string;
  tokenHash: string;
  expiresAt: Date;
  createdAt: Date;
}

/** The links mailed to prove an address; only their tokens' hashes are kept. */
export abstract class EmailVerificationRepository {
  abstract insert(verification: EmailVerification): Promise<void>;
  /** The user and address of a verification not yet used nor expired, or null; it stays unused. */
  abstract find(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null>;
  /** Uses the verification once, if it has not expired: its user and address, or null. */
  abstract consume(tokenHash: string, at: Date): Promise<{ userId: string; email: string } | null>;
  /** Ends every unused verification of the user (its address changed: old links prove nothing now). */
  abstract withdrawAll(userId: string, at: Date): Promise<void>;
}

export abstract class BackupCodeRepository {
  /** Replaces the user's backup codes with these hashes. */
  abstract replace(userId: string, codeHashes: string[]): Promise<void>;
  /** Uses the code once: true only for the first use of an existing code. */
  abstract consume(userId: string, codeHash: string, at: Date): Promise<boolean>;
  abstract deleteAll(userId: string): Promise<void>;
}
