const CONNECTION_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EPIPE', 'EHOSTUNREACH',
  // PostgreSQL: connection exceptions (08xxx), shutdown and start-up (57P01-57P03), too many connections.
  '08000', '08001', '08003', '08004', '08006', '57P01', '57P02', '57P03', '53300',
]);

/** True when an error means the database cannot be reached now (not that a query was wrong). */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 5; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown; name?: unknown };
    if (typeof candidate.code === 'string' && CONNECTION_CODES.has(candidate.code)) return true;
    if (candidate.name === 'CannotConnectAlreadyConnectedError' || candidate.name === 'ConnectionIsNotSetError') return true;
    if (typeof candidate.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(candidate.message)) return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}
