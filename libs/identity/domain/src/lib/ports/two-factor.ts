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
  /** True when `code` is valid for `secret` now (a small window either side for clock drift). */
  abstract verify(secret: string, code: string): boolean;
}
