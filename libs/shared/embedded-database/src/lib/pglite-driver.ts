import { EventEmitter } from 'node:events';
import { PGlite, types } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { removeOthersAccess } from './private-data-dir';

/**
 * Lets TypeORM's postgres driver run on PGlite. PGlite is one session, so a connection taken from
 * this "pool" holds the session until TypeORM releases it: concurrent transactions queue instead of
 * interleaving their statements (typeorm-pglite hands every caller the same session at once, so one
 * request's BEGIN would wrap another request's writes). Results are shaped like `pg`'s.
 */
type Callback = (error: Error | null, result?: unknown) => void;

interface PgLikeResult {
  rows: unknown[];
  rowCount: number;
  command: string;
  fields: unknown[];
}

function toPgResult(
  result: { rows: unknown[]; fields: unknown[]; affectedRows?: number; rowCount?: number } & { command?: string },
): PgLikeResult {
  return {
    rows: result.rows,
    rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
    command: result.command ?? '',
    fields: result.fields,
  };
}

/** Lends PGlite's one session to one holder at a time, in order of asking. */
export class Session {
  private tail: Promise<void> = Promise.resolve();

  /** Waits for the session; the returned function hands it to the next caller. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.tail.then(() => {
      let released = false;
      return () => {
        if (!released) {
          released = true;
          release();
        }
      };
    });
    this.tail = this.tail.then(() => held);
    return ready;
  }
}

/**
 * One PGlite database and the session lending in front of it. Everything that reaches the database
 * in this process (every DataSource on it, and the clients of its socket) goes through `session`.
 */
export interface PgliteHost {
  readonly session: Session;
  db(): Promise<PGlite>;
  /** This user is done with it; the last one closes the database. */
  release(): Promise<void>;
}

/** A host of the caller's own (in memory, or opened by the caller), closed when released. */
export function privatePgliteHost(open: () => Promise<PGlite>): PgliteHost {
  let instance: Promise<PGlite> | null = null;
  return {
    session: new Session(),
    db: () => (instance ??= open()),
    release: async () => {
      const closing = instance;
      instance = null;
      if (closing) await (await closing).close();
    },
  };
}

async function run(db: PGlite, sql: string, params?: unknown[]): Promise<PgLikeResult> {
  if (params && params.length > 0) return toPgResult(await db.query(sql, params));
  const results = await db.exec(sql);
  return toPgResult(results[results.length - 1] ?? { rows: [], fields: [] });
}

/** What node-pg's `query` takes first: the text, or a query object (a prepared statement's, see sql()). */
type QueryInput = string | { text: string; values?: unknown[] };

/**
 * The text, parameters and callback of a query, called as node-pg is: `(text, params?, callback?)`, or a
 * query object with its `values` (its `name` is not needed: PGlite's session runs one statement at a time).
 */
function splitArgs(
  query: QueryInput,
  paramsOrCallback?: unknown[] | Callback,
  maybeCallback?: Callback,
): [string, unknown[] | undefined, Callback | undefined] {
  const [params, callback] = typeof paramsOrCallback === 'function' ? [undefined, paramsOrCallback] : [paramsOrCallback, maybeCallback];
  return typeof query === 'string' ? [query, params, callback] : [query.text, params ?? query.values, callback];
}

/** `host` is asked for when the first connection is wanted, and released when the pool ends. */
export function createPgliteDriver(host: () => Promise<PgliteHost>): { Pool: new () => unknown } {
  let held: Promise<PgliteHost> | null = null;
  const current = () => (held ??= host());
  const db = async () => (await current()).db();
  const acquire = async () => (await current()).session.acquire();

  // Event emitters because TypeORM subscribes to client and pool events (notices, errors).
  class PgliteClient extends EventEmitter {
    constructor(private readonly database: PGlite) {
      super();
    }
    query(query: QueryInput, paramsOrCallback?: unknown[] | Callback, maybeCallback?: Callback): Promise<PgLikeResult> {
      const [sql, params, callback] = splitArgs(query, paramsOrCallback, maybeCallback);
      const pending = run(this.database, sql, params);
      pending.then(
        (r) => callback?.(null, r),
        (e: Error) => callback?.(e),
      );
      return pending;
    }
  }

  class PglitePool extends EventEmitter {
    connect(callback: (error: Error | null, client?: PgliteClient, release?: () => void) => void): void {
      // The database first: were it to fail to open, a session taken alongside would never be handed on.
      db()
        .then((database) => acquire().then((release) => [database, release] as const))
        .then(
          ([database, release]) => callback(null, new PgliteClient(database), release),
          (error: Error) => callback(error),
        );
    }
    query(query: QueryInput, paramsOrCallback?: unknown[] | Callback, maybeCallback?: Callback): Promise<PgLikeResult> {
      const [sql, params, callback] = splitArgs(query, paramsOrCallback, maybeCallback);
      const pending = (async () => {
        const database = await db();
        const release = await acquire();
        try {
          return await run(database, sql, params);
        } finally {
          release();
        }
      })();
      pending.then(
        (r) => callback?.(null, r),
        (e: Error) => callback?.(e),
      );
      return pending;
    }
    end(callback?: (error: Error | null) => void): void {
      const closing = held ? held.then((h) => h.release()) : Promise.resolve();
      held = null;
      closing.then(
        () => callback?.(null),
        (e: Error) => callback?.(e),
      );
    }
  }

  return { Pool: PglitePool };
}

/** PGlite options matching `pg`: booleans as SQL literals, 64-bit integers as strings. */
export async function openPglite(dataDir: string | null): Promise<PGlite> {
  const db = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    // Trigram indexes (per owner: btree_gin) make link search fast on the embedded database too.
    extensions: { pg_trgm, btree_gin },
    serializers: {
      [types.BOOL]: (value: unknown) =>
        value === true || value === 'true' ? 'TRUE' : value === false || value === 'false' ? 'FALSE' : String(value),
    },
    parsers: { [types.INT8]: (value: string) => value },
  });
  // PGlite's files are left readable by others whatever the umask: the owner's alone from here on.
  if (dataDir && process.platform !== 'win32') removeOthersAccess(dataDir);
  return db;
}
