import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Caller, ErrorAnswers, ErrorEnvelope } from '@lnk/shared/http';
import { RateLimitedError, UnauthorizedError } from '@lnk/shared/kernel';
import type { McpTools } from './mcp-tools';

/** One request's charge against its budget, as the API's rate limiter answers it. */
export interface BudgetOutcome {
  blocked: boolean;
  retryAfterSeconds: number;
  headers: Record<string, string>;
}

/** What the app gives the endpoint: its bearer check, its API budget, its error rendering and its limits. */
export interface McpEndpointOptions {
  tools: McpTools;
  /** The API's bearer authentication (identity's use case): the caller, or UnauthorizedError. */
  authenticate(request: FastifyRequest): Promise<Caller>;
  /** Counts one request against the API budget: the account's once `request.user` is set, else the address's. */
  consume(request: FastifyRequest): Promise<BudgetOutcome>;
  errors: ErrorAnswers;
  /** Origins a browser page may call from (the service's own, CORS_ORIGINS); `*` allows any. */
  allowedOrigins: readonly string[];
  bodyLimit: number;
  version: string;
}

export const MCP_PATH = '/mcp';

/**
 * JSON-RPC messages in one POST: each is charged to the budget as one API request. The 2025-06-18
 * protocol sends one message per request; older clients may batch a few.
 */
export const MAX_MESSAGES = 10;

/** The headers the transport reads (the rest of the request is Fastify's). */
const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version', 'mcp-session-id'];

/**
 * The MCP endpoint (Streamable HTTP, docs/mcp.md) on the API's Fastify instance, beside Nest's routes, so
 * the app's hooks (security headers, request id, metrics, the request line, the 503 of a shutdown) apply.
 *
 * Stateless: each POST gets its own server and transport, answered as JSON (no SSE stream, no session):
 * any instance answers any request, nothing is kept between requests, and no connection is held open
 * (GET, the stream of server-initiated messages, is 405: these tools send none).
 *
 * Each POST: the Origin checked (a page on another site reaching a local or internal server through DNS
 * rebinding sends its own), the bearer token authenticated as the API's routes do (401 with
 * WWW-Authenticate), each JSON-RPC message charged to the caller's API budget (429), the body bounded by
 * size and messages. Each tool checks its own scope (McpTools.call).
 */
export function serveMcp(fastify: FastifyInstance, options: McpEndpointOptions): void {
  const { tools, errors } = options;
  const anyOrigin = options.allowedOrigins.includes('*');
  const origins = new Set(options.allowedOrigins.map((origin) => origin.toLowerCase()));

  const refuse = (reply: FastifyReply, envelope: ErrorEnvelope, headers: Record<string, string> = {}) =>
    reply.code(envelope.status).headers(headers).type('application/json; charset=utf-8').send(envelope);

  /** A tool's failure as the tool result MCP expects (isError), with the API's error envelope. */
  const failed = (error: unknown): CallToolResult => {
    const { envelope } = errors.render(error);
    const fields = envelope.meta?.errors?.map((e) => `${e.name}: ${e.error}`).join('; ');
    return {
      isError: true,
      content: [{ type: 'text', text: `${envelope.code}: ${envelope.message}${fields ? ` (${fields})` : ''}` }],
      structuredContent: { ...envelope },
    };
  };

  const serverFor = (caller: Caller): Server => {
    const server = new Server({ name: 'lnk', version: options.version }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [...tools.listed] }));
    server.setRequestHandler(CallToolRequestSchema, async ({ params }): Promise<CallToolResult> => {
      try {
        const answer = await tools.call(caller, params.name, params.arguments);
        return { content: [{ type: 'text', text: JSON.stringify(answer) }], structuredContent: { ...answer } };
      } catch (error) {
        return failed(error);
      }
    });
    return server;
  };

  const notAllowed = (_request: FastifyRequest, reply: FastifyReply) =>
    refuse(
      reply,
      { status: 405, code: 'METHOD_NOT_ALLOWED', message: 'This MCP endpoint is stateless: POST JSON-RPC messages to it' },
      { allow: 'POST' },
    );

  fastify.route({ method: ['GET', 'DELETE'], url: MCP_PATH, handler: notAllowed });
  fastify.route({
    method: 'POST',
    url: MCP_PATH,
    bodyLimit: options.bodyLimit,
    // Errors before the handler (a body too large, not JSON): the API's envelope, as every route's.
    errorHandler: (error, _request, reply) => {
      const { envelope, headers } = errors.render(error);
      return refuse(reply, envelope, headers);
    },
    handler: async (request, reply) => {
      const origin = request.headers.origin;
      if (origin !== undefined && !anyOrigin && !origins.has(origin.toLowerCase())) {
        return refuse(reply, { status: 403, code: 'FORBIDDEN', message: 'Requests from this Origin are not allowed' });
      }
      let caller: Caller;
      try {
        caller = await options.authenticate(request);
      } catch (error) {
        if (!(error instanceof UnauthorizedError)) throw error;
        // Refused requests spend their address's budget, as the access guard's do.
        const outcome = await options.consume(request);
        if (outcome.blocked) return refuse(reply, errors.render(new RateLimitedError(outcome.retryAfterSeconds)).envelope, outcome.headers);
        const challenge = request.headers.authorization ? 'Bearer realm="lnk", error="invalid_token"' : 'Bearer realm="lnk"';
        return refuse(reply, errors.render(error).envelope, { ...outcome.headers, 'www-authenticate': challenge });
      }
      (request as FastifyRequest & { user?: Caller }).user = caller;
      const body: unknown = request.body;
      const messages = Array.isArray(body) ? body.length : 1;
      if (typeof body !== 'object' || body === null || messages === 0 || messages > MAX_MESSAGES) {
        const error = `the body must be one JSON-RPC message or a batch of 1 to ${MAX_MESSAGES}`;
        return refuse(reply, {
          status: 400,
          code: 'VALIDATION_ERROR',
          message: 'Malformed request body',
          meta: { errors: [{ name: 'body', error }] },
        });
      }
      for (let i = 0; i < messages; i++) {
        const outcome = await options.consume(request);
        void reply.headers(outcome.headers);
        if (outcome.blocked) return refuse(reply, errors.render(new RateLimitedError(outcome.retryAfterSeconds)).envelope, outcome.headers);
      }
      const server = serverFor(caller);
      const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      try {
        await server.connect(transport);
        const headers = new Headers();
        for (const name of FORWARDED_HEADERS) {
          const value = request.headers[name];
          if (typeof value === 'string') headers.set(name, value);
        }
        const answer = await transport.handleRequest(new Request(`http://mcp.invalid${MCP_PATH}`, { method: 'POST', headers }), {
          parsedBody: body,
        });
        answer.headers.forEach((value, name) => void reply.header(name, value));
        return reply.code(answer.status).send(answer.body ? await answer.text() : undefined);
      } finally {
        await server.close();
      }
    },
  });
}
