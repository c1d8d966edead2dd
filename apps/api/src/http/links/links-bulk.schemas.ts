import { boolean, either, id, integer, list, named, object, oneOfValues, string } from '../../openapi/schema';
import { LinkSchema } from './links.schemas';

const FIELD_ERRORS = list(object({ name: string, error: string }));

/** An item of a bulk creation that was not created: its errors, as VALIDATION_ERROR's meta.errors. */
export const BulkItemErrorsSchema = named('BulkItemErrors', object({ errors: FIELD_ERRORS }));
export const BulkCreatedSchema = either(LinkSchema, BulkItemErrorsSchema);

/** An id of a bulk delete or retag: whether it named a link of yours (only those were touched). */
export const BulkOutcomeSchema = named('BulkOutcome', object({ id, found: boolean }));

export const ImportReportSchema = named(
  'ImportReport',
  object({
    created: integer,
    skipped: list(object({ line: integer, reason: oneOfValues('invalid', 'duplicate_slug', 'quota'), errors: FIELD_ERRORS })),
  }),
);
