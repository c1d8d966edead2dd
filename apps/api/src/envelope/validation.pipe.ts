import { ArgumentMetadata, Injectable, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate, ValidateIf } from 'class-validator';
import { FieldError, TtlLruCache, ValidationError } from '@lnk/shared/kernel';
import { fieldCheckErrors } from './field-checks';
import { cacheValidationRules } from './validation-rules-cache';

cacheValidationRules();

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
const MAX_DEPTH = 16;

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

function tooDeep(value: unknown, depth = 0): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (depth >= MAX_DEPTH) return true;
  return Object.values(value as Record<string, unknown>).some((child) => tooDeep(child, depth + 1));
}

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

const OPTIONS = {
  whitelist: true,
  forbidUnknownValues: true,
  transform: true,
  transformOptions: { enableImplicitConversion: false },
  // The value is read to tell a missing field from a wrong one; it never reaches a message.
  validationError: { target: false, value: true },
  // Every rule of every field is checked: all failing fields are reported at once.
  stopAtFirstError: false,
  exceptionFactory: (errors: ClassValidatorError[]) => new ValidationError(toFieldErrors(errors)),
};

/** Checked query strings kept per query DTO, and the longest kept (see ApiValidationPipe.checkedQuery). */
const QUERIES_KEPT = 256;
const LONGEST_QUERY_KEPT = 512;

type Flat = Record<string, unknown>;

/** A checked query's own copy: its fields, arrays copied (a query holds strings, numbers and lists of them). */
function copyOfQuery(checked: Flat): Flat {
  const copy = Object.create(Object.getPrototypeOf(checked) as object | null) as Flat;
  for (const key of Object.keys(checked)) {
    const field = checked[key];
    copy[key] = Array.isArray(field) ? field.slice() : field;
  }
  return copy;
}

/** Whether every field is a string, number, boolean or a list of them: what copyOfQuery copies whole. */
function isFlat(checked: unknown): checked is Flat {
  if (checked === null || typeof checked !== 'object') return false;
  const primitive = (v: unknown) => v === null || v === undefined || typeof v !== 'object';
  return Object.values(checked).every((field) => primitive(field) || (Array.isArray(field) && field.every(primitive)));
}

/**
 * class-validator's errors of a refused object, and the domain's errors (Checked fields) on the fields
 * those did not name: every failing field of a request at once, whichever layer owns its rule. An object
 * the DTO accepts is not checked here: its use case runs the same domain rules.
 */
function withFieldChecks(object: object, errors: ClassValidatorError[]): ClassValidatorError[] {
  if (!errors.length) return errors;
  const fields = object as Record<string, unknown>;
  const found = fieldCheckErrors(object.constructor, fields, new Set(errors.map((e) => e.property)));
  // The value is that of the top field (a nested name is dotted), read only to tell a sent field from a missing one.
  const domainErrors = found.map(({ name, error }): ClassValidatorError => ({ property: name, value: fields[name.split('.')[0]], constraints: { domainRule: error }, children: [] }));
  return [...errors, ...domainErrors];
}

/** Nest's pipe, with the domain's field checks added to a refusal. */
class FieldCheckingPipe extends ValidationPipe {
  protected override async validate(object: object, options?: Parameters<typeof validate>[1]): Promise<ClassValidatorError[]> {
    return withFieldChecks(object, await super.validate(object, options));
  }
}

/**
 * The global pipe: unknown fields are refused, types are strict (no implicit conversion), and every
 * failure becomes a VALIDATION_ERROR naming its fields.
 */
@Injectable()
export class ApiValidationPipe extends FieldCheckingPipe {
  private readonly lenient = new FieldCheckingPipe({ ...OPTIONS, forbidNonWhitelisted: false });
  private readonly queries = new WeakMap<object, TtlLruCache<string, Flat>>();

  constructor() {
    super({ ...OPTIONS, forbidNonWhitelisted: true });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A custom parameter (@CurrentPrincipal) is the app's own value, not the client's: Nest's pipe hands it
    // back as it is (no custom decorator is validated), and it is never deep, so nothing below applies to it.
    if (metadata.type === 'custom') return value;
    const deep = tooDeep(value);
    // Every body, query and path parameter, whatever its type or DTO (deep nesting is refused below anyway).
    const nul = deep ? null : nulField(value, metadata.data ?? '');
    if (nul !== null) {
      const name = nul || metadata.type;
      throw ValidationError.field(name, `${name} must not contain a NUL character`);
    }
    const expectsObject = metadata.metatype && this.toValidate(metadata) && (metadata.type === 'body' || metadata.type === 'query');
    if (expectsObject && (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value))) {
      if (metadata.type === 'query' && (value === undefined || value === null)) return super.transform({}, metadata);
      if (value === undefined && metadata.metatype && Reflect.getMetadata(BODY_MAY_BE_OMITTED, metadata.metatype)) return super.transform({}, metadata);
      throw ValidationError.field('body', 'the request body must be a JSON object');
    }
    if (deep) throw ValidationError.field(metadata.type === 'query' ? 'query' : 'body', `nested deeper than ${MAX_DEPTH} levels`);
    if (metadata.metatype && ignoresUnknownFields(metadata.metatype)) return this.lenient.transform(value, metadata);
    if (metadata.type === 'query' && metadata.metatype && expectsObject) return this.checkedQuery(value as Flat, metadata, metadata.metatype);
    return super.transform(value, metadata);
  }

  /**
   * A query checked once per distinct query string and DTO: the same page asked again (an integration
   * polling its list, the list cache's hits) skipped class-transformer and class-validator, 19% of a
   * cached list page's CPU. A query DTO's rules read only the query (no clock, no lookup), so its answer
   * for the same fields is the same; a refused query is checked again each time. Each caller gets its own
   * copy. Bounded: QUERIES_KEPT per DTO, none longer than LONGEST_QUERY_KEPT (a flood of distinct queries
   * only replaces the least recently used).
   */
  private async checkedQuery(value: Flat, metadata: ArgumentMetadata, metatype: object): Promise<unknown> {
    const key = JSON.stringify(value);
    if (key.length > LONGEST_QUERY_KEPT) return super.transform(value, metadata);
    let kept = this.queries.get(metatype);
    if (!kept) {
      kept = new TtlLruCache<string, Flat>({ maxEntries: QUERIES_KEPT, ttlMs: Number.POSITIVE_INFINITY }, () => 0);
      this.queries.set(metatype, kept);
    }
    const hit = kept.get(key);
    if (hit) return copyOfQuery(hit);
    const checked: unknown = await super.transform(value, metadata);
    if (isFlat(checked)) kept.set(key, copyOfQuery(checked));
    return checked;
  }
}

/**
 * One item of a bulk body checked by a DTO's rules as the pipe checks a body (unknown fields refused,
 * strict types): the item, or its `{name, error}`s, so a bulk answer gives each bad item its errors in its place.
 */
export async function checkedItem<T extends object>(metatype: new () => T, value: unknown): Promise<{ value: T } | { errors: FieldError[] }> {
  const nul = nulField(value, '');
  if (nul !== null) return { errors: [{ name: nul, error: `${nul} must not contain a NUL character` }] };
  const instance = plainToInstance(metatype, value, OPTIONS.transformOptions);
  const errors = withFieldChecks(instance, await validate(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true, validationError: { target: false, value: true }, stopAtFirstError: false }));
  return errors.length ? { errors: toFieldErrors(errors) } : { value: instance };
}
