import { DataSource, EntitySchema } from 'typeorm';
import { ClickCounts, StatsQuery, StatsRecord, StatsRepository } from '@lnk/analytics/domain';
import { IdGenerator } from '@lnk/shared/kernel';
import { containsPattern, PersistenceModule, sql } from '@lnk/shared/database';
import { AnalyticsDailyStats1763800400000 } from './migrations/1763800400000-analytics-daily-stats';

export const DailyStatsSchema = new EntitySchema<{ id: string }>({
  name: 'LinkDailyStats',
  tableName: 'link_daily_stats',
  columns: { id: { type: 'char', length: 24, primary: true } },
});

export const analyticsPersistence: PersistenceModule = {
  entities: [DailyStatsSchema],
  migrations: [AnalyticsDailyStats1763800400000],
};

const clip = (value: string, max: number) => value.slice(0, max);

export class TypeormStatsRepository extends StatsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ids: IdGenerator,
  ) {
    super();
  }

  /** One upsert for the whole batch: counts add up, the names follow the latest click. */
  async addCounts(counts: ClickCounts[]): Promise<void> {
    if (!counts.length) return;
    const columns = 13;
    const values: unknown[] = [];
    const tuples = counts.map((c, i) => {
      values.push(this.ids.next(), c.date, c.linkId, c.ownerId, c.domainId, clip(c.linkName, 200), clip(c.domainName, 253), clip(c.utmSource, 200), clip(c.utmMedium, 200), clip(c.utmCampaign, 200), c.visits, c.passwordPassed, c.passwordFailed);
      return `(${Array.from({ length: columns }, (_, j) => `$${i * columns + j + 1}`).join(', ')})`;
    });
    await sql(
      this.dataSource,
      `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign, visits, password_passed, password_failed)
       VALUES ${tuples.join(', ')}
       ON CONFLICT (date, link_id, utm_source, utm_medium, utm_campaign) DO UPDATE SET
         visits = link_daily_stats.visits + EXCLUDED.visits,
         password_passed = link_daily_stats.password_passed + EXCLUDED.password_passed,
         password_failed = link_daily_stats.password_failed + EXCLUDED.password_failed,
         link_name = EXCLUDED.link_name,
         domain_name = EXCLUDED.domain_name`,
      values,
    );
  }

  async query(q: StatsQuery): Promise<StatsRecord[]> {
    const params: unknown[] = [q.ownerId, q.startDate, q.endDate];
    let filter = '';
    if (q.q) {
      params.push(containsPattern(q.q));
      filter = ` AND (link_name ILIKE $4 OR domain_name ILIKE $4 OR utm_source ILIKE $4 OR utm_medium ILIKE $4 OR utm_campaign ILIKE $4)`;
    }
    const { rows } = await sql<Record<string, unknown>>(
      this.dataSource,
      `SELECT id, to_char(date, 'YYYY-MM-DD') AS date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
              visits, password_passed, password_failed
         FROM link_daily_stats WHERE owner_id = $1 AND date BETWEEN $2::date AND $3::date${filter}
        ORDER BY link_daily_stats.date, link_name, utm_source, utm_medium, utm_campaign`,
      params,
    );
    return rows.map((r) => ({
      id: r['id'] as string,
      date: r['date'] as string,
      linkId: r['link_id'] as string,
      ownerId: r['owner_id'] as string,
      domainId: (r['domain_id'] as string | null) ?? null,
      linkName: r['link_name'] as string,
      domainName: r['domain_name'] as string,
      utmSource: r['utm_source'] as string,
      utmMedium: r['utm_medium'] as string,
      utmCampaign: r['utm_campaign'] as string,
      visits: Number(r['visits']),
      passwordPassed: Number(r['password_passed']),
      passwordFailed: Number(r['password_failed']),
    }));
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM link_daily_stats WHERE owner_id = $1', [ownerId]);
  }
}
