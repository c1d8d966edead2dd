import type { SchemaObject } from '@nestjs/swagger';
import { ValidationTypes } from 'class-validator';
import { targetConstructorToSchema } from 'class-validator-jsonschema';
import { fieldChecksOf } from '../requests/field-checks';
import { ignoresUnknownFields, nullableFieldsOf } from '../requests/request-dto.decorators';
import { ruleSchemaOf } from '../requests/documented-rules';

type Meta = { constraints?: unknown[]; target: unknown; propertyName: string };

const DESIGN_TYPES = new Map<unknown, SchemaObject>([
  [String, { type: 'string' }],
  [Number, { type: 'number' }],
  [Boolean, { type: 'boolean' }],
  [Array, { type: 'array' }],
]);

/**
 * Rules of our own (documentedRule) say what they enforce; any other custom rule is documented by the
 * property's declared type, as class-validator-jsonschema does by default.
 */
const CONVERTERS = {
  [ValidationTypes.CUSTOM_VALIDATION]: (meta: Meta): SchemaObject => {
    const own = ruleSchemaOf(meta.constraints);
    if (own) return own;
    const target = meta.target as { prototype?: object };
    return (target.prototype && DESIGN_TYPES.get(Reflect.getMetadata('design:type', target.prototype, meta.propertyName))) ?? {};
  },
};

const isPlain = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `extra`'s keywords over `base`'s, into nested schemas (`items`, `properties`); arrays and values replaced. */
function merged(base: SchemaObject, extra: SchemaObject): SchemaObject {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const current = out[key];
    out[key] = isPlain(current) && isPlain(value) ? merged(current as SchemaObject, value as SchemaObject) : value;
  }
  return out as SchemaObject;
}

/**
 * A request DTO's schema as the validation pipe enforces it: class-validator's rules (through
 * class-validator-jsonschema and the rules' own schemas), the domain's field checks (Checked: patterns,
 * formats, enums), `nullable` for Nullable fields, and `additionalProperties: false` wherever the pipe
 * refuses unknown fields (every DTO but the OAuth ones, IgnoresUnknownFields, which RFC 6749 makes ignore them).
 */
export function requestSchema(type: object): SchemaObject {
  const schema = targetConstructorToSchema(type as never, { additionalConverters: CONVERTERS as never }) as SchemaObject;
  const properties: Record<string, SchemaObject> = { ...(schema.properties as Record<string, SchemaObject>) };
  for (const [name, { schema: rule }] of fieldChecksOf(type)) if (properties[name]) properties[name] = merged(properties[name], rule);
  for (const name of nullableFieldsOf(type)) if (properties[name]) properties[name] = { ...properties[name], nullable: true };
  return { ...schema, properties, ...(ignoresUnknownFields(type) ? {} : { additionalProperties: false }) };
}
