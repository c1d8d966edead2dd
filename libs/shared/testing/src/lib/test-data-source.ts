import type { DataSource } from 'typeorm';
import { createDataSource, openDatabase, type PersistenceModule } from '@lnk/shared/database';
import { createTestDatabase, type TestDatabase } from './test-database';

/**
 * The beforeAll/afterAll of an int spec: a fresh test database with the given modules' migrations
 * applied, and a DataSource on it, closed and dropped after the file. Call it inside a `describe`; the
 * returned function gives the DataSource from the describe's own `beforeAll` on (its hook runs first).
 */
export function useTestDataSource(modules: PersistenceModule[]): () => DataSource {
  let database: TestDatabase | undefined;
  let dataSource: DataSource | undefined;
  beforeAll(async () => {
    database = await createTestDatabase();
    dataSource = await openDatabase(createDataSource(database.config, modules));
  });
  afterAll(async () => {
    await dataSource?.destroy();
    await database?.drop();
  });
  return () => {
    if (!dataSource) throw new Error('the test data source is not open: use it from a beforeAll or a test');
    return dataSource;
  };
}

/**
 * useTestDataSource and what a spec builds on it (its repositories), built once by the describe's
 * `beforeAll`: `repos` is filled in then, so read it from a test or a later hook.
 */
export function useTestRepositories<R extends object>(
  modules: PersistenceModule[],
  make: (dataSource: DataSource) => R,
): { dataSource: () => DataSource; repos: R } {
  const dataSource = useTestDataSource(modules);
  const repos = {} as R;
  beforeAll(() => {
    Object.assign(repos, make(dataSource()));
  });
  return { dataSource, repos };
}
