import { LinkOptions, LinkTargets, LinkUtm, RedirectOptions, RedirectType } from '@lnk/links/domain';
import { int, Row, RowDecodeError, textOrNull, timestampOrNull } from '@lnk/shared/database';

/**
 * The columns of a link's options (issue 18), for a statement over `links l`: each null when not set; the
 * visit limit and its count from `link_visit_limits` (a row only for links with a limit).
 */
export const OPTION_COLUMNS = `l.redirect_type, l.expires_at, l.expired_url, l.utm, l.targets,
  (SELECT v.max_visits FROM link_visit_limits v WHERE v.link_id = l.id) AS max_visits,
  (SELECT v.visits_used FROM link_visit_limits v WHERE v.link_id = l.id) AS visits_used`;

/** What a redirect reads of them (not the count: a counted visit asks the counter itself). */
export const REDIRECT_OPTION_COLUMNS = `l.redirect_type, l.expires_at, l.expired_url, l.utm, l.targets,
  (SELECT v.max_visits FROM link_visit_limits v WHERE v.link_id = l.id) AS max_visits`;

/** Whether `l` is expired at the timestamptz parameter `$at`: past expires_at, or its visits used up. */
export const expiredAt = (at: string) =>
  `(COALESCE(l.expires_at <= ${at}, false) OR EXISTS (SELECT 1 ` +
  'FROM link_visit_limits v WHERE v.link_id = l.id ' +
  'AND v.visits_used >= v.max_visits))';

const jsonObjectOrNull = <T>(r: Row, column: string): T | null => {
  const value = r[column];
  if (value === null) return null;
  const parsed = typeof value === 'string' ? (JSON.parse(value) as unknown) : value;
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as T;
  throw new RowDecodeError(column, 'a JSON object', value);
};

const hasNoOptions = (r: Row) =>
  r['redirect_type'] === null &&
  r['expires_at'] === null &&
  r['expired_url'] === null &&
  r['utm'] === null &&
  r['targets'] === null &&
  r['max_visits'] === null;
const redirectTypeOf = (r: Row): RedirectType => (r['redirect_type'] === null ? 302 : (int(r, 'redirect_type') as RedirectType));
const maxVisitsOf = (r: Row): number | null => (r['max_visits'] === null ? null : int(r, 'max_visits'));

/** A link's options from its row; undefined when it has none (a plain link's props carry no options). */
export function linkOptionsOf(r: Row): LinkOptions | undefined {
  if (hasNoOptions(r)) return undefined;
  return {
    redirectType: redirectTypeOf(r),
    expiresAt: timestampOrNull(r, 'expires_at'),
    expiredUrl: textOrNull(r, 'expired_url'),
    maxVisits: maxVisitsOf(r),
    visitsUsed: r['visits_used'] === null ? 0 : int(r, 'visits_used'),
    utm: jsonObjectOrNull<LinkUtm>(r, 'utm'),
    targets: jsonObjectOrNull<LinkTargets>(r, 'targets'),
  };
}

/** A redirect's view of them; null for a plain link (answered on the hot path). */
export function redirectOptionsOfRow(r: Row): RedirectOptions | null {
  if (hasNoOptions(r)) return null;
  return {
    redirectType: redirectTypeOf(r),
    expiresAt: timestampOrNull(r, 'expires_at')?.getTime() ?? null,
    expiredUrl: textOrNull(r, 'expired_url'),
    maxVisits: maxVisitsOf(r),
    utm: jsonObjectOrNull<LinkUtm>(r, 'utm'),
    targets: jsonObjectOrNull<LinkTargets>(r, 'targets'),
  };
}

/** redirect_type, expires_at, expired_url, utm, targets as parameters (json as text, for `::jsonb`). */
export function optionParams(o: LinkOptions | undefined): unknown[] {
  if (!o) return [null, null, null, null, null];
  return [
    o.redirectType === 302 ? null : o.redirectType,
    o.expiresAt,
    o.expiredUrl,
    o.utm && JSON.stringify(o.utm),
    o.targets && JSON.stringify(o.targets),
  ];
}
