import { createHash } from 'node:crypto';
import { DataSource, QueryFailedError } from 'typeorm';
import type { PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver.js';
import { managerOf } from './unit-of-work';

export interface SqlResult<T> {
  rows: T[];
  /** Rows inserted, updated or deleted. */
  affected: number;
}

/** What `pg` (and the PGlite driver's client) answers a query with. */
interface RawResult {
  rows?: unknown[];
  rowCount?: number | null;
}

/**
 * A statement of fixed text, prepared by PostgreSQL once per pooled connection (a named statement, its
 * name derived from its text) instead of being parsed, analysed and planned at every call: the link
 * creation's INSERT cost PostgreSQL 1.2-1.4 ms of CPU a call unnamed and 0.5 ms prepared (16 concurrent
 * callers). Only for text that never varies (declared once at module level): each distinct text stays
 * prepared on every connection of the pool for the connection's life. The statement names its columns
 * (no `SELECT *`), so that a column a later migration adds does not change the result of a prepared
 * statement ("cached plan must not change result type"). In a transaction it runs as plain text through
 * TypeORM's query runner; on the embedded PGlite, whose one session every client shares, unnamed too
 * (in the process its pg-like client takes no name; through the holder's socket, see sharedSessions).
 */
export interface PreparedStatement {
  readonly text: string;
  readonly name: string;
}

/**
 * DataSources whose connections share one database session with other clients (the embedded database
 * reached through its holder's socket: PGlite has one session, handed from client to client between
 * statements). A named statement there would be another client's too, and its node-pg, not knowing,
 * would prepare the same name again ("already exists"): their statements run as text.
 */
const sharedSessions = new WeakSet<DataSource>();

export function withoutPreparedStatements(dataSource: DataSource): DataSource {
  sharedSessions.add(dataSource);
  return dataSource;
}

export function prepared(text: string): PreparedStatement {
  return Object.freeze({ text, name: `lnk_${createHash('sha256').update(text).digest('hex').slice(0, 32)}` });
}

interface PooledConnection {
  query(query: string | (PreparedStatement & { values: unknown[] }), params?: unknown[]): Promise<RawResult>;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeListener(event: 'error', listener: (error: Error) => void): unknown;
}

/**
 * Runs one SQL statement on the current transaction's connection (or a pooled one) and answers rows
 * and the affected count alike for every statement kind, on PostgreSQL and PGlite. Repositories read the
 * rows through the field readers of row-decoder.ts; `T` is unchecked and only types tests' own reads.
 */
export async function sql<T = Record<string, unknown>>(dataSource: DataSource, statement: string | PreparedStatement, params: unknown[] = []): Promise<SqlResult<T>> {
  const manager = managerOf(dataSource);
  const text = typeof statement === 'string' ? statement : statement.text;
  if (!manager.queryRunner && runsPooled(dataSource)) {
    const named = typeof statement === 'string' || sharedSessions.has(dataSource) ? null : statement;
    return pooled<T>(dataSource.driver as PostgresDriver, text, named, params);
  }
  const runner = manager.queryRunner ?? dataSource.createQueryRunner();
  try {
    const result = await runner.query(text, params, true);
    const rows = (Array.isArray(result.records) ? result.records : []) as T[];
    return { rows, affected: result.affected ?? rows.length };
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}

/** Both databases are TypeORM's PostgreSQL driver (PGlite through a pg-like module, pglite-driver.ts). */
function runsPooled(dataSource: DataSource): boolean {
  return dataSource.driver.options.type === 'postgres';
}

/**
 * A statement outside any transaction, on a connection of the pool, as TypeORM's PostgresQueryRunner
 * runs it (the same connection from the same pool, the same error, the connection released the same
 * way: with the error when the connection itself failed, else back to the pool) without making a query
 * runner for it: a runner object, its broadcaster and result objects, and its place in the driver's list
 * of connected runners, for every read. No entity subscriber or query logging is configured
 * (createDataSource), which are what a runner would add.
 */
async function pooled<T>(driver: PostgresDriver, text: string, named: PreparedStatement | null, params: unknown[]): Promise<SqlResult<T>> {
  const [connection, release] = (await driver.obtainMasterConnection()) as [PooledConnection, (error?: Error) => void];
  let released = false;
  const releaseOnce = (error?: Error) => {
    if (released) return;
    released = true;
    connection.removeListener('error', releaseOnce);
    release(error);
  };
  connection.on('error', releaseOnce);
  try {
    // The prepared statement's text and name are inherited, not copied: node-pg copies a query object's own
    // properties descriptor by descriptor (3% of a link creation's CPU with three of them).
    const raw = await (named ? connection.query(Object.assign(Object.create(named) as PreparedStatement, { values: params })) : connection.query(text, params));
    const rows = takeRows<T>(raw);
    return { rows, affected: raw?.rowCount ?? rows.length };
  } catch (error) {
    throw new QueryFailedError(text, params, error as Error);
  } finally {
    releaseOnce();
  }
}

/**
 * The rows of a driver's result, moved out of it: its array is left empty. node-pg's objects of a query
 * (the query, its result, the promise and the read-timeout timer of it) stay reachable from the old
 * generation for a while after the query ends, and through them the result's rows lived across two
 * scavenges, so V8 promoted every row read: a streamed year of statistics (365,000 rows) promoted
 * ~100 MB of rows that only a full collection frees, and the process grew by as much (issue 17). Moved
 * out, a row lives as long as its reader keeps it.
 */
function takeRows<T>(raw: RawResult | undefined): T[] {
  return (Array.isArray(raw?.rows) ? raw.rows.splice(0) : []) as T[];
}
