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

/**
 * A success answer as its handler returns it: the envelope itself (status 200 on success, spec 4,
 * creations included), a plain object Fastify serialises as it is, so nothing wraps results between the
 * handler and the socket. `data` or `meta` left undefined are not written (JSON.stringify leaves them out).
 */
export function ok<T>(data: T | undefined, message = 'Request successful', meta?: Record<string, unknown>): SuccessEnvelope<T> {
  return { status: 200, code: 'OK', message, data, meta };
}

/** A page of items with the pagination meta of spec 2.2, and the cursor of the next page when it is given. */
export function okPage<T>(
  page: { items: T[]; total: number; start: number; limit: number; nextCursor?: string | null },
  message = 'Request successful',
): SuccessEnvelope<T[]> {
  const meta: Record<string, unknown> = { total: page.total, start: page.start, limit: page.limit };
  if (page.nextCursor !== undefined) meta['nextCursor'] = page.nextCursor;
  return ok(page.items, message, meta);
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

declare const dataOfText: unique symbol;

/**
 * A success answer already in its JSON text (the envelope included), sent without serialising it again:
 * for an answer many requests share (a cached list page), whose serialisation was the largest part of the
 * request's own work. A string, typed by the data it holds (for the route's declared answer); the route
 * says `serialized: true` (@Route), which sends it as application/json.
 */
export type SerializedOk<T = unknown> = string & { readonly [dataOfText]: T };

export function serializedOk<T>(envelope: SuccessEnvelope<T>): SerializedOk<T> {
  return JSON.stringify(envelope) as SerializedOk<T>;
}

declare const rawBody: unique symbol;

/**
 * A body sent as it is, without the envelope: for the few protocol endpoints whose callers expect a
 * standard body (OAuth form-encoded requests). The type only marks that the handler meant it.
 */
export type Raw = object & { readonly [rawBody]: true };

export const raw = (body: object): Raw => body as Raw;
