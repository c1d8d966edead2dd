import { Injectable } from '@nestjs/common';
import { IsInt, IsString, Max, MaxLength } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { McpTool, type McpToolCall, mcpToolsOf, Nullable, ok, Omittable } from '@lnk/shared/http';
import { ForbiddenError, ValidationError } from '@lnk/shared/kernel';
import { McpTools } from './mcp-tools';

@JSONSchema({ example: { name: 'spring' } })
class RenameDto {
  @IsString() @MaxLength(20) name!: string;
  @Nullable() @IsString() note?: string | null;
  @Omittable() @IsInt() @Max(5) rank?: number;
}

@Injectable()
class ThingTools {
  readonly calls: McpToolCall<unknown>[] = [];

  @McpTool({ name: 'rename_thing', scope: 'things:write', id: "The thing's id.", input: RenameDto, description: 'Rename a thing.' })
  async rename(call: McpToolCall<RenameDto>) {
    this.calls.push(call);
    return ok({ id: call.id, name: call.input.name });
  }

  @McpTool({ name: 'get_thing', scope: 'things:read', id: "The thing's id.", readOnly: true, description: 'One thing.' })
  async get(call: McpToolCall<undefined>) {
    this.calls.push(call);
    return ok({ id: call.id });
  }

  /** An accessor, never run when the tools are read. */
  get exploding(): never {
    throw new Error('read');
  }
}

const caller = (...scopes: string[]) => ({ userId: 'u1', scopes });
const fieldsOf = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return (error as ValidationError).errors.map((e) => e.name).sort();
};

describe('McpTools', () => {
  let provider: ThingTools;
  let tools: McpTools;
  beforeEach(() => {
    provider = new ThingTools();
    tools = new McpTools(mcpToolsOf(provider));
  });

  // The input schema is the DTO's as the OpenAPI document states it, in JSON Schema's dialect, with the id the route takes in its path.
  it("lists each tool with its DTO's schema, the id required, nullable fields as a null type, and its scope said", () => {
    const rename = tools.listed.find((t) => t.name === 'rename_thing');
    expect(rename?.inputSchema).toMatchObject({
      type: 'object',
      additionalProperties: false,
      required: ['id', 'name'],
      properties: {
        id: { type: 'string', maxLength: 128 },
        name: { type: 'string', maxLength: 20 },
        note: { type: ['string', 'null'] },
        rank: { type: 'integer', maximum: 5 },
      },
      examples: [{ name: 'spring' }],
    });
    expect(JSON.stringify(rename?.inputSchema)).not.toMatch(/"nullable"|"example"/);
    expect(rename?.description).toContain('things:write');
    expect(tools.listed.find((t) => t.name === 'get_thing')).toMatchObject({
      inputSchema: { required: ['id'], additionalProperties: false },
      annotations: { readOnlyHint: true },
    });
  });

  // A leaked narrow token: refused before its arguments are read or its use case runs, told which scope it lacks.
  it('refuses a caller without the scope, naming it, and calls nothing', async () => {
    const refused = await tools.call(caller('things:read'), 'rename_thing', { id: 'x', name: 'n' }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ForbiddenError);
    expect((refused as ForbiddenError).message).toContain('needs the things:write scope');
    expect((refused as ForbiddenError).meta).toEqual({ requiredScope: 'things:write' });
    expect(provider.calls).toEqual([]);
  });

  // Bad input from an agent is told field by field, as the validation pipe tells an HTTP client, and never reaches the use case.
  it("checks the arguments by the DTO's rules: unknown fields, wrong types, a missing or bad id, all named at once", async () => {
    const writer = caller('things:write', 'things:read');
    expect(await fieldsOf(tools.call(writer, 'rename_thing', { name: 7, rank: '2', extra: true }))).toEqual([
      'extra',
      'id',
      'name',
      'rank',
    ]);
    expect(await fieldsOf(tools.call(writer, 'rename_thing', { id: 'x'.repeat(129), name: 'ok' }))).toEqual(['id']);
    expect(await fieldsOf(tools.call(writer, 'get_thing', { id: 'a', name: 'not taken' }))).toEqual(['name']);
    expect(await fieldsOf(tools.call(writer, 'rename_thing', [] as never))).toEqual(['arguments']);
    expect(await fieldsOf(tools.call(writer, 'no_such_tool', {}))).toEqual(['name']);
    expect(provider.calls).toEqual([]);
  });

  it('calls the method with the checked DTO instance and the id', async () => {
    const answer = await tools.call(caller('things:write'), 'rename_thing', { id: 't1', name: 'spring', note: null });
    expect(answer).toMatchObject({ code: 'OK', data: { id: 't1', name: 'spring' } });
    expect(provider.calls[0]?.input).toBeInstanceOf(RenameDto);
    expect(provider.calls[0]).toMatchObject({ id: 't1', caller: { userId: 'u1' }, input: { name: 'spring', note: null } });
  });

  it('refuses two tools of one name (one would hide the other)', () => {
    expect(() => new McpTools([...mcpToolsOf(provider), ...mcpToolsOf(new ThingTools())])).toThrow('Two MCP tools are named');
  });
});
