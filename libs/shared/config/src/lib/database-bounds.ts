import { integer } from './parsers';
import type { ValuesOf, VariableTable } from './variables';

const HOUR_MS = 3_600_000;

/**
 * How long the database may take before a request (or the click write) gives up on it, the same in the
 * API and apps/redirect: a PostgreSQL server that accepts connections but stalls (a stuck lock, a failover,
 * a full disk) then fails requests with a 503 instead of holding them and the pool forever. The embedded
 * database (no DATABASE_URL) runs in the process and has none of them.
 */
export const DATABASE_BOUNDS_VARIABLES = {
  DATABASE_CONNECT_TIMEOUT: {
    default: '5000',
    description:
      'milliseconds to open a PostgreSQL connection, or to wait for one when the pool is busy, before the request fails with 503',
    parse: integer(100, HOUR_MS),
  },
  DATABASE_STATEMENT_TIMEOUT: {
    default: '5000',
    description:
      "milliseconds a query of a request may run (PostgreSQL's statement_timeout) before the request fails with 503; a server " +
      'that does not answer at all is given this plus one second (the connection is then dropped); 0: no bound',
    parse: integer(0, HOUR_MS),
  },
  DATABASE_LOCK_TIMEOUT: {
    default: '2000',
    description:
      "milliseconds a query of a request may wait for a lock (PostgreSQL's lock_timeout) before " +
      'the request fails with 503; 0: bounded by DATABASE_STATEMENT_TIMEOUT only',
    parse: integer(0, HOUR_MS),
  },
  CLICK_WRITE_TIMEOUT: {
    default: '30000',
    description:
      'milliseconds a write of the buffered clicks may take (statement_timeout of its transaction, plus one second for ' +
      'a server that does not answer); a write that fails keeps its clicks for the next one; 0: no bound',
    parse: integer(0, HOUR_MS),
  },
} satisfies VariableTable;

export interface DatabaseBoundsConfig {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  clickWriteTimeoutMs: number;
}

export function databaseBoundsOf(v: ValuesOf<typeof DATABASE_BOUNDS_VARIABLES>): DatabaseBoundsConfig {
  return {
    connectTimeoutMs: v.DATABASE_CONNECT_TIMEOUT,
    statementTimeoutMs: v.DATABASE_STATEMENT_TIMEOUT,
    lockTimeoutMs: v.DATABASE_LOCK_TIMEOUT,
    clickWriteTimeoutMs: v.CLICK_WRITE_TIMEOUT,
  };
}
