import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { OpenAPIObject, ReferenceObject, SchemaObject } from '@nestjs/swagger';

type AnySchema = SchemaObject | ReferenceObject;

/** One keyword broken in a request the schema calls valid: the field it names, and what was done. */
export interface Mutation<T> {
  field: string;
  kind: string;
  request: T;
}

/** Strings that break most patterns of the document one way or another (a pattern is broken by the first that fails it). */
const PATTERN_BREAKERS = ['!!bad!!', ' ', 'a b', '-', 'ftp://example.com/', 'x'];
/** A value of the right type that the format refuses; the days do not exist (what Date.parse would roll over). */
const FORMAT_BREAKERS: Record<string, string> = {
  uri: 'not a url',
  'date-time': '2030-02-30T00:00:00Z',
  date: '2026-02-30',
  email: 'not an address',
};
/** Candidates a schema may refuse in a row before the generator gives up on it. */
const MAX_MISSES = 2000;
const WRONG_TYPE: Record<string, unknown> = { string: 12345, boolean: 'yes', integer: 'x', number: 'x', array: 'x', object: 'x' };

/** The hosts of generated URLs (a test's DNS server makes them public addresses, as a webhook needs). */
export const HOSTS = ['example.com', 'www.example.org', 'app.example.net', 'hooks.example.com'];
const segment = fc.stringMatching(/^[a-z0-9_-]{1,8}$/);
const uri = fc
  .tuple(
    fc.constantFrom('https://', 'http://', 'HTTPS://'),
    fc.constantFrom(...HOSTS),
    fc.array(segment, { maxLength: 3 }),
    fc.option(fc.stringMatching(/^[a-z]{1,5}=[a-z0-9]{0,5}$/), { nil: undefined }),
  )
  .map(([scheme, host, path, query]) => `${scheme}${host}/${path.join('/')}${query ? `?${query}` : ''}`);
const day = (from: string, to: string) => fc.date({ min: new Date(from), max: new Date(to), noInvalidDate: true });
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  uri,
  // In the future for the lifetime of this test: an expiry must be.
  'date-time': day('2031-01-01T00:00:00Z', '2035-12-31T00:00:00Z').map((d) => d.toISOString()),
  // Two days: the dates of a period are in order three times out of four (a rule between two fields, which no schema states).
  date: fc.constantFrom('2026-02-28', '2026-03-01'),
  email: fc.stringMatching(/^[a-z][a-z0-9]{0,10}$/).map((local) => `${local}@example.com`),
};

/**
 * Requests made from the OpenAPI document's schemas, for the subset of JSON Schema it uses: valid ones
 * (fast-check arbitraries, each value kept only when ajv agrees with the document that it is valid) and
 * invalid ones, each a valid one with one keyword broken (wrong type, null where null is not taken, over
 * maxLength, under minLength, outside enum, a pattern or format broken, too many or too few items, out of
 * range, a required field left out, an unknown field where the object is closed).
 */
export class SchemaRequests {
  private readonly ajv = new Ajv({ strict: false, allErrors: false });
  private readonly validators = new Map<object, ValidateFunction>();

  constructor(private readonly document: OpenAPIObject) {
    addFormats(this.ajv);
  }

  resolve(schema: AnySchema): SchemaObject {
    if (!('$ref' in schema)) return schema;
    const found = this.document.components?.schemas?.[schema.$ref.split('/').pop() as string];
    if (!found) throw new Error(`no component ${schema.$ref}`);
    return this.resolve(found);
  }

