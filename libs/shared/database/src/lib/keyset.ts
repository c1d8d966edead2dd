import type { PageRequest } from '@lnk/shared/kernel';

/**
 * The condition of a cursor's page (`AND <column> < $n`) in a list ordered newest first by its id alone
 * (`ORDER BY <column> DESC`, ids time-ordered), its id added to `params`; '' for an offset page. The id
 * is cast to the column's type so the (owner, id) index takes the comparison: the page then costs the
 * same at any depth.
 */
export function afterId(page: PageRequest, params: unknown[], column = 'id'): string {
  if (!page.after) return '';
  params.push(page.after[page.after.length - 1]);
  return ` AND ${column} < $${params.length}::char(24)`;
}
