import { DataSource } from 'typeorm';
import { sql, SqlResult } from './sql';

/**
 * Typed rows for raw SQL. A repository declares once how a row maps to its domain object, with one
 * field reader per column; a reader checks what the driver gave (on `pg` and PGlite alike) and throws
 * a `RowDecodeError` naming the column, so a schema drift fails at the read instead of travelling on as
 * a wrong value behind a cast.
 */
export type Field<T> = (value: unknown, column: string) => T;

export type Row = Record<string, unknown>;
export type Decoder<T> = (row: Row) => T;

export class RowDecodeError extends Error {
  constructor(column: string, expected: string, value: unknown) {
    super(`column ${column}: expected ${expected}, got ${describe(value)}`);
    this.name = 'RowDecodeError';
  }
}

function describe(value: unknown): string {
  if (value === undefined) return 'no such column';
  if (value === null) return 'null';
  if (value instanceof Date) return 'a Date';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? `string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}` : `${typeof value} ${String(value)}`;
}

export const text: Field<string> = (value, column) => {
  if (typeof value === 'string') return value;
  throw new RowDecodeError(column, 'text', value);
};

export const bool: Field<boolean> = (value, column) => {
  if (typeof value === 'boolean') return value;
  throw new RowDecodeError(column, 'a boolean', value);
};

/** integer, bigint or count(*): both drivers hand int8 over as a string; beyond 2^53 is an error, not a rounding. */
export const int: Field<number> = (value, column) => {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^-?\d+$/.test(value)) {
    const n = Number(value);
    if (Number.isSafeInteger(n)) return n;
  }
  throw new RowDecodeError(column, 'an integer', value);
};

/** numeric(p, s): a decimal string from the driver, as a number. */
export const decimal: Field<number> = (value, column) => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : NaN;
  if (Number.isFinite(n)) return n;
  throw new RowDecodeError(column, 'a decimal number', value);
};

/** timestamptz: a Date from either driver (a string is parsed, for values that come through text). */
export const timestamp: Field<Date> = (value, column) => {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  if (date && !Number.isNaN(date.getTime())) return date;
  throw new RowDecodeError(column, 'a timestamp', value);
};

export const textArray: Field<string[]> = (value, column) => {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  throw new RowDecodeError(column, 'an array of text', value);
};

/** Text that must be one of a fixed set (a status column). */
export function oneOf<const T extends string>(values: readonly T[]): Field<T> {
  return (value, column) => {
    if (typeof value === 'string' && (values as readonly string[]).includes(value)) return value as T;
    throw new RowDecodeError(column, `one of ${values.join(', ')}`, value);
  };
}

/** SQL NULL is null; a missing column still fails (it is a wrong query, not an empty value). */
export function nullable<T>(field: Field<T>): Field<T | null> {
  return (value, column) => (value === null ? null : field(value, column));
}

type Shape = Record<string, Field<unknown>>;
export type Decoded<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };

const columnOf = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * A decoder producing one key per field, each read from the column of the same name in snake_case
 * (`ownerId` reads `owner_id`). Column names are worked out once, here, not per row.
 */
export function decoder<S extends Shape>(shape: S): Decoder<Decoded<S>> {
  const fields = Object.entries(shape).map(([key, read]) => ({ key, column: columnOf(key), read }));
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const { key, column, read } of fields) out[key] = read(row[column], column);
    return out as Decoded<S>;
  };
}

export function rowsOf<T>(result: SqlResult<Row>, decode: Decoder<T>): T[] {
  return result.rows.map(decode);
}

export function firstOf<T>(result: SqlResult<Row>, decode: Decoder<T>): T | null {
  return result.rows.length ? decode(result.rows[0]) : null;
}

const counted = decoder({ n: int });

/** Runs a `SELECT count(*) AS n ...` and answers n. */
export async function countOf(dataSource: DataSource, text: string, params: unknown[] = []): Promise<number> {
  return counted((await sql(dataSource, text, params)).rows[0]).n;
}
