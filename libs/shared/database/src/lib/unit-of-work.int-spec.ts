import { DataSource } from 'typeorm';
import { createDataSource } from './create-data-source';
import { queryBounds } from './query-bounds';
import { sql } from './sql';
import { TypeormUnitOfWork } from './unit-of-work';

// The server the Jest global set-up chose (shared/testing's TEST_DB_ENV names; that library builds on this one).
const adminUrl = process.env['LNK_TEST_DB_KIND'] === 'postgres' ? process.env['LNK_TEST_DB_ADMIN_URL'] : undefined;
const onPostgres = adminUrl ? describe : describe.skip;

// The click writer's transactions get bounds of their own (CLICK_WRITE_TIMEOUT), longer than a request's:
// were they lost, a slow write under load would be cancelled at the request's 5 s and retried forever.
onPostgres("a unit of work with a role's bounds, on PostgreSQL", () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    dataSource = createDataSource({ kind: 'postgres', url: adminUrl as string, poolSize: 1 }, [], undefined, {
      connectTimeoutMs: 2000,
      query: queryBounds(4000, 1500),
    });
    await dataSource.initialize();
  });
  afterAll(() => dataSource?.destroy());

  const timeouts = async () =>
    (
      await sql<{ statement: string; lock: string }>(
        dataSource,
        "SELECT current_setting('statement_timeout') AS statement, current_setting('lock_timeout') AS lock",
      )
    ).rows[0];

  it("gives the transaction's statements the role's timeouts, and the pool's back after it", async () => {
    expect(await timeouts()).toEqual({ statement: '4s', lock: '1500ms' });
    const inside = await new TypeormUnitOfWork(dataSource, queryBounds(30_000)).run(timeouts);
    expect(inside).toEqual({ statement: '30s', lock: '0' });
    expect(await timeouts()).toEqual({ statement: '4s', lock: '1500ms' });
  });
});
