import { ValidateIf } from 'class-validator';

/**
 * The field may be left out; when it is sent it must pass its rules, `null` included (class-validator's
 * IsOptional would let a null through to the domain as if it were a value). A field that takes null says
 * so with its own ValidateIf.
 */
export const Omittable = (): PropertyDecorator => ValidateIf((_object, value) => value !== undefined);

const NULLABLE = new WeakMap<object, Set<string>>();

/**
 * The field may be left out, or be null with a meaning (no custom domain, no expiry, every link); any
 * other value must pass its rules. The OpenAPI document writes it `nullable` (nullableFieldsOf).
 */
export const Nullable = (): PropertyDecorator => (target, key) => {
  ValidateIf((_object, value) => value !== undefined && value !== null)(target, key);
  const own = NULLABLE.get(target.constructor) ?? new Set<string>();
  own.add(String(key));
  NULLABLE.set(target.constructor, own);
};

/** The fields of a DTO (its ancestors' included) declared Nullable. */
export function nullableFieldsOf(type: object): Set<string> {
  const parent = Object.getPrototypeOf(type) as object | null;
  return new Set([...(parent && parent !== Function.prototype ? nullableFieldsOf(parent) : []), ...(NULLABLE.get(type) ?? [])]);
}

const IGNORES_UNKNOWN_FIELDS = 'lnk:ignores-unknown-fields';

/**
 * The DTO drops fields it does not know instead of refusing them: OAuth 2.0 requests, whose servers
 * "MUST ignore unrecognized request parameters" (RFC 6749 sections 3.1 and 3.2).
 */
export const IgnoresUnknownFields = (): ClassDecorator => (target) => Reflect.defineMetadata(IGNORES_UNKNOWN_FIELDS, true, target);

/** Whether a DTO is IgnoresUnknownFields, read once per class (Reflect's lookup walks the prototype chain: 1% of a list page). */
const ignoring = new WeakMap<object, boolean>();
export function ignoresUnknownFields(metatype: object): boolean {
  let ignores = ignoring.get(metatype);
  if (ignores === undefined) {
    ignores = Reflect.getMetadata(IGNORES_UNKNOWN_FIELDS, metatype) === true;
    ignoring.set(metatype, ignores);
  }
  return ignores;
}

const BODY_MAY_BE_OMITTED = 'lnk:body-may-be-omitted';

/** The request may come without a body (a DELETE usually does): none reads as `{}`, then is validated. */
export const OmittableBody = (): ClassDecorator => (target) => Reflect.defineMetadata(BODY_MAY_BE_OMITTED, true, target);

/** Whether a body DTO is OmittableBody (the validation pipe, and the document's `required`). */
export const bodyMayBeOmitted = (metatype: object): boolean => Reflect.getMetadata(BODY_MAY_BE_OMITTED, metatype) === true;
