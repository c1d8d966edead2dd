import type { SchemaObject } from '@nestjs/swagger';

declare const staticType: unique symbol;

/**
 * An OpenAPI schema that also carries, for the compiler only, the TypeScript type of the values it
 * describes: a presenter declared to return `Static<typeof LinkSchema>` cannot answer a field the
 * document does not have, or miss one it requires. The marker is a phantom: never set, never serialised.
 */
export type Schema<T> = SchemaObject & { readonly [staticType]?: () => T };

/** The TypeScript type a schema describes. */
export type Static<S> = S extends { readonly [staticType]?: () => infer T } ? T : never;

type AnySchema = Schema<unknown>;

/** A schema written out, typed as describing `T` (for shapes the helpers below do not build). */
export const schema = <T>(object: SchemaObject): Schema<T> => object;

/**
 * Component names, kept off the schema objects so that a named schema serialises exactly as an unnamed
 * one: the document writes the name only as the key of `components.schemas` and in each `$ref`.
 */
const NAMES = new WeakMap<SchemaObject, string>();

/**
 * A schema with its component name, given where it is defined: the document lists it under
 * `components.schemas` and refers to it by `$ref` wherever a route's answer uses it, found by walking
 * the routes' declared schemas (openapi.ts), so no table of names is kept by hand.
 */
export function named<S extends SchemaObject>(name: string, of: S): S {
  const given = NAMES.get(of);
  if (given !== undefined && given !== name) throw new Error(`A schema named '${given}' cannot also be named '${name}'`);
  NAMES.set(of, name);
  return of;
}

/** The component name `named` gave this very schema object, if any (a copy made by `described` or `nullable` has none). */
export const nameOf = (of: SchemaObject): string | undefined => NAMES.get(of);

export const string = schema<string>({ type: 'string' });
export const id = schema<string>({ type: 'string', description: '24 hex characters' });
export const dateTime = schema<string>({ type: 'string', format: 'date-time' });
export const integer = schema<number>({ type: 'integer' });
export const number = schema<number>({ type: 'number' });
export const boolean = schema<boolean>({ type: 'boolean' });
export const strings = schema<string[]>({ type: 'array', items: string });
/** Bytes of a non-JSON answer (an image). */
export const binary = schema<string>({ type: 'string', format: 'binary' });

/**
 * One of a few fixed values (`enum`). A boolean one is typed `boolean`: TypeScript widens `{ on: false }`
 * in a handler's answer to boolean, and the e2e contract checks the value itself.
 */
export const oneOfValues = <const V extends readonly (string | boolean)[]>(
  ...values: V
): Schema<V[number] extends boolean ? boolean : V[number]> =>
  schema({ type: typeof values[0] === 'boolean' ? 'boolean' : 'string', enum: [...values] });

export const nullable = <T>(of: Schema<T>): Schema<T | null> => ({ ...of, nullable: true });

export const list = <T>(items: Schema<T>): Schema<T[]> => schema({ type: 'array', items });

/**
 * One of named shapes told apart by the value of one property (`oneOf` with a `discriminator`), each
 * shape's value of it the key it is given under: what a generated client switches on.
 */
export function discriminated<S extends Record<string, AnySchema>>(propertyName: string, shapes: S): Schema<Static<S[keyof S]>> {
  const mapping = Object.fromEntries(
    Object.entries(shapes).map(([value, shape]) => {
      const name = nameOf(shape);
      if (!name) throw new Error(`A shape told apart by ${propertyName} must be named (the mapping refers to its component): ${value}`);
      const values = (shape.properties?.[propertyName] as SchemaObject | undefined)?.enum;
      if (!values || values.length !== 1 || values[0] !== value)
        throw new Error(`The shape ${name} must have ${propertyName} with the one value ${value}`);
      return [value, `#/components/schemas/${name}`];
    }),
  );
  return schema({ oneOf: Object.values(shapes), discriminator: { propertyName, mapping } });
}

/** The same schema with a description (or another annotation) added. */
export const described = <S extends AnySchema>(of: S, description: string): S => ({ ...of, description });

type Properties = Record<string, AnySchema>;
type Flatten<T> = { [K in keyof T]: T[K] };
type ObjectOf<P extends Properties, O extends keyof P> = Flatten<
  { [K in Exclude<keyof P, O>]: Static<P[K]> } & { [K in O]?: Static<P[K]> }
>;

/**
 * A closed object (`additionalProperties: false`): every property required unless named in `optional`.
 * Closed, because the e2e suites validate every real answer against the document: a field a presenter
 * adds without its schema fails a test, as a field the schema adds fails to compile.
 */
export function object<P extends Properties, O extends keyof P & string = never>(
  properties: P,
  optional: readonly O[] = [],
): Schema<ObjectOf<P, O>> {
  const required = Object.keys(properties).filter((k) => !optional.includes(k as O));
  return schema({ type: 'object', additionalProperties: false, properties, ...(required.length ? { required } : {}) });
}
