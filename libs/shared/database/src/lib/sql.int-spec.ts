import { DataSource, QueryFailedError } from 'typeorm';
import { createDataSource } from './create-data-source';
import { insertRow, prepared, sql } from './sql';
import { inTransaction } from './transaction';

// The server the Jest global set-up chose (shared/testing's TEST_DB_ENV names; that library builds on this one).
const adminUrl = process.env['LNK_TEST_DB_KIND'] === 'postgres' ? process.env['LNK_TEST_DB_ADMIN_URL'] : undefined;

/**
 * sql() outside a transaction borrows a pooled connection through a query runner (TypeORM's public
 * `connect()`) so that a prepared statement keeps its name. On a pool of one connection, a connection
 * not handed back would stall the next statement until the connect timeout fails it.
 */
describe('sql() on a pool of one connection', () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource(
      adminUrl ? { kind: 'postgres', url: adminUrl, poolSize: 1 } : { kind: 'pglite', dataDir: null },
      [],
      undefined,
      { connectTimeoutMs: 2000, query: { statementTimeoutMs: 0, lockTimeoutMs: 0, readTimeoutMs: 0 } },
    );
    await dataSource.initialize();
  });
  afterAll(() => dataSource?.destroy());

  it('hands the connection back after every statement, failed ones included (a leaked connection stalls the pool)', async () => {
    const failing = prepared('SELECT 1 / $1::int AS n');
    for (let i = 0; i < 10; i++) {
      expect((await sql<{ n: number }>(dataSource, 'SELECT $1::int AS n', [i])).rows).toEqual([{ n: i }]);
      await expect(sql(dataSource, failing, [0])).rejects.toBeInstanceOf(QueryFailedError);
      await expect(sql(dataSource, 'SELECT * FROM no_such_table')).rejects.toThrow(/no_such_table/);
    }
  });

  it('answers rows and the affected count alike for every statement kind', async () => {
    await sql(dataSource, 'CREATE TEMPORARY TABLE IF NOT EXISTS notes (body text)');
    expect((await sql(dataSource, "INSERT INTO notes VALUES ('a'), ('b')")).affected).toBe(2);
    expect(await sql(dataSource, "UPDATE notes SET body = 'c' WHERE body = 'a' RETURNING body")).toEqual({
      rows: [{ body: 'c' }],
      affected: 1,
    });
    expect((await sql(dataSource, 'SELECT body FROM notes ORDER BY body')).rows).toEqual([{ body: 'b' }, { body: 'c' }]);
  });

  it('inserts a row with each value in the column named beside it, as a parameter', async () => {
    await sql(dataSource, 'CREATE TEMPORARY TABLE IF NOT EXISTS pairs (a text, b text, n int)');
    // Out of the table's column order, and a value that would break a statement it was spliced into.
    expect((await insertRow(dataSource, 'pairs', { n: 7, b: "it's", a: 'first' })).affected).toBe(1);
    expect((await sql(dataSource, 'SELECT a, b, n FROM pairs')).rows).toEqual([{ a: 'first', b: "it's", n: 7 }]);
  });

  const onPostgres = adminUrl ? it : it.skip;
  const preparedNames = async () =>
    (await sql<{ name: string }>(dataSource, 'SELECT name FROM pg_prepared_statements')).rows.map((r) => r.name);

  // The measured win (a creation's INSERT: 1.2 ms of PostgreSQL's CPU unnamed, 0.5 ms prepared) needs the name to reach the server.
  onPostgres('prepares a statement by its name on the connection, once, outside a transaction', async () => {
    const statement = prepared('SELECT $1::text AS outside');
    expect((await sql(dataSource, statement, ['x'])).rows).toEqual([{ outside: 'x' }]);
    expect((await sql(dataSource, statement, ['y'])).rows).toEqual([{ outside: 'y' }]);
    expect(await preparedNames()).toContain(statement.name);
  });

  onPostgres('runs a prepared statement as text inside a transaction', async () => {
    const statement = prepared('SELECT $1::text AS inside');
    expect(await inTransaction(dataSource, async () => (await sql(dataSource, statement, ['z'])).rows)).toEqual([{ inside: 'z' }]);
    expect(await preparedNames()).not.toContain(statement.name);
  });
});
