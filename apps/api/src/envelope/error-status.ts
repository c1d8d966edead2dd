import { HttpStatus } from '@nestjs/common';
import type { ErrorCode } from '@lnk/shared/kernel';

/** The one place an error code becomes an HTTP status; `satisfies` keeps it exhaustive. */
export const ERROR_STATUS = {
  VALIDATION_ERROR: HttpStatus.BAD_REQUEST,
  UNAUTHORIZED: HttpStatus.UNAUTHORIZED,
  FORBIDDEN: HttpStatus.FORBIDDEN,
  NOT_FOUND: HttpStatus.NOT_FOUND,
  QUOTA_EXCEEDED: HttpStatus.FORBIDDEN,
  RATE_LIMITED: HttpStatus.TOO_MANY_REQUESTS,
  PAYLOAD_TOO_LARGE: HttpStatus.PAYLOAD_TOO_LARGE,
  SERVICE_UNAVAILABLE: HttpStatus.SERVICE_UNAVAILABLE,
  INTERNAL_ERROR: HttpStatus.INTERNAL_SERVER_ERROR,
  INVALID_REQUEST: HttpStatus.BAD_REQUEST,
  INVALID_CLIENT: HttpStatus.UNAUTHORIZED,
  INVALID_GRANT: HttpStatus.BAD_REQUEST,
  UNAUTHORIZED_CLIENT: HttpStatus.BAD_REQUEST,
  UNSUPPORTED_GRANT_TYPE: HttpStatus.BAD_REQUEST,
  INVALID_SCOPE: HttpStatus.BAD_REQUEST,
  TWO_FACTOR_REQUIRED: HttpStatus.UNAUTHORIZED,
  REAUTHENTICATION_REQUIRED: HttpStatus.FORBIDDEN,
  DOMAIN_NOT_VERIFIED: HttpStatus.BAD_REQUEST,
  PAYMENT_NOT_COMPLETED: HttpStatus.BAD_REQUEST,
  // A request this service cannot take as configured (no payment provider), not a fault of its fields.
  BILLING_DISABLED: HttpStatus.BAD_REQUEST,
  IDEMPOTENCY_KEY_REUSED: HttpStatus.UNPROCESSABLE_ENTITY,
  IDEMPOTENCY_KEY_IN_USE: HttpStatus.CONFLICT,
  IDEMPOTENCY_REPLAY_UNAVAILABLE: HttpStatus.CONFLICT,
  PRECONDITION_FAILED: HttpStatus.PRECONDITION_FAILED,
  INVALID_CURSOR: HttpStatus.BAD_REQUEST,
} as const satisfies Record<ErrorCode, HttpStatus>;
