import { StreamableFile } from '@nestjs/common';
import type { ErrorCode, FieldError } from '@lnk/shared/kernel';

/** The body of every API response (spec 2.1). */
export interface SuccessEnvelope<T = unknown> {
  status: number;
  code: 'OK';
  message: string;
  data?: T;
  meta?: Record<string, unknown>;
}

export interface ErrorEnvelope {
  status: number;
  code: ErrorCode | string;
  message: string;
  meta?: { errors?: FieldError[] } & Record<string, unknown>;
}

/** What a controller returns when it has a message or meta to add to its data. */
export class Ok<T = unknown> {
  constructor(
    readonly data: T | undefined,
    readonly message: string,
    readonly meta?: Record<string, unknown>,
  ) {}
}

export function ok<T>(data: T | undefined, message = 'Request successful', meta?: Record<string, unknown>): Ok<T> {
  return new Ok(data, message, meta);
}

/** A page of items with the pagination meta of spec 2.2. */
export function okPage<T>(page: { items: T[]; total: number; start: number; limit: number }, message = 'Request successful'): Ok<T[]> {
  return new Ok(page.items, message, { total: page.total, start: page.start, limit: page.limit });
}

/**
 * A list too large to hold at once: its items in batches, each read as the answer is written. The body
 * is, byte for byte, the one `ok(items, message, { total })` would give (see streamed-list.ts).
 */
export class OkStream<T = unknown> {
  constructor(
    readonly batches: AsyncIterable<T[]>,
    readonly message: string,
  ) {}
}

export function okStream<T>(batches: AsyncIterable<T[]>, message = 'Request successful'): OkStream<T> {
  return new OkStream(batches, message);
}

/**
 * A success answer already in its JSON text (the envelope included), sent without serialising it again:
 * for an answer many requests share (a cached list page), whose serialisation was the largest part of the
 * request's own work. `successBody` passes it through; the adapter sends the text as application/json.
 */
export class SerializedOk<T = unknown> {
  /** The type of the data it holds, for the route's declared answer (no value at run time). */
  declare private readonly data?: T;

  constructor(readonly json: string) {}
}

export function serializedOk<T>(result: Ok<T>): SerializedOk<T> {
  return new SerializedOk<T>(JSON.stringify(successBody(result)));
}

/**
 * A body sent as it is, without the envelope: for the few protocol endpoints whose callers expect a
 * standard body (OAuth form-encoded requests, HTML pages).
 */
export class Raw {
  constructor(readonly body: unknown) {}
}

/**
 * What a handler returned, as it is answered: a Raw body as it is, anything else in the success envelope
 * (status 200 on success, spec 4, creations included). Errors never come here; the exception filter
 * renders those.
 */
export function successBody(result: unknown): unknown {
  if (result instanceof Raw) return result.body;
  if (result instanceof SerializedOk) return result;
  // A streamed list (streamed-list.ts) is written as it is read, its envelope in its bytes.
  if (result instanceof StreamableFile) return result;
  const reply = result instanceof Ok ? result : new Ok(result, 'Request successful');
  const envelope: SuccessEnvelope = { status: 200, code: 'OK', message: reply.message };
  if (reply.data !== undefined) envelope.data = reply.data;
  if (reply.meta !== undefined) envelope.meta = reply.meta;
  return envelope;
}

/**
 * Nest asks `isPlainObject` of every handler's result (pickStreamingBody, to find a stream wrapped in a
 * plain object), and that compares the source text of the result's constructor with Object's: two
 * Function.prototype.toString calls per request, 3.6% of the CPU of GET /health/live. These results are
 * never plain objects (nor wrap a stream: the envelope is made after): without a function as their
 * prototype's `constructor`, the check answers no at once. Nothing reads their `constructor`; `instanceof`
 * goes by the prototype, which stays.
 */
for (const answer of [Ok, SerializedOk, Raw]) Object.defineProperty(answer.prototype, 'constructor', { value: undefined });
