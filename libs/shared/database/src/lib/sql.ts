import { DataSource } from 'typeorm';
import { managerOf } from './unit-of-work';

export interface SqlResult<T> {
  rows: T[];
  /** Rows inserted, updated or deleted. */
  affected: number;
}

/**
 * Runs one SQL statement on the current transaction's connection (or a pooled one) and answers rows
 * and the affected count alike for every statement kind, on PostgreSQL and PGlite. Repositories read the
 * rows through the field readers of row-decoder.ts; `T` is unchecked and only types tests' own reads.
 */
export async function sql<T = Record<string, unknown>>(dataSource: DataSource, text: string, params: unknown[] = []): Promise<SqlResult<T>> {
  const manager = managerOf(dataSource);
  const runner = manager.queryRunner ?? dataSource.createQueryRunner();
  try {
    const result = await runner.query(text, params, true);
    const rows = (Array.isArray(result.records) ? result.records : []) as T[];
    return { rows, affected: result.affected ?? rows.length };
  } finally {
    if (!manager.queryRunner) await runner.release();
  }
}
