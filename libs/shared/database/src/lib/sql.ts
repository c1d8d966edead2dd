import { createHash } from 'node:crypto';
import { DataSource, QueryFailedError } from 'typeorm';
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

/** The driver's connection a query runner answers `connect()` with: node-pg's client, or the PGlite driver's. */
interface DriverConnection {
  query(query: string | (PreparedStatement & { values: unknown[] }), params?: unknown[]): Promise<RawResult>;
}

/**
 * Runs one SQL statement on the current transaction's connection (or a pooled one) and answers rows
 * and the affected count alike for every statement kind, on PostgreSQL and PGlite. Repositories read the
 * rows through the field readers of row-decoder.ts; `T` is unchecked and only types tests' own reads.
 */
export async function sql<T = Record<string, unknown>>(
  dataSource: DataSource,
  statement: string | PreparedStatement,
  params: unknown[] = [],
): Promise<SqlResult<T>> {
  const text = typeof statement === 'string' ? statement : statement.text;
  const transaction = managerOf(dataSource).queryRunner;
  if (transaction) {
    const result = await transaction.query(text, params, true);
    const rows = (Array.isArray(result.records) ? result.records : []) as T[];
    return { rows, affected: result.affected ?? rows.length };
  }
  const named = typeof statement === 'string' || sharedSessions.has(dataSource) ? null : statement;
  return pooled<T>(dataSource, text, named, params);
}

/**
 * Inserts one row, each column named beside its value (in the order of `row`'s keys). The table and the
 * column names are the caller's constants, never input: only the values are parameters.
 */
export async function insertRow(dataSource: DataSource, table: string, row: Record<string, unknown>): Promise<SqlResult<never>> {
  const columns = Object.keys(row);
  const placeholders = columns.map((_, i) => `$${i + 1}`);
  return sql<never>(dataSource, `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${placeholders.join(', ')})`, Object.values(row));
}

/**
 * A statement outside any transaction, on a connection of the pool. `QueryRunner.query()` takes text only,
 * so a prepared statement could not keep its name through it: the runner's `connect()` (public: it answers
 * the driver's connection, taken from the pool with TypeORM's own error handling) gives the connection the
 * statement runs on, and `release()` hands it back (with the error when the connection itself failed).
 */
async function pooled<T>(dataSource: DataSource, text: string, named: PreparedStatement | null, params: unknown[]): Promise<SqlResult<T>> {
  const runner = dataSource.createQueryRunner();
  try {
    const connection = (await runner.connect()) as DriverConnection;
    let raw: RawResult | undefined;
    try {
      // The prepared statement's text and name are inherited, not copied: node-pg copies a query object's own
      // properties descriptor by descriptor (3% of a link creation's CPU with three of them).
      raw = await (named
        ? connection.query(Object.assign(Object.create(named) as PreparedStatement, { values: params }))
        : connection.query(text, params));
    } catch (error) {
      throw new QueryFailedError(text, params, error as Error);
    }
    const rows = takeRows<T>(raw);
    return { rows, affected: raw?.rowCount ?? rows.length };
  } finally {
    await runner.release();
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
