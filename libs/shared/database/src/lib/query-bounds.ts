import { Client } from 'pg';

/**
 * How long one role of query (the API's reads and writes, the click writer, migrations) may take on a
 * PostgreSQL server, so that a server that accepts connections but stalls (a stuck lock, a failover,
 * a full disk) fails requests instead of holding them, and the pool, forever. Milliseconds; 0: no bound.
 */
export interface QueryBounds {
  /** `statement_timeout`, enforced by the server: the statement is cancelled (57014). */
  statementTimeoutMs: number;
  /** `lock_timeout`, enforced by the server: waiting for a lock fails (55P03). */
  lockTimeoutMs: number;
  /**
   * Enforced by the client (node-pg's `query_timeout`): a server that does not answer at all (a stalled
   * peer never sends the cancellation) fails the query with "Query read timeout" and its connection
   * leaves the pool.
   */
  readTimeoutMs: number;
}

/** The bounds of every role of a process's database work, and of acquiring a connection. */
export interface DatabaseBounds {
  /** Connecting a new connection, or waiting for one of a full pool (node-pg's `connectionTimeoutMillis`). */
  connectTimeoutMs: number;
  /** The API's reads and writes, and the redirect app's lookups: on the request path. */
  requests: QueryBounds;
  /** The click writer: off the request path, a failed write keeps its rows for the next one. */
  clicks: QueryBounds;
  /** Migrations, at start-up and from operator commands. */
  migrations: QueryBounds;
}

/** What the server's own cancellation is given before the client gives up on it. */
export const READ_TIMEOUT_GRACE_MS = 1000;

export const UNBOUNDED: QueryBounds = { statementTimeoutMs: 0, lockTimeoutMs: 0, readTimeoutMs: 0 };

/**
 * The bounds of a role from its statement and lock timeouts: the client waits the statement timeout
 * and a grace, so the server's cancellation (which leaves the connection usable) normally comes first.
 */
export function queryBounds(statementTimeoutMs: number, lockTimeoutMs = 0): QueryBounds {
  return { statementTimeoutMs, lockTimeoutMs, readTimeoutMs: statementTimeoutMs > 0 ? statementTimeoutMs + READ_TIMEOUT_GRACE_MS : 0 };
}

/** Every role's bounds from the settings (DATABASE_*_TIMEOUT, CLICK_WRITE_TIMEOUT); migrations: none unless given. */
export function databaseBounds(settings: {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  lockTimeoutMs: number;
  clickWriteTimeoutMs: number;
  migrationTimeoutMs?: number;
}): DatabaseBounds {
  return {
    connectTimeoutMs: settings.connectTimeoutMs,
    requests: queryBounds(settings.statementTimeoutMs, settings.lockTimeoutMs),
    clicks: queryBounds(settings.clickWriteTimeoutMs),
    migrations: queryBounds(settings.migrationTimeoutMs ?? 0),
  };
}

/** The pool's options for a role: server-side timeouts in the start-up packet, the client's read timeout. */
export function poolOptionsOf(bounds: QueryBounds): Record<string, unknown> {
  return {
    Client: BoundedClient,
    ...(bounds.statementTimeoutMs > 0 ? { statement_timeout: bounds.statementTimeoutMs } : {}),
    ...(bounds.lockTimeoutMs > 0 ? { lock_timeout: bounds.lockTimeoutMs } : {}),
    ...(bounds.readTimeoutMs > 0 ? { query_timeout: bounds.readTimeoutMs } : {}),
  };
}

interface QueryResultLike {
  then?: (onFulfilled: undefined, onRejected: (error: unknown) => void) => unknown;
}

/**
 * node-pg's client, but a query the server did not answer within the read timeout takes its
 * connection with it: the connection is closed, so the pool drops it (node-pg alone leaves the unanswered
 * query active on it, and every later query of the client queues behind it until the peer answers, if it
 * ever does).
 */
export class BoundedClient extends Client {
  /** The read timeout of the pool, while `withReadTimeout` lends the connection a role's own. */
  private poolReadTimeout: unknown = undefined;

  override query(...args: unknown[]): never {
    const result = (super.query as (...a: unknown[]) => unknown)(...args) as QueryResultLike | undefined;
    result?.then?.(undefined, (error) => {
      if (isReadTimeout(error)) this.dropConnection();
    });
    return result as never;
  }

  /** Gives this connection another read timeout (0: none) until `restore` is called. */
  withReadTimeout(readTimeoutMs: number): () => void {
    const parameters = (this as unknown as { connectionParameters: { query_timeout: unknown } }).connectionParameters;
    this.poolReadTimeout ??= parameters.query_timeout;
    parameters.query_timeout = readTimeoutMs > 0 ? readTimeoutMs : false;
    return () => {
      parameters.query_timeout = this.poolReadTimeout;
    };
  }

  private dropConnection(): void {
    (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
  }
}

function isReadTimeout(error: unknown): boolean {
  return error instanceof Error && error.message === 'Query read timeout';
}
