import type { ValidationError as ClassValidatorError, ValidatorOptions } from 'class-validator';
import { validate } from 'class-validator';
import { plainToInstance } from 'class-transformer';
import { FieldError } from '@lnk/shared/kernel';
import { fieldCheckErrors } from './field-checks';

/**
 * How a request's fields are checked and what a refusal says, shared by the app's validation pipe and by
 * the handlers that check items one by one (a bulk body, checkedItem).
 */

/**
 * What a failing field is told, in one place. A field left out is "required" whatever rule it broke
 * first (a missing name used to read "must be shorter than or equal to 64 characters"); a value of the
 * wrong type is told its type before any rule about its size; other rules keep class-validator's words.
 */
const TYPE_MESSAGES: Record<string, (name: string) => string> = {
  isString: (name) => `${name} must be a string`,
  isBoolean: (name) => `${name} must be true or false`,
  isInt: (name) => `${name} must be a whole number`,
  isNumber: (name) => `${name} must be a number`,
  isArray: (name) => `${name} must be an array`,
  isObject: (name) => `${name} must be an object`,
};

/** The one message for a field that broke `constraints` (class-validator's, in its order) with `value`. */
export function fieldMessage(name: string, value: unknown, constraints: Record<string, string>): string | undefined {
  const broken = Object.keys(constraints);
  if (!broken.length) return undefined;
  if (value === undefined) return `${name} is required`;
  // An array's own type first; "each value in ..." messages (rules on its items) come after.
  const type = broken.find((constraint) => constraint in TYPE_MESSAGES && !constraints[constraint].startsWith('each value in '));
  if (type) return TYPE_MESSAGES[type](name);
  return constraints[broken[0]];
}

/**
 * class-validator's tree of errors as one `{name, error}` per failing field, nested names dotted: every
 * failing field at once, so a caller fixes a request in one round.
 */
export function toFieldErrors(errors: ClassValidatorError[], parent = ''): FieldError[] {
  return errors.flatMap((error) => {
    const name = parent ? `${parent}.${error.property}` : error.property;
    // One entry per field: its most telling message is enough to act on.
    const own = fieldMessage(name, error.value, error.constraints ?? {});
    const children = error.children?.length ? toFieldErrors(error.children, name) : [];
    return [...(own === undefined ? [] : [{ name, error: own }]), ...children];
  });
}

/** No request of this API nests deeper; deeper input is refused before it reaches the transformer. */
export const MAX_DEPTH = 16;

/**
 * The name of the first string holding a NUL character (a value or a key, nested names dotted), or null.
 * PostgreSQL stores no NUL in text: such a value used to reach the database and fail there as a 500.
 */
export function nulField(value: unknown, name: string): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? name : null;
  if (value === null || typeof value !== 'object') return null;
  for (const [key, child] of Object.entries(value as Record<string, unknown>)) {
    const childName = name ? `${name}.${key}` : key;
    if (key.includes('\u0000')) return childName;
    const found = nulField(child, childName);
    if (found !== null) return found;
  }
  return null;
}

/** Whether `value` nests deeper than MAX_DEPTH. */
export function tooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.values(value as Record<string, unknown>).some((child) => tooDeep(child, depth + 1));
}

/**
 * class-validator's options for a request: unknown fields stripped (the pipe refuses them too, unless the
 * DTO IgnoresUnknownFields), every rule of every field checked so all failing fields are reported at
 * once, and the value kept in an error only to tell a missing field from a wrong one (never in a message).
 */
export const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidUnknownValues: true,
  validationError: { target: false, value: true },
  stopAtFirstError: false,
} as const satisfies ValidatorOptions;

/** Types are strict: no implicit conversion of a string to the number a DTO declares. */
export const TRANSFORM_OPTIONS = { enableImplicitConversion: false } as const;

/**
 * class-validator's errors of a refused object, and the domain's errors (Checked fields) on the fields
 * those did not name: every failing field of a request at once, whichever layer owns its rule. An object
 * the DTO accepts is not checked here: its use case runs the same domain rules.
 */
export function withFieldChecks(object: object, errors: ClassValidatorError[]): ClassValidatorError[] {
  if (!errors.length) return errors;
  const fields = object as Record<string, unknown>;
  const found = fieldCheckErrors(object.constructor, fields, new Set(errors.map((e) => e.property)));
  // The value is that of the top field (a nested name is dotted), read only to tell a sent field from a missing one.
  const domainErrors = found.map(({ name, error }): ClassValidatorError => ({
    property: name,
    value: fields[name.split('.')[0]],
    constraints: { domainRule: error },
    children: [],
  }));
  return [...errors, ...domainErrors];
}

/**
 * One item of a bulk body checked by a DTO's rules as the pipe checks a body (unknown fields refused,
 * strict types): the item, or its `{name, error}`s, so a bulk answer gives each bad item its errors in its place.
 */
export async function checkedItem<T extends object>(
  metatype: new () => T,
  value: unknown,
): Promise<{ value: T } | { errors: FieldError[] }> {
  const nul = nulField(value, '');
  if (nul !== null) return { errors: [{ name: nul, error: `${nul} must not contain a NUL character` }] };
  const instance = plainToInstance(metatype, value, TRANSFORM_OPTIONS);
  const errors = withFieldChecks(instance, await validate(instance, { ...VALIDATOR_OPTIONS, forbidNonWhitelisted: true }));
  return errors.length ? { errors: toFieldErrors(errors) } : { value: instance };
}
