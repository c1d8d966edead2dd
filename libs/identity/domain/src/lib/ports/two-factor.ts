/** A new TOTP secret for an account, with what an authenticator app needs to enrol. */
export interface TotpEnrolment {
  /** Base32 secret. */
  secret: string;
  /** otpauth:// URI naming the service and the account. */
  otpauthUrl: string;
  /** The otpauth URI as a PNG QR code, as a data URI (data:image/png;base64,...). */
  qrCodeDataUri: string;
}

/** Time-based one-time passwords (RFC 6238). */
export abstract class TotpService {
  abstract enrol(accountName: string): Promise<TotpEnrolment>;
  /**
   * The time step (RFC 6238 counter: Unix seconds / 30) whose code `code` is, when it is valid for
   * `secret` now (a small window either side for clock drift); null when it is not. Callers refuse a
   * step already used, so one code cannot be replayed within its window.
   */
  abstract verify(secret: string, code: string): number | null;
}

/** Two-factor state kept beside the account: an enrolment awaiting its first code, and the last step used. */
export abstract class TwoFactorStateRepository {
  /** Keeps the sealed secret of an enrolment until a code confirms it, replacing any earlier one. */
  abstract savePending(userId: string, sealedSecret: string, at: Date): Promise<void>;
  abstract findPending(userId: string): Promise<string | null>;
  /**
   * Removes the pending enrolment, when given only if it still holds this sealed secret: false when
   * there was none (or another request replaced or took it first).
   */
  abstract deletePending(userId: string, sealedSecret?: string): Promise<boolean>;
  /**
   * Records that a code of this time step was accepted: true only when no code of this step or a later
   * one was accepted before, also when two requests race with one code.
   */
  abstract useStep(userId: string, step: number): Promise<boolean>;
}
