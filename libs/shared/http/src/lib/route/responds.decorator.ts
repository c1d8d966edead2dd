import { SetMetadata } from '@nestjs/common';
import type { SchemaObject } from '@nestjs/swagger';
import type { Raw, SerializedOk, SuccessEnvelope } from '../answers/envelope';
import type { StreamedList } from '../answers/streamed-list';
import type { Schema } from '../schemas/schema';

export const ROUTE_RESPONSE = 'lnk:response';

/** What a route answers besides its `data`, for its OpenAPI operation. */
export interface ResponseOptions {
  /** The schema of the envelope's `meta`. */
  meta?: Schema<unknown>;
  /** The RFC body a form-encoded request gets instead of the envelope (OAuth endpoints). */
  form?: Schema<unknown>;
  /** Success status other than 200. */
  status?: number;
  /** Error statuses of this route beyond those its kind implies, and whether they are JSON envelopes or pages. */
  errors?: Record<number, 'json' | 'html' | 'html or json'>;
  /** A sensitive account action: 403 may also be REAUTHENTICATION_REQUIRED (no recent sign-in, no currentPassword). */
  reauthentication?: true;
  /** Also answers an HTML page (text/html) when the request's Accept ranks text/html above JSON (a browser). */
  page?: true;
  /** Also answers a redirect (302, Location header): when it does. */
  redirect?: string;
}

/** A route's documented success answer, as its handler declares it. */
export interface RouteResponse extends ResponseOptions {
  /** The schema of `data`; null: the envelope has no data. */
  data: Schema<unknown> | null;
  /** Not JSON in the envelope: the content types the route answers with. */
  raw?: Record<string, SchemaObject>;
}

// A list may also be streamed: its items must still be those of the declared schema.
export type Answer<T> = SuccessEnvelope<T> | (T extends (infer E)[] ? StreamedList<E> : never) | Raw | void;
/** The answer of a route that says `serialized: true` (@Route): also its JSON text made beforehand. */
export type SerializedAnswer<T> = Answer<T> | SerializedOk<T>;
// never[]: a handler takes whatever its parameter decorators inject
type Handler<A> = (...args: never[]) => A | Promise<A>;
// The descriptor's value only (not TypedPropertyDescriptor, whose setter would make the check invariant):
// the handler's answer must be assignable to the declared one.
export type HandlerDecorator<T, A = Answer<T>> = (target: object, key: string | symbol, descriptor: { value?: Handler<A> }) => void;

function declare<T>(response: RouteResponse): HandlerDecorator<T> {
  return (target, key, descriptor) => void SetMetadata(ROUTE_RESPONSE, response)(target, key, descriptor as PropertyDescriptor);
}

/**
 * The success answer of a route: the schema of its envelope's `data` (null: no data). The handler must
 * return `ok(…)` of that schema's type (or a Raw body, or answer through the reply), so a handler whose
 * answer drifts from its document does not compile.
 */
export function Responds<T>(data: Schema<T>, options?: ResponseOptions): HandlerDecorator<T>;
export function Responds(data: null, options?: ResponseOptions): HandlerDecorator<undefined>;
export function Responds(data: Schema<unknown> | null, options: ResponseOptions = {}): HandlerDecorator<unknown> {
  return declare({ ...options, data });
}

/** A route that answers without the envelope: the content types and their schemas (an image, a page, metrics). */
export function RespondsRaw(
  contentTypes: Record<string, SchemaObject>,
  options: Omit<ResponseOptions, 'meta' | 'form'> = {},
): HandlerDecorator<never> {
  return declare({ ...options, data: null, raw: contentTypes });
}