  /** Whether the document calls `value` valid for `schema`. */
  accepts(schema: AnySchema, value: unknown): boolean {
    let validate = this.validators.get(schema);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, components: this.document.components });
      this.validators.set(schema, validate);
    }
    return validate(value) as boolean;
  }

  /**
   * Values the schema calls valid. A schema none of whose candidates it takes fails the test, naming the
   * schema, instead of generating for ever (fast-check's filter would).
   */
  valid(schema: AnySchema): fc.Arbitrary<unknown> {
    const s = this.resolve(schema);
    const values = s.nullable
      ? fc.oneof({ weight: 1, arbitrary: fc.constant(null) }, { weight: 3, arbitrary: this.candidates(s) })
      : this.candidates(s);
    let misses = 0;
    return values.filter((value) => {
      if (this.accepts(s, value)) return (misses = 0) === 0;
      if (++misses > MAX_MISSES)
        throw new Error(
          `no value it takes in ${MAX_MISSES} tries: the generator does not know a keyword of ${JSON.stringify(s).slice(0, 300)}`,
        );
      return false;
    });
  }

  private candidates(s: SchemaObject): fc.Arbitrary<unknown> {
    if (s.enum) return fc.constantFrom(...s.enum);
    switch (s.type) {
      case 'boolean':
        return fc.boolean();
      case 'integer':
      case 'number':
        return fc.integer({ min: s.minimum ?? -1000, max: s.maximum ?? 1000 });
      case 'array':
        return fc.array(this.valid(s.items ?? {}), { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 3, 3) });
      case 'object': {
        // A map (additionalProperties a schema) is left empty: its keys follow rules of their own (country codes).
        const properties = Object.entries(s.properties ?? {}).map(([name, property]) => [name, this.valid(property)] as const);
        return fc.record(Object.fromEntries(properties), { requiredKeys: s.required ?? [] });
      }
      default:
        return this.strings(s);
    }
  }

  private strings(s: SchemaObject): fc.Arbitrary<string> {
    if (s.format && FORMATS[s.format]) return FORMATS[s.format];
    if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
    const min = s.minLength ?? 0;
    return fc.string({ minLength: min, maxLength: Math.max(min, Math.min(s.maxLength ?? 30, 30)) });
  }

  /**
   * `count` valid values of `schema`, the same ones for the same seed; the first, of an object, holds its
   * required fields only (the least a request may hold), when the schema calls that valid.
   */
  sample(schema: AnySchema, seed: number, count: number): unknown[] {
    const values = fc.sample(this.valid(schema), { seed, numRuns: count });
    const s = this.resolve(schema);
    const first = values[0];
    if (s.type !== 'object' || typeof first !== 'object' || first === null) return values;
    const least = Object.fromEntries(Object.entries(first).filter(([key]) => s.required?.includes(key)));
    return this.accepts(s, least) ? [least, ...values.slice(1)] : values;
  }

  /** A value of `schema` with one keyword broken, for each keyword it has (each checked to be invalid in the document's eyes). */
  brokenValues(schema: AnySchema, seed: number, asText = false): { kind: string; value: unknown; item?: true }[] {
    const s = this.resolve(schema);
    const out: { kind: string; value: unknown; item?: true }[] = [];
    const type = String(s.type ?? 'string');
    // In a query every value is text: only a number's type can be wrong, and null cannot be sent.
    if (!asText || type === 'integer' || type === 'number') out.push({ kind: 'wrong type', value: WRONG_TYPE[type] });
    if (!asText && !s.nullable) out.push({ kind: 'null', value: null });
    if (s.maxLength !== undefined) out.push({ kind: 'maxLength', value: 'a'.repeat(s.maxLength + 1) });
    if (s.minLength) out.push({ kind: 'minLength', value: 'a'.repeat(s.minLength - 1) });
    if (s.enum) out.push({ kind: 'enum', value: typeof s.enum[0] === 'number' ? 999 : 'not-one-of-these' });
    if (s.pattern) {
      const pattern = new RegExp(s.pattern);
      const breaker = PATTERN_BREAKERS.find((candidate) => !pattern.test(candidate));
      if (breaker !== undefined) out.push({ kind: 'pattern', value: breaker });
    }
    if (s.not && 'pattern' in s.not && s.not.pattern) {
      const { not: _not, ...rest } = s;
      const matching = fc.stringMatching(new RegExp(s.not.pattern)).filter((v) => this.accepts(rest, v));
      out.push({ kind: 'not', value: fc.sample(matching, { seed, numRuns: 1 })[0] });
    }
    if (s.format && FORMAT_BREAKERS[s.format]) out.push({ kind: 'format', value: FORMAT_BREAKERS[s.format] });
    if (s.minimum !== undefined) out.push({ kind: 'minimum', value: s.minimum - 1 });
    if (s.maximum !== undefined) out.push({ kind: 'maximum', value: s.maximum + 1 });
    if (type === 'array') {
      const item = this.sample(s.items ?? {}, seed, 1)[0];
      if (s.maxItems !== undefined) out.push({ kind: 'maxItems', value: Array.from({ length: s.maxItems + 1 }, () => item) });
      if (s.minItems) out.push({ kind: 'minItems', value: [] });
      for (const broken of this.brokenValues(s.items ?? {}, seed).filter((b) => b.kind !== 'null' && b.kind !== 'wrong type'))
        out.push({ kind: `items ${broken.kind}`, value: [broken.value], item: true });
    }
    return out.map((b) => (asText && b.value !== null ? { ...b, value: String(b.value) } : b));
  }

  /** Each way to break one keyword of an object schema, starting from a valid `base`. */
  mutations(schema: AnySchema, base: Record<string, unknown>, seed: number, asText = false): Mutation<Record<string, unknown>>[] {
    const s = this.resolve(schema);
    const out: Mutation<Record<string, unknown>>[] = [];
    for (const [field, property] of Object.entries(s.properties ?? {})) {
      for (const broken of this.brokenValues(property, seed, asText))
        out.push({ field, kind: broken.kind, request: { ...base, [field]: broken.value } });
      if (s.required?.includes(field)) {
        const { [field]: _left, ...rest } = base;
        out.push({ field, kind: 'required', request: rest });
      }
    }
    if (s.additionalProperties === false)
      out.push({ field: 'unexpected', kind: 'unknown field', request: { ...base, unexpected: asText ? 'x' : true } });
    return out.filter((m) => !this.accepts(s, m.request));
  }
}

/** Up to `count` mutations, each of another kind first (then more of the kinds seen), the same for the same seed. */
export function pickMutations<T, M extends Mutation<T> = Mutation<T>>(all: M[], seed: number, count: number): M[] {
  if (!all.length) return [];
  const shuffled = fc.sample(fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length }), { seed, numRuns: 1 })[0];
  const firstOfKind = shuffled.filter((m, i) => shuffled.findIndex((o) => o.kind === m.kind) === i);
  return [...firstOfKind, ...shuffled.filter((m) => !firstOfKind.includes(m))].slice(0, count);
}
