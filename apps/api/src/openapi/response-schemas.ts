import type { SchemaObject } from '@nestjs/swagger';
import { ERROR_CODES } from '@lnk/shared/kernel';
import { integer, list, named, object, string } from '@lnk/shared/http';

/**
 * The envelope of a success, as the document writes each operation's answer: `status` repeats the answer's (200, or 302 for a redirect that
 * also answers the envelope).
 */
export const SUCCESS_ENVELOPE = (
  data: SchemaObject | { $ref: string } | null,
  meta?: SchemaObject | { $ref: string },
  status = 200,
): SchemaObject => ({
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
