import type { ErrorEnvelope } from '@lnk/shared/http';

/**
 * An answer decided around a handler rather than by it, that the exception filter sends as it is: a 304
 * Not Modified (no body), or an error envelope kept from a first request and replayed (Idempotency-Key).
 * Nest's router writes the route's own status over whatever a value returned to it carries, so these go
 * out through the filter, the one place that answers with any status.
 */
export class AnswerAsIs extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorEnvelope | null,
  ) {
    super(`answered ${status}`);
  }
}
