/** PostgreSQL's unique_violation, as raised through TypeORM on both drivers. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const driverError = (error as { driverError?: { code?: string; constraint?: string; message?: string } })?.driverError ?? (error as { code?: string; constraint?: string; message?: string });
  if (driverError?.code !== '23505') return false;
  return !constraint || driverError.constraint === constraint || (driverError.message ?? '').includes(constraint);
}
