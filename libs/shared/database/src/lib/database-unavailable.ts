const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EPIPE',
  'EHOSTUNREACH',
  // PostgreSQL: connection exceptions (08xxx), shutdown and start-up (57P01-57P03), too many connections.
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** PostgreSQL: query_canceled (statement_timeout), lock_not_available (lock_timeout). */
const TIMEOUT_CODES = new Set(['57014', '55P03']);

/** The error and the errors it wraps (TypeORM's driverError, a cause), a few levels deep. */
function* chainOf(error: unknown): Generator<{ code?: unknown; message?: unknown; name?: unknown }> {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; name?: unknown };
    yield candidate;
    current = candidate.driverError ?? candidate.cause;
  }
}

/** True when an error means the database cannot be reached now (not that a query was wrong). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (const candidate of chainOf(error)) {
    if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code)) return true;
    if (candidate.name === 'CannotConnectAlreadyConnectedError' || candidate.name === 'ConnectionIsNotSetError') return true;
    if (
      typeof candidate.message === 'string' &&
      /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(candidate.message)
    )
      return true;
  }
  return false;
}

/**
 * True when a bound on the database was hit (see QueryBounds): the server cancelled a statement or a lock
 * wait, the server did not answer in time (node-pg's "Query read timeout"), or no connection was had in
 * time (the pool's "timeout exceeded when trying to connect").
 */
export function isDatabaseTimeout(error: unknown): boolean {
  for (const candidate of chainOf(error)) {
    if (typeof candidate.code === 'string' && TIMEOUT_CODES.has(candidate.code)) return true;
    if (typeof candidate.message === 'string' && /^Query read timeout$|timeout exceeded when trying to connect/i.test(candidate.message))
      return true;
  }
  return false;
}
