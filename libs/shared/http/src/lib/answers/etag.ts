import { createHash } from 'node:crypto';
import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { PreconditionFailedError } from '@lnk/shared/kernel';

/**
 * The strong entity tag (RFC 9110 8.8.3) of an answer's `data`: a digest of its JSON, so it changes with
 * every change a client could see in it, whichever instance made the change, and two instances answer the
 * same tag for the same resource. 160 bits of SHA-256, base64url.
 */
export function etagOf(data: unknown): string {
  return `"${createHash('sha256')
    .update(JSON.stringify(data) ?? '')
    .digest('base64url')
    .slice(0, 27)}"`;
}

/**
 * Whether an If-Match or If-None-Match field names `etag`: `*` names any current representation; a list
 * is compared entry by entry. If-Match compares strongly (a weak `W/` tag never matches), If-None-Match
 * weakly (RFC 9110 13.1.1, 13.1.2). A field of more than 64 entries is not read past them (a bounded walk).
 */
export function namesETag(field: string | undefined, etag: string, comparison: 'strong' | 'weak'): boolean {
  if (field === undefined) return false;
  const entries = field.split(',', 64).map((entry) => entry.trim());
  return entries.some((entry) => {
    if (entry === '*') return true;
    if (entry.startsWith('W/')) return comparison === 'weak' && entry.slice(2) === etag;
    return entry === etag;
  });
}

/** A PUT's If-Match precondition (`@IfMatch()`): the field as the request sent it, and the reply a refusal's ETag goes on. */
export interface IfMatchPrecondition {
  field: string | undefined;
  reply: { header(name: string, value: string): unknown };
}

/** The route parameter of a PUT that honours If-Match (@Route's `etag`), for `changeIfMatch`. */
export const IfMatch = createParamDecorator((_data: unknown, context: ExecutionContext): IfMatchPrecondition => {
  const http = context.switchToHttp();
  // Node joins a repeated If-Match (a list field) into one string.
  const field = http.getRequest<{ headers: Record<string, string | undefined> }>().headers['if-match'];
  return { field, reply: http.getResponse() };
});

/** What a conditional change (`changeIfMatch`) is given by its route, beside the precondition. */
export interface ConditionalChange<T, P> {
  /** The resource as its GET answers it: what its ETag is a digest of. */
  present: (resource: T) => P;
  /** Makes the change, asking `expected` (when given) of the resource as it is now, before writing. */
  change: (expected: ((current: T) => boolean) | undefined) => Promise<T>;
  /** The resource as it is now, for the refusal's ETag. */
  current: () => Promise<T>;
}

/**
 * A PUT with If-Match: the change is made only if the resource's current ETag (that of its GET's answer)
 * is among those named, and answers the changed resource presented. A refusal (PRECONDITION_FAILED)
 * carries the current ETag, so the client can read again and decide.
 */
export async function changeIfMatch<T, P>(
  precondition: IfMatchPrecondition,
  { present, change, current }: ConditionalChange<T, P>,
): Promise<P> {
  const { field, reply } = precondition;
  const expected = field === undefined ? undefined : (resource: T) => namesETag(field, etagOf(present(resource)), 'strong');
  try {
    return present(await change(expected));
  } catch (error) {
    if (error instanceof PreconditionFailedError) void reply.header('etag', etagOf(present(await current())));
    throw error;
  }
}
