import { UNLIMITED } from '@lnk/shared/kernel';
import { dateTime, described, integer, nullable, object, string } from './schema';

/**
 * The pieces of the answers that several contexts' routes share: paging meta, a deletion's answer, a
 * quota's usage. Each endpoint's own `data` schema lives beside its controller (`<name>.schemas.ts`),
 * named there with `named(...)` when it is a component.
 */

/** A limit of a plan or an account: always a number, the largest integer PostgreSQL stores when there is none. */
export const LIMIT = described(integer, `${UNLIMITED} means unlimited`);

/** A quota: how much of it the account uses (account limits, the password grant's sign-in). */
export const USAGE = object({ used: integer, limit: LIMIT });

/** Account and link deletions (spec 4.3). */
export const DeletedSchema = object({ deletedAt: dateTime });

/** The cursor of the page after a list's page: null on the last page. */
export const NEXT_CURSOR = described(
  nullable(string),
  'Pass as cursor for the page after this one; null on the last page. Opaque, bound to your account and this query.',
);

/** `meta` of a page of a list (spec 2.2), and the cursor of the page after it. */
export const PAGE_META = object({ total: integer, start: integer, limit: integer, nextCursor: NEXT_CURSOR });
