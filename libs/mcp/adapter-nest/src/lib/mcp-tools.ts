import type { INestApplicationContext } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import {
  type Caller,
  checkedItem,
  type McpToolDeclaration,
  type McpToolEntry,
  mcpToolsOf,
  MAX_DEPTH,
  requestSchema,
  tooDeep,
} from '@lnk/shared/http';
import { type FieldError, ForbiddenError, ValidationError } from '@lnk/shared/kernel';

/** A tool as tools/list describes it (JSON Schema of its arguments). */
export interface ListedTool {
  name: string;
  description: string;
  inputSchema: { type: 'object' } & Record<string, unknown>;
  annotations: { readOnlyHint: boolean; destructiveHint: boolean; openWorldHint: false };
}

/** The longest `id` taken: longer than any id the service makes, short enough to bound a lookup. */
const MAX_ID_LENGTH = 128;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The OpenAPI 3.0 dialect of requestSchema (the document's) in JSON Schema, which MCP tool schemas are:
 * `nullable: true` becomes a `null` type, `example` becomes `examples`.
 */
function jsonSchemaOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(jsonSchemaOf);
  if (!isObject(schema)) return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'nullable' || key === 'example') continue;
    out[key] =
      key === 'properties' && isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([name, s]) => [name, jsonSchemaOf(s)]))
        : jsonSchemaOf(value);
  }
  if (schema['nullable'] === true && typeof out['type'] === 'string') out['type'] = [out['type'], 'null'];
  if (schema['example'] !== undefined) out['examples'] = [schema['example']];
  return out;
}

/** A tool's arguments: its DTO's schema (as the OpenAPI document states it), with `id` when it acts on one resource. */
function inputSchemaOf(declaration: McpToolDeclaration): ListedTool['inputSchema'] {
  const base = (
    declaration.input ? jsonSchemaOf(requestSchema(declaration.input)) : { type: 'object', properties: {}, additionalProperties: false }
  ) as Json;
  if (!declaration.id) return { ...base, type: 'object' };
  const properties = {
    id: { type: 'string', minLength: 1, maxLength: MAX_ID_LENGTH, description: declaration.id },
    ...(base['properties'] as Json),
  };
  return { ...base, type: 'object', properties, required: ['id', ...((base['required'] as string[] | undefined) ?? [])] };
}

/**
 * The tools of every context's HTTP face (their @McpTool methods), found once in the started app, and
 * how one is called: its scope checked, its arguments checked by the rules of its DTO as the validation
 * pipe checks a request (unknown fields refused, strict types, the domain's field checks), then its use case.
 */
export class McpTools {
  readonly listed: readonly ListedTool[];
  private readonly byName: ReadonlyMap<string, McpToolEntry>;

  constructor(entries: readonly McpToolEntry[]) {
    const byName = new Map<string, McpToolEntry>();
    for (const entry of entries) {
      if (byName.has(entry.declaration.name)) throw new Error(`Two MCP tools are named ${entry.declaration.name}`);
      byName.set(entry.declaration.name, entry);
    }
    this.byName = byName;
    this.listed = entries.map(({ declaration }) => ({
      name: declaration.name,
      description: `${declaration.description} Needs the ${declaration.scope} scope.`,
      inputSchema: inputSchemaOf(declaration),
      annotations: { readOnlyHint: declaration.readOnly === true, destructiveHint: declaration.destructive === true, openWorldHint: false },
    }));
  }

  /** Every @McpTool method of the app's providers, whichever module provides them. */
  static of(app: INestApplicationContext): McpTools {
    const instances = new Set<object>();
    for (const module of app.get(ModulesContainer).values()) {
      for (const wrapper of module.providers.values()) {
        const instance: unknown = wrapper.instance;
        if (wrapper.metatype && typeof instance === 'object' && instance !== null) instances.add(instance);
      }
    }
    return new McpTools([...instances].flatMap((instance) => mcpToolsOf(instance)));
  }

  has(name: string): boolean {
    return this.byName.has(name);
  }

  /** Calls a tool for `caller`: a DomainError (refused scope, bad arguments, another account's id: NOT_FOUND) is thrown as it is. */
  async call(caller: Caller, name: string, args: unknown) {
    const entry = this.byName.get(name);
    if (!entry) throw ValidationError.field('name', `no tool is named ${name}`);
    const { declaration } = entry;
    if (!caller.scopes.includes(declaration.scope)) {
      throw new ForbiddenError(`${declaration.name} needs the ${declaration.scope} scope, which the token does not carry`, {
        requiredScope: declaration.scope,
      });
    }
    const given = args ?? {};
    if (!isObject(given)) throw ValidationError.field('arguments', 'the arguments must be an object');
    if (tooDeep(given)) throw ValidationError.field('arguments', `nested deeper than ${MAX_DEPTH} levels`);
    const { id, ...rest } = given;
    const errors: FieldError[] = [];
    if (declaration.id && (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH || id.includes('\0'))) {
      errors.push({ name: 'id', error: `id must be a string of 1 to ${MAX_ID_LENGTH} characters` });
    }
    const fields = declaration.id ? rest : given;
    let input: object | undefined;
    if (declaration.input) {
      const checked = await checkedItem(declaration.input as new () => object, fields);
      if ('errors' in checked) errors.push(...checked.errors);
      else input = checked.value;
    } else {
      errors.push(...Object.keys(fields).map((field) => ({ name: field, error: `property ${field} should not exist` })));
    }
    if (errors.length) throw new ValidationError(errors);
    return entry.call({ caller, input, id: id as string });
  }
}
