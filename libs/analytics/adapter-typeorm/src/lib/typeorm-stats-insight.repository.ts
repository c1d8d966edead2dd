import { DataSource } from 'typeorm';
import {
  ClickDimension,
  IntervalVisits,
  LinkVisits,
  StatsFilter,
  StatsInsightRepository,
  StatsInterval,
  ValueVisits,
} from '@lnk/analytics/domain';
import { int, Row, rowsOf, sql, text, textOrNull } from '@lnk/shared/database';

const valueVisits = (r: Row): ValueVisits => ({ value: text(r, 'value'), visits: int(r, 'visits') });
const intervalVisits = (r: Row): IntervalVisits => ({ date: text(r, 'date'), visits: int(r, 'visits') });
const linkVisits = (r: Row): LinkVisits => ({
  linkId: text(r, 'link_id'),
  linkName: text(r, 'link_name'),
  domainId: textOrNull(r, 'domain_id'),
  domainName: text(r, 'domain_name'),
  visits: int(r, 'visits'),
});

/** The WHERE clause of a filter over a rollup table (owner, period, links, domain), its parameters from $1. */
function where(filter: StatsFilter): { clause: string; params: unknown[] } {
  const params: unknown[] = [filter.ownerId, filter.startDate, filter.endDate];
  let clause = 'owner_id = $1 AND date BETWEEN $2::date AND $3::date';
  if (filter.linkIds) {
    params.push(filter.linkIds);
    clause += ` AND link_id = ANY($${params.length}::char(24)[])`;
  }
  if (filter.domainId !== undefined) {
    params.push(filter.domainId);
    clause += ` AND domain_id = $${params.length}`;
  }
  return { clause, params };
}

/**
 * Breakdowns read link_daily_dimensions; time series and top links read link_daily_stats (visits of all
 * time, also from before dimensions were counted). Both are indexed by owner first.
 */
export class TypeormStatsInsightRepository extends StatsInsightRepository {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  async breakdown(filter: StatsFilter, dimension: ClickDimension, limit: number): Promise<ValueVisits[]> {
    const { clause, params } = where(filter);
    const result = await sql(
      this.dataSource,
      `SELECT value, sum(visits)::bigint AS visits FROM link_daily_dimensions
        WHERE ${clause} AND dimension = $${params.length + 1}
        GROUP BY value ORDER BY visits DESC, value LIMIT $${params.length + 2}`,
      [...params, dimension, limit],
    );
    return rowsOf(result, valueVisits);
  }

  async timeSeries(filter: StatsFilter, interval: StatsInterval): Promise<IntervalVisits[]> {
    const { clause, params } = where(filter);
    // Every interval of the period, the first one starting where date_trunc puts the start date.
    const result = await sql(
      this.dataSource,
      `WITH counted AS (
         SELECT date_trunc($${params.length + 1}, date)::date AS bucket, sum(visits)::bigint AS visits
           FROM link_daily_stats WHERE ${clause} GROUP BY 1
       )
       SELECT to_char(b.bucket, 'YYYY-MM-DD') AS date, COALESCE(c.visits, 0)::bigint AS visits
         FROM (SELECT generate_series(date_trunc($${params.length + 1}, $2::date), $3::date,
           ('1 ' || $${params.length + 1})::interval)::date AS bucket) AS b
         LEFT JOIN counted c ON c.bucket = b.bucket
        ORDER BY b.bucket`,
      [...params, interval],
    );
    return rowsOf(result, intervalVisits);
  }

  async topLinks(filter: StatsFilter, limit: number): Promise<LinkVisits[]> {
    const { clause, params } = where(filter);
    const result = await sql(
      this.dataSource,
      `SELECT link_id, (array_agg(link_name ORDER BY date DESC))[1] AS link_name, (array_agg(domain_id ORDER BY date DESC))[1] AS domain_id,
              (array_agg(domain_name ORDER BY date DESC))[1] AS domain_name, sum(visits)::bigint AS visits
         FROM link_daily_stats WHERE ${clause}
        GROUP BY link_id HAVING sum(visits) > 0
        ORDER BY visits DESC, link_id LIMIT $${params.length + 1}`,
      [...params, limit],
    );
    return rowsOf(result, linkVisits);
  }
}
