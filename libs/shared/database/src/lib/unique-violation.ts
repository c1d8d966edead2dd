import { ValidationError } from '@lnk/shared/kernel';

/** PostgreSQL's unique_violation, as raised through TypeORM on both drivers. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError =
    (error as { driverError?: { code?: string; constraint?: string; message?: string } })?.driverError ??
    (error as { code?: string; constraint?: string; message?: string });
  if (driverError?.code !== '23505') return false;
  return !constraint || driverError.constraint === constraint || (driverError.message ?? '').includes(constraint);
}

/** A unique constraint that stands for a rule on one input field (a taken slug, a second tag of one name). */
export interface UniqueField {
  constraint: string;
  field: string;
  message: string;
}

/** Runs a write; a violation of `unique.constraint` becomes `ValidationError.field(unique.field, unique.message)`. */
export async function guardUnique<T>(unique: UniqueField, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, unique.constraint)) throw ValidationError.field(unique.field, unique.message);
    throw error;
  }
}
