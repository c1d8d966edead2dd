import { ArgumentMetadata, Injectable, ValidationError as ClassValidatorError, ValidationPipe } from '@nestjs/common';
import { validate } from 'class-validator';
import { BoundedCache } from '@lnk/shared/cache';
import { ValidationError } from '@lnk/shared/kernel';
import {
  bodyMayBeOmitted,
  ignoresUnknownFields,
  MAX_DEPTH,
  nulField,
  toFieldErrors,
  tooDeep,
  TRANSFORM_OPTIONS,
  VALIDATOR_OPTIONS,
  withFieldChecks,
} from '@lnk/shared/http';
import { cacheValidationRules } from './validation-rules-cache';

cacheValidationRules();

/** Nest's pipe with the request checks of @lnk/shared/http: the DTO made from the request, every failing field named. */
const OPTIONS = {
  ...VALIDATOR_OPTIONS,
  transform: true,
  transformOptions: TRANSFORM_OPTIONS,
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
  private readonly queries = new WeakMap<object, BoundedCache<string, Flat>>();

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
      if (value === undefined && metadata.metatype && bodyMayBeOmitted(metadata.metatype)) return super.transform({}, metadata);
      throw ValidationError.field('body', 'the request body must be a JSON object');
    }
    if (deep) throw ValidationError.field(metadata.type === 'query' ? 'query' : 'body', `nested deeper than ${MAX_DEPTH} levels`);
    if (metadata.metatype && ignoresUnknownFields(metadata.metatype)) return this.lenient.transform(value, metadata);
    if (metadata.type === 'query' && metadata.metatype && expectsObject)
      return this.checkedQuery(value as Flat, metadata, metadata.metatype);
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
      kept = new BoundedCache<string, Flat>({ maxEntries: QUERIES_KEPT });
      this.queries.set(metatype, kept);
    }
    const hit = kept.get(key);
    if (hit) return copyOfQuery(hit);
    const checked: unknown = await super.transform(value, metadata);
    if (isFlat(checked)) kept.set(key, copyOfQuery(checked));
    return checked;
  }
}
