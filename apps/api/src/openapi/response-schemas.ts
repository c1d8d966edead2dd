import type { SchemaObject } from '@nestjs/swagger';
import { ERROR_CODES, UNLIMITED } from '@lnk/shared/kernel';
import { dateTime, described, integer, list, named, object, string } from './schema';

/**
 * The pieces of the answers that several HTTP folders share: the envelopes, paging meta, a deletion's
 * answer, a quota's usage. Each endpoint's own `data` schema lives in its folder
 * (`http/<name>/<name>.schemas.ts`), named there with `named(...)` when it is a component.
 */

/** A limit of a plan or an account: always a number, the largest integer PostgreSQL stores when there is none. */
export const LIMIT = described(integer, `${UNLIMITED} means unlimited`);

/** A quota: how much of it the account uses (account limits, the password grant's sign-in). */
export const USAGE = object({ used: integer, limit: LIMIT });

/** Account and link deletions (spec 4.3). */
export const DeletedSchema = object({ deletedAt: dateTime });

/** `meta` of a page of a list (spec 2.2). */
export const PAGE_META = object({ total: integer, start: integer, limit: integer });

/** The envelope of a success: `status` repeats the answer's (200, or 302 for a redirect that also answers the envelope). */
export const SUCCESS_ENVELOPE = (data: SchemaObject | { $ref: string } | null, meta?: SchemaObject | { $ref: string }, status = 200): SchemaObject => ({
  type: 'object',
  additionalProperties: false,
  required: ['status', 'code', 'message', ...(data ? ['data'] : []), ...(meta ? ['meta'] : [])],
  properties: {
    status: { type: 'integer', enum: [status] },
    code: { type: 'string', enum: ['OK'] },
    message: string,
    ...(data ? { data } : {}),
    ...(meta ? { meta } : {}),
  },
});

/** Every error answer (spec section 2): a component, referred to by each operation's error responses. */
export const ERROR_ENVELOPE: SchemaObject = named('ErrorEnvelope', {
  type: 'object',
  additionalProperties: false,
  required: ['status', 'code', 'message'],
  properties: {
    status: integer,
    code: { type: 'string', enum: [...ERROR_CODES, 'BAD_REQUEST'] },
    message: string,
    meta: {
      type: 'object',
      properties: { errors: list(object({ name: string, error: string })) },
    },
  },
});
