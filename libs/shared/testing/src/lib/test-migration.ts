import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DataSource } from 'typeorm';
import { createDataSource, openDatabase, type PersistenceModule } from '@lnk/shared/database';
import { createTestDatabase } from './test-database';

export interface MigrationTest {
  /** The modules (or bare migration lists) the database has before the migration under test. */
  before: PersistenceModule[];
  /** Writes the rows the migration finds. */
  seed(dataSource: DataSource): Promise<void>;
  /** The modules with the migration under test: it runs when these are opened. */
  after: PersistenceModule[];
  check(dataSource: DataSource): Promise<void>;
}

/**
 * A migration's test on rows written before it: a fresh database migrated as `before`, seeded, closed,
 * opened again as `after` (the migration runs) and checked; closed and dropped however it ends.
 * Embedded PGlite keeps an in-memory database per DataSource, so both openings get one directory.
 */
export async function testMigration({ before, seed, after, check }: MigrationTest): Promise<void> {
  const database = await createTestDatabase();
  const dataDir = database.config.kind === 'pglite' ? mkdtempSync(join(tmpdir(), 'lnk-migration-')) : null;
  const config = database.config.kind === 'pglite' ? { ...database.config, dataDir } : database.config;
  const opened = async (modules: PersistenceModule[], work: (dataSource: DataSource) => Promise<void>) => {
    const dataSource = await openDatabase(createDataSource(config, modules));
    try {
      await work(dataSource);
    } finally {
      await dataSource.destroy();
    }
  };
  try {
    await opened(before, seed);
    await opened(after, check);
  } finally {
    await database.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  }
}
