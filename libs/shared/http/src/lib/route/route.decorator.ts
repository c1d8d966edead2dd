import { Delete, Get, Header, Post, Put, SetMetadata } from '@nestjs/common';
import { ApiOperation } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger';
import { RequireScope } from '../access/access.decorators';
import { HandlerDecorator, Responds, RespondsRaw, ResponseOptions, SerializedAnswer } from './responds.decorator';
import type { Schema } from '../schemas/schema';

const METHODS = { GET: Get, POST: Post, PUT: Put, DELETE: Delete };

export const ROUTE_PARAMS = 'lnk:route-params';
export const IDEMPOTENT_ROUTE = 'lnk:idempotent';
export const ETAG_ROUTE = 'lnk:etag';

/**
 * How a POST that creates something takes an `Idempotency-Key` (Stripe's semantics, the app's
 * idempotency interceptor): `replays` keeps its first answer for 24 h and answers it again; `secret`, a
 * route whose success answer holds a secret (a token value, a client or signing secret), keeps none of
 * it: the key still stops the work being done twice, and its replay is refused (IDEMPOTENCY_REPLAY_UNAVAILABLE).
 */
export type Idempotency = 'replays' | 'secret';

/** A path parameter as the document describes it: its schema, an example a client can send. */
export type PathParameter = SchemaObject & { example: string };

/** What a route declares besides its answer. */
interface RouteDeclaration extends ResponseOptions {
  /** The OpenAPI operation's id, what a generated client names its function: a verb, then what it acts on (`createLink`). */
  operationId: string;
  /** The scope its bearer token must hold (@RequireScope); left out only on a @Public() controller. */
  scope?: string;
  /** Path parameters other than the usual ones (an id; openapi.ts describes those), by name. */
  params?: Record<string, PathParameter>;
  /** A POST that creates something: takes an Idempotency-Key (see Idempotency). */
  idempotent?: Idempotency;
  /**
   * A single resource whose answer carries a strong `ETag` (the handler sets it, see etag.ts): a GET
   * answers 304 to a matching If-None-Match; a PUT honours If-Match (412 PRECONDITION_FAILED).
   */
  etag?: true;
  /** The OpenAPI operation's summary and description. */
  summary: string;
  description: string;
}

/**
 * One route, declared in one place on its handler: its method and path, the scope it needs, its
 * success answer (the schema of the envelope's `data`, null for none, or `raw` content types, as
 * @Responds and @RespondsRaw take them; `serialized: true` when the handler may also answer its
 * envelope's JSON text made once for many requests, serializedOk) and its summary. The scope table, the
 * deny-by-default walk and the OpenAPI document are read from what this sets (declared-routes.ts), and
 * the handler must return what it declares, or it does not compile.
 */
export function Route<T>(
  method: keyof typeof METHODS,
  path: string,
  route: RouteDeclaration & { answers: Schema<T>; serialized: true },
): HandlerDecorator<T, SerializedAnswer<T>>;
export function Route<T>(method: keyof typeof METHODS, path: string, route: RouteDeclaration & { answers: Schema<T> }): HandlerDecorator<T>;
export function Route(method: keyof typeof METHODS, path: string, route: RouteDeclaration & { answers: null }): HandlerDecorator<undefined>;
export function Route(
  method: keyof typeof METHODS,
  path: string,
  route: Omit<RouteDeclaration, 'meta' | 'form'> & { raw: Record<string, SchemaObject> },
): HandlerDecorator<never>;
export function Route(
  method: keyof typeof METHODS,
  path: string,
  route: RouteDeclaration & ({ answers: Schema<unknown> | null; serialized?: true } | { raw: Record<string, SchemaObject> }),
): HandlerDecorator<unknown> {
  const { operationId, scope, params, idempotent, etag, summary, description, ...answer } = route;
  const serialized = 'serialized' in answer && answer.serialized === true;
  const decorators: MethodDecorator[] = [
    ApiOperation({ operationId, summary, description }),
    METHODS[method](path),
    ...(scope ? [RequireScope(scope)] : []),
    ...(params ? [SetMetadata(ROUTE_PARAMS, params)] : []),
    ...(idempotent ? [SetMetadata(IDEMPOTENT_ROUTE, idempotent)] : []),
    ...(etag ? [SetMetadata(ETAG_ROUTE, true)] : []),
    // An answer made as JSON text beforehand (serializedOk) is a string, which Fastify would send as text/plain.
    ...(serialized ? [Header('content-type', 'application/json; charset=utf-8')] : []),
  ];
  return (target, key, descriptor) => {
    for (const decorate of decorators) decorate(target, key, descriptor as PropertyDescriptor);
    respondsOf(answer)(target, key, descriptor as never);
  };
}

// never: the answer's type was checked by Route's overloads; here only the metadata is set.
function respondsOf(
  answer: ResponseOptions & ({ answers: Schema<unknown> | null; serialized?: true } | { raw: Record<string, SchemaObject> }),
): HandlerDecorator<never> {
  if ('raw' in answer) {
    const { raw, ...options } = answer;
    return RespondsRaw(raw, options);
  }
  const { answers, serialized: _serialized, ...options } = answer;
  return answers === null ? Responds(null, options) : Responds(answers, options);
}
