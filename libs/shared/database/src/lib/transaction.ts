import { DataSource } from 'typeorm';
import { sql } from './sql';
import { TypeormUnitOfWork } from './unit-of-work';

/** Runs work in a transaction: the surrounding unit of work's when there is one, else a new one. */
export function inTransaction<T>(dataSource: DataSource, work: () => Promise<T>): Promise<T> {
  return new TypeormUnitOfWork(dataSource).run(work);
}

/** Serialises writers of one key until the transaction ends (PostgreSQL advisory lock). */
export async function lockKey(dataSource: DataSource, key: string): Promise<void> {
  await sql(dataSource, 'SELECT pg_advisory_xact_lock(hashtext($1))', [key]);
}
