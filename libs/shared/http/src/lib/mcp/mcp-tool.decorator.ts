import { SetMetadata, type Type } from '@nestjs/common';
import type { Caller } from '../access/access.decorators';
import type { SuccessEnvelope } from '../answers/envelope';

export const MCP_TOOL = 'lnk:mcp-tool';

/**
 * A tool of the MCP endpoint (docs/mcp.md), declared on a method of a context's HTTP face beside the route
 * whose work it does: the same scope, the same request DTO (its JSON Schema is the tool's input schema, its
 * class-validator rules and the domain's field checks check the arguments), the same use case.
 */
export interface McpToolDeclaration {
  /** snake_case, what an agent calls: `create_link`. */
  name: string;
  description: string;
  /** The scope the bearer token must carry, as the HTTP route's @Route declares it. */
  scope: string;
  /** The HTTP route's request DTO (body or query): the tool's arguments. */
  input?: Type<object>;
  /** The tool acts on one of the caller's resources named by an `id` argument (the route's path parameter): its description. */
  id?: string;
  /** MCP tool annotations: a hint for clients, never a control. */
  readOnly?: boolean;
  destructive?: boolean;
}

/** What a tool's method is called with: the caller the token identified, its checked arguments, and `id` when it declares one. */
export interface McpToolCall<I> {
  caller: Caller;
  input: I;
  id: string;
}

/** A tool answers the envelope its HTTP route answers (ok(), okPage()). */
export type McpToolMethod<I> = (call: McpToolCall<I>) => Promise<SuccessEnvelope<unknown>>;

/** Declares a provider's method as an MCP tool; the method must take what `input` makes, or it does not compile. */
export function McpTool<I extends object>(
  declaration: McpToolDeclaration & { input: Type<I> },
): (target: object, key: string | symbol, descriptor: { value?: McpToolMethod<I> }) => void;
export function McpTool(
  declaration: McpToolDeclaration & { input?: undefined },
): (target: object, key: string | symbol, descriptor: { value?: McpToolMethod<undefined> }) => void;
export function McpTool(
  declaration: McpToolDeclaration,
): (target: object, key: string | symbol, descriptor: { value?: McpToolMethod<never> }) => void {
  return (target, key, descriptor) => SetMetadata(MCP_TOOL, declaration)(target, key, descriptor as PropertyDescriptor);
}

/** One tool of a provider: its declaration and its method, bound to the provider. */
export interface McpToolEntry {
  declaration: McpToolDeclaration;
  call: McpToolMethod<object | undefined>;
}

/** Every @McpTool method of a provider instance (none for an object that declares none). */
export function mcpToolsOf(instance: object): McpToolEntry[] {
  const entries: McpToolEntry[] = [];
  for (
    let prototype = Object.getPrototypeOf(instance) as object | null;
    prototype && prototype !== Object.prototype;
    prototype = Object.getPrototypeOf(prototype) as object | null
  ) {
    for (const key of Object.getOwnPropertyNames(prototype)) {
      // The descriptor, not the property: reading an accessor of a provider (Nest's own have some) would run it.
      const method: unknown = Object.getOwnPropertyDescriptor(prototype, key)?.value;
      if (key === 'constructor' || typeof method !== 'function') continue;
      const declaration = Reflect.getMetadata(MCP_TOOL, method) as McpToolDeclaration | undefined;
      if (declaration) entries.push({ declaration, call: (method as McpToolMethod<object | undefined>).bind(instance) });
    }
  }
  return entries;
}
