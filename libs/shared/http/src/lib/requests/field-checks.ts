import type { SchemaObject } from '@nestjs/swagger';
import { FieldError, ValidationError } from '@lnk/shared/kernel';

/** A domain's own check of one field's value (its model function): throws the domain's ValidationError, or returns. */
export type FieldCheck = (value: unknown, field: string) => unknown;

interface CheckedField {
  check: FieldCheck;
  /** What the check enforces, for the field's schema in the OpenAPI document. */
  schema: SchemaObject;
}

const OWN_CHECKS = new WeakMap<object, Map<string, CheckedField>>();
const ALL_CHECKS = new WeakMap<object, ReadonlyMap<string, CheckedField>>();

/**
 * The field is also checked by the domain's rule `check`, and the document states that rule as `schema`
 * (a pattern, a format, an enum). A DTO checks types and sizes, the domain what a value may be; when the
 * DTO refuses a request, the validation pipe still runs these checks on every field the DTO let through,
 * so a wrong type on one field does not hide a bad slug on another (fieldCheckErrors). When the DTO lets
 * the request through, the use case runs the same rules: the domain stays the one owner of each rule.
 */
export function Checked(check: FieldCheck, schema: SchemaObject = {}): PropertyDecorator {
  return (target, key) => {
    const type = target.constructor;
    const own = OWN_CHECKS.get(type) ?? new Map<string, CheckedField>();
    own.set(String(key), { check, schema });
    OWN_CHECKS.set(type, own);
  };
}

/** A DTO's checked fields, its ancestors' included (a class's own check of a field replaces an ancestor's). */
export function fieldChecksOf(type: object): ReadonlyMap<string, CheckedField> {
  let all = ALL_CHECKS.get(type);
  if (!all) {
    const parent = Object.getPrototypeOf(type) as object | null;
    all = new Map([...(parent && parent !== Function.prototype ? fieldChecksOf(parent) : []), ...(OWN_CHECKS.get(type) ?? [])]);
    ALL_CHECKS.set(type, all);
  }
  return all;
}

/**
 * The domain's errors on the fields of `value` that the DTO's own rules did not refuse (`refused`): what a
 * refused request is told besides the DTO's errors. A field left out, or null (whose meaning the DTO's
 * rules decide), is not checked; any other error than a ValidationError is the check's fault and is thrown.
 */
export function fieldCheckErrors(type: object, value: Record<string, unknown>, refused: ReadonlySet<string>): FieldError[] {
  const errors: FieldError[] = [];
  for (const [field, { check }] of fieldChecksOf(type)) {
    const sent = value[field];
    if (refused.has(field) || sent === undefined || sent === null) continue;
    try {
      check(sent, field);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      errors.push(...error.errors);
    }
  }
  return errors;
}
