import { DataSource } from 'typeorm';
import { VisitClaim, VisitLimits } from '@lnk/links/domain';
import { sql } from '@lnk/shared/database';

/**
 * The visit counters of links with a limit, in `link_visit_limits`: taking a visit is one atomic
 * statement (the row's lock orders concurrent takers, each sees the count the one before left), so the
 * limit holds exactly however many instances share the database. A link without a row has no limit left
 * to take (it was cleared meanwhile, or the link deleted): false.
 */
export class TypeormVisitLimits extends VisitLimits {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async claim(linkId: string): Promise<VisitClaim> {
    // The row lock orders the takers: exactly one of them leaves visits_used equal to max_visits.
    const result = await sql(
      this.dataSource,
      'UPDATE link_visit_limits SET visits_used = visits_used + 1 WHERE link_id = $1 ' +
        'AND visits_used < max_visits RETURNING visits_used >= max_visits AS last',
      [linkId],
    );
    if (result.rows.length === 0) return 'none';
    return (result.rows[0] as { last: boolean }).last ? 'last' : 'taken';
  }

  async hasLeft(linkId: string): Promise<boolean> {
    const result = await sql(this.dataSource, 'SELECT 1 FROM link_visit_limits WHERE link_id = $1 AND visits_used < max_visits', [linkId]);
    return result.rows.length > 0;
  }
}
