import { DomainError, ErrorCode } from '@lnk/shared/kernel';

export type OAuthErrorName =
  'invalid_request' | 'invalid_client' | 'invalid_grant' | 'unauthorized_client' | 'unsupported_grant_type' | 'invalid_scope';

/** An OAuth 2.0 error response (RFC 6749 section 5.2), with its standard name. */
export class OAuthError extends DomainError {
  constructor(
    readonly error: OAuthErrorName,
    message: string,
  ) {
    super(error.toUpperCase() as ErrorCode, message, { error });
  }
}

export class TwoFactorRequiredError extends DomainError {
  constructor() {
    super('TWO_FACTOR_REQUIRED', 'This account uses two-factor sign-in: send the current one-time code as otp');
  }
}
