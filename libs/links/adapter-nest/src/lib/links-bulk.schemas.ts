import { boolean, described, discriminated, id, integer, list, named, object, oneOfValues, string } from '@lnk/shared/http';
import { LINK_DETAIL_FIELDS, LINK_OPTIONAL_FIELDS } from './links.schemas';

const FIELD_ERRORS = list(object({ name: string, error: string }));

/** An item of a bulk creation that was created: the link as POST /user/link answers it. */
export const BulkCreatedLinkSchema = named(
  'BulkCreatedLink',
  object({ outcome: described(oneOfValues('created'), 'This link was created.'), ...LINK_DETAIL_FIELDS }, LINK_OPTIONAL_FIELDS),
);
/** An item of a bulk creation that was not created: its errors, as VALIDATION_ERROR's meta.errors. */
export const BulkItemErrorsSchema = named(
  'BulkItemErrors',
  object({ outcome: described(oneOfValues('refused'), 'This link was not created.'), errors: FIELD_ERRORS }),
);
/** Each item of a bulk creation's answer, told apart by `outcome`. */
export const BulkCreatedSchema = discriminated('outcome', { created: BulkCreatedLinkSchema, refused: BulkItemErrorsSchema });

/** An id of a bulk delete or retag: whether it named a link of yours (only those were touched). */
export const BulkOutcomeSchema = named('BulkOutcome', object({ id, found: boolean }));

const SKIP_REASON = oneOfValues('invalid', 'duplicate_slug', 'quota');

export const ImportReportSchema = named(
  'ImportReport',
  object({
    created: integer,
    skipped: described(
      list(object({ line: integer, reason: SKIP_REASON, errors: FIELD_ERRORS })),
      'The first 100 skipped lines, by line number',
    ),
    skippedTotal: described(integer, 'Every skipped line, listed or not'),
    skippedByReason: described(object({ invalid: integer, duplicate_slug: integer, quota: integer }), 'Skipped lines counted by reason'),
  }),
);
