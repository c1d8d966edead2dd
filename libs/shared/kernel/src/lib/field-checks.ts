import { FieldError, ValidationError } from './errors';

type Checks<T extends unknown[]> = { [K in keyof T]: () => T[K] };

/**
 * Runs every check, each of which may throw a ValidationError, and throws one ValidationError naming every
 * field that failed, in order (a request with several bad fields used to learn of the first only, and
 * needed a round per field). Any other error is thrown as it is. Returns the checks' results in order.
 */
export function checkEach<T extends unknown[]>(...checks: Checks<T>): T {
  const errors: FieldError[] = [];
  const results = checks.map((check) => {
    try {
      return check();
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.errors);
      return undefined;
    }
  });
  if (errors.length) throw new ValidationError(errors);
  return results as T;
}
