/**
 * Errors the domain raises, each with a stable code. The HTTP layer maps every code to one status
 * in a single exhaustive table; nothing here knows about HTTP.
 */
export const ERROR_CODES = [
  'VALIDATION_ERROR',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'NOT_FOUND',
  'QUOTA_EXCEEDED',
  'RATE_LIMITED',
  'PAYLOAD_TOO_LARGE',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
  // OAuth 2.0 (RFC 6749 section 5.2), upper-cased in the envelope; the RFC name rides in meta.error.
  'INVALID_REQUEST',
  'INVALID_CLIENT',
  'INVALID_GRANT',
  'UNAUTHORIZED_CLIENT',
  'UNSUPPORTED_GRANT_TYPE',
  'INVALID_SCOPE',
  'TWO_FACTOR_REQUIRED',
  'REAUTHENTICATION_REQUIRED',
  'DOMAIN_NOT_VERIFIED',
  'PAYMENT_NOT_COMPLETED',
  'BILLING_DISABLED',
  // Idempotency-Key (Stripe's semantics, apps/api/src/idempotency): a key sent again with another body, a key
  // whose first request still runs, and a first answer that is not kept to replay (it held a secret, or was too large).
  'IDEMPOTENCY_KEY_REUSED',
  'IDEMPOTENCY_KEY_IN_USE',
  'IDEMPOTENCY_REPLAY_UNAVAILABLE',
  // If-Match named another version than the resource's current one (RFC 9110 13.1.1): nothing was changed.
  'PRECONDITION_FAILED',
  // A list's cursor altered, or used by another account or with another query.
  'INVALID_CURSOR',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

/** One failing field: `name` is the field path (nested fields as `a.b`). */
export interface FieldError {
  name: string;
  error: string;
}

export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly meta?: Record<string, unknown>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationError extends DomainError {
  readonly errors: FieldError[];

  constructor(errors: FieldError[] | FieldError, message = 'Validation failed') {
    const list = Array.isArray(errors) ? errors : [errors];
    super('VALIDATION_ERROR', message, { errors: list });
    this.errors = list;
  }

  static field(name: string, error: string): ValidationError {
    return new ValidationError({ name, error });
  }
}

export class NotFoundError extends DomainError {
  constructor(resource: string) {
    super('NOT_FOUND', `${resource} not found`);
  }
}

/** What a lookup found, or NOT_FOUND for the resource: how a use case answers an id that names nothing of the caller's. */
export function found<T>(value: T | null | undefined, resource: string): T {
  if (value === null || value === undefined) throw new NotFoundError(resource);
  return value;
}

export class UnauthorizedError extends DomainError {
  constructor(message = 'Missing or invalid access token') {
    super('UNAUTHORIZED', message);
  }
}

export class ForbiddenError extends DomainError {
  constructor(message = 'Insufficient permissions', meta?: Record<string, unknown>) {
    super('FORBIDDEN', message, meta);
  }
}

export class QuotaExceededError extends DomainError {
  constructor(resource: string, used: number, limit: number) {
    super('QUOTA_EXCEEDED', `The ${resource} quota of your plan is used up (${used} of ${limit})`, {
      limit: { resource, used, limit },
    });
  }
}

export class RateLimitedError extends DomainError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED', 'Too many requests, try again later', { retryAfter: retryAfterSeconds });
  }
}

/** A change asked on the condition that a resource is as the caller last read it (If-Match), which it no longer is: nothing was changed. */
export class PreconditionFailedError extends DomainError {
  constructor(resource: string) {
    super(
      'PRECONDITION_FAILED',
      `The ${resource} has changed since you read it: nothing was changed; read it again and retry with its current ETag`,
    );
  }
}
