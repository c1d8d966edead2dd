import { DataSource } from 'typeorm';
import {
  ClickCounts,
  DimensionCounts,
  DIRECT_REFERRER,
  hasNoUtm,
  isBoundedValue,
  MAX_DIMENSION_VALUE_LENGTH,
  MAX_DIMENSION_VALUES_PER_LINK_DAY,
  OPEN_DIMENSIONS,
  OTHER_UTM,
  OTHER_VALUE,
  StatsQuery,
  StatsRecord,
  StatsRepository,
  statsPosition,
  UNKNOWN_VALUE,
} from '@lnk/analytics/domain';
import { IdGenerator, Keyset, Page, PageRequest, pageOf } from '@lnk/shared/kernel';
import {
  containsPattern,
  countOf,
  int,
  inTransaction,
  JsonColumn,
  jsonRows,
  jsonRowsOf,
  linkDayChunks,
  PersistenceModule,
  Row,
  rowsOf,
  sql,
  text,
  textOrNull,
} from '@lnk/shared/database';
import { AnalyticsDailyStats1763800400000 } from './migrations/1763800400000-analytics-daily-stats';
import { AnalyticsStatsFillFactor1764000100000 } from './migrations/1764000100000-analytics-stats-fill-factor';
import { AnalyticsDimensionStats1764100015000 } from './migrations/1764100015000-analytics-dimension-stats';
import { AnalyticsDimensionLinkIndex1764310000000 } from './migrations/1764310000000-analytics-dimension-link-index';

export const analyticsPersistence: PersistenceModule = {
  migrations: [
    AnalyticsDailyStats1763800400000,
    AnalyticsStatsFillFactor1764000100000,
    AnalyticsDimensionStats1764100015000,
    AnalyticsDimensionLinkIndex1764310000000,
  ],
};

const statsRecord = (r: Row): StatsRecord => ({
  id: text(r, 'id'),
  date: text(r, 'date'),
  linkId: text(r, 'link_id'),
  ownerId: text(r, 'owner_id'),
  domainId: textOrNull(r, 'domain_id'),
  linkName: text(r, 'link_name'),
  domainName: text(r, 'domain_name'),
  utmSource: text(r, 'utm_source'),
  utmMedium: text(r, 'utm_medium'),
  utmCampaign: text(r, 'utm_campaign'),
  visits: int(r, 'visits'),
  passwordPassed: int(r, 'password_passed'),
  passwordFailed: int(r, 'password_failed'),
});

/**
 * The one order of every read (see StatsRepository): the id last, unique, so no two rows tie. The table's
 * date, not the output column `date` (text): sorted by that, no index could hand rows over in order.
 */
const STATS_ORDER = 'link_daily_stats.date, link_name, utm_source, utm_medium, utm_campaign, id';

interface Range {
  where: string;
  params: unknown[];
}

/** The caller's rows of the range, those matching `q` only when given. */
function rangeOf(q: StatsQuery): Range {
  const params: unknown[] = [q.ownerId, q.startDate, q.endDate];
  let where = 'owner_id = $1 AND date BETWEEN $2::date AND $3::date';
  if (q.q) {
    params.push(containsPattern(q.q));
    where += ` AND (link_name ILIKE $4 OR domain_name ILIKE $4 OR utm_source ILIKE $4 OR utm_medium ILIKE $4 OR utm_campaign ILIKE $4)`;
  }
  return { where, params };
}

/**
 * The rows of the range after `last` in STATS_ORDER. The day's bound is also said on its own: the index
 * on (owner_id, date) then starts at that day instead of the range's first.
 */
function after(range: Range, position: Keyset): Range {
  const n = range.params.length;
  return {
    where:
      `${range.where} AND date >= $${n + 1}::date AND (date, link_name, utm_source, utm_medium, ` +
      `utm_campaign, id) > ($${n + 1}::date, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, $${n + 6})`,
    params: [...range.params, ...position],
  };
}

const clip = (value: string, max: number) => value.slice(0, max);

/** Rows the bounded write takes: an open dimension's host names, and its `(other)`, which the bound adds to. */
const isBoundedWrite = (d: DimensionCounts) =>
  isBoundedValue(d.dimension, d.value) || (OPEN_DIMENSIONS.has(d.dimension) && d.value === OTHER_VALUE);

/** Values of an open dimension that take none of its bounded slots (isBoundedValue). */
const FIXED_VALUES = [DIRECT_REFERRER, UNKNOWN_VALUE, OTHER_VALUE];

/** Both writes add to the stored row of the same (date, link, UTM values); the names follow the latest. */
const ADD_TO_STORED_ROW = `ON CONFLICT (date, link_id, utm_source, utm_medium, utm_campaign) DO UPDATE SET
         visits = link_daily_stats.visits + EXCLUDED.visits,
         password_passed = link_daily_stats.password_passed + EXCLUDED.password_passed,
         password_failed = link_daily_stats.password_failed + EXCLUDED.password_failed,
         link_name = EXCLUDED.link_name,
         domain_name = EXCLUDED.domain_name`;

/** Rows per statement of the click write (see linkDayChunks). */
const WRITE_CHUNK_ROWS = 2_000;

/** The JSON rows of the click write (jsonRowsOf), one list per kind of row. */
const DIMENSION_COLUMNS: JsonColumn[] = [
  ['date', 'date'],
  ['link_id', 'char(24)'],
  ['owner_id', 'char(24)'],
  ['domain_id', 'char(24)'],
  ['dimension', 'text'],
  ['value', 'text'],
  ['visits', 'bigint'],
];
const COUNT_KEYS: JsonColumn[] = [
  ['id', 'char(24)'],
  ['date', 'date'],
  ['link_id', 'char(24)'],
  ['owner_id', 'char(24)'],
  ['domain_id', 'char(24)'],
  ['link_name', 'text'],
  ['domain_name', 'text'],
];
const COUNTS: JsonColumn[] = [
  ['visits', 'bigint'],
  ['password_passed', 'bigint'],
  ['password_failed', 'bigint'],
];
const PLAIN_COLUMNS = [...COUNT_KEYS, ...COUNTS];
const TAGGED_COLUMNS = [
  ...COUNT_KEYS,
  ['utm_source', 'text'],
  ['utm_medium', 'text'],
  ['utm_campaign', 'text'],
  ...COUNTS,
] satisfies JsonColumn[];

/** The two-key advisory locks of the statistics writer: their own key space, apart from one-key locks. */
const STATS_LOCK_CLASS = 0x57a7;
const LOCK_BUCKETS = 1024;

export class TypeormStatsRepository extends StatsRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly ids: IdGenerator,
  ) {
    super();
  }

  /**
   * One transaction for the whole batch: counts add up, the names follow the latest click.
   *
   * Rows without UTM values (most clicks) always have their row: one plain upsert, in key order (two
   * writers lock the rows they share in the same order, so they cannot deadlock), no probe, no lock.
   * Rows with UTM values go through the bound: under a lock per (link, date), a combination not stored
   * yet takes one of the (link, date)'s free slots (the busiest first) or, when none is left, is added to
   * its `(other)` row: the bound holds across batches and instances, and every click is still counted.
   *
   * The table is kept at fill factor 50 (migration 1764000100000): an upsert then rewrites a row on its
   * own page (a HOT update) without touching the three indexes; at fill factor 100 every click total of
   * a busy second was also three index insertions, and the write took most of a core (see docs/performance.md,
   * Redirects).
   */
  async addCounts(
    counts: ClickCounts[],
    maxUtmCombinations: number,
    dimensions: DimensionCounts[] = [],
    maxDimensionValues = MAX_DIMENSION_VALUES_PER_LINK_DAY,
  ): Promise<void> {
    if (!counts.length && !dimensions.length) return;
    const plain = counts.filter(hasNoUtm);
    const tagged = plain.length === counts.length ? [] : counts.filter((c) => !hasNoUtm(c));
    // Most dimension values come from closed lists, or are a referrer's fixed ones ((direct), (unknown)):
    // they always have their row, like clicks without UTM values. Referrer host names go through the bound,
    // and so does the referrer's (other), which the bound writes (under its locks, never in the plain write).
    const fixed = dimensions.filter((d) => !isBoundedWrite(d));
    const open = fixed.length === dimensions.length ? [] : dimensions.filter(isBoundedWrite);
    // Each kind of row in chunks, in (date, link) order (linkDayChunks): every writer takes the row locks of
    // one table after another, each table's in key order, so two writers cannot deadlock; between two
    // statements the event loop answers requests.
    await inTransaction(this.dataSource, async () => {
      for (const chunk of linkDayChunks(plain, WRITE_CHUNK_ROWS)) await this.addPlainCounts(chunk);
      for (const chunk of linkDayChunks(fixed, WRITE_CHUNK_ROWS)) await this.addDimensionCounts(chunk, null);
      if (!tagged.length && !open.length) return;
      // The planner's estimate of the probes below is high enough to compile the statements (JIT), which
      // cost more than running them: a per-second write is better off interpreted.
      await sql(this.dataSource, 'SET LOCAL jit = off');
      // One set of locks for both bounded writes, taken at once and in order (two sets taken one after the
      // other could be taken in opposite orders by two writers, and deadlock).
      await this.lockLinkDays([...tagged, ...open]);
      // A chunk holds whole (date, link)s: the bounds, which count per (date, link), see all of one at once.
      for (const chunk of linkDayChunks(tagged, WRITE_CHUNK_ROWS)) await this.addTaggedCounts(chunk, maxUtmCombinations);
      for (const chunk of linkDayChunks(open, WRITE_CHUNK_ROWS)) await this.addDimensionCounts(chunk, maxDimensionValues);
    });
  }

  /**
   * Writers of one (link, date) take turns, so the bounds hold across batches and instances. The locks
   * are per bucket of (link, date) pairs, at most LOCK_BUCKETS of them: one lock per pair ran PostgreSQL's
   * lock table out of memory on a batch of many links, and the write then failed on every retry. Taken in
   * order, so two writers cannot deadlock.
   */
  private async lockLinkDays(rows: { date: string; linkId: string }[]): Promise<void> {
    const linkDays = [...new Set(rows.map((c) => `${c.date}:${c.linkId}`))].map((k) => [k]);
    await sql(
      this.dataSource,
      `SELECT pg_advisory_xact_lock(${STATS_LOCK_CLASS}, b) ` +
        `FROM (SELECT DISTINCT hashtext(k) & ${LOCK_BUCKETS - 1} AS b ` +
        `FROM ${jsonRowsOf(1, [['k', 'text']], 'keys')} ORDER BY b) AS buckets`,
      [jsonRows(linkDays)],
    );
  }

  /**
   * Visits per (date, link, dimension, value), written in key order. `maxValues` null: values that always
   * have their row, one plain upsert. Else, under the link-day locks: a value stored already is added to
   * its row; a new one takes one of the (date, link, dimension)'s free slots (the busiest first) or, when
   * none is left, is added to its `(other)` row (the fixed values, `(direct)` and the like, take no slot).
   */
  private async addDimensionCounts(dimensions: DimensionCounts[], maxValues: number | null): Promise<void> {
    const rows = jsonRows(
      dimensions.map((d) => [d.date, d.linkId, d.ownerId, d.domainId, d.dimension, clip(d.value, MAX_DIMENSION_VALUE_LENGTH), d.visits]),
    );
    const incoming = jsonRowsOf(1, DIMENSION_COLUMNS, 'i');
    const addToStoredRow =
      'ON CONFLICT (date, link_id, dimension, value) DO UPDATE ' + 'SET visits = link_daily_dimensions.visits + EXCLUDED.visits';
    if (maxValues === null) {
      await sql(
        this.dataSource,
        `INSERT INTO link_daily_dimensions (date, link_id, dimension, value, owner_id, domain_id, visits)
         SELECT date, link_id, dimension, value, owner_id, domain_id, visits FROM ${incoming}
          ORDER BY date, link_id, dimension, value
         ${addToStoredRow}`,
        [rows],
      );
      return;
    }
    await sql(
      this.dataSource,
      `WITH incoming AS (
         SELECT * FROM ${incoming}
       ), classified AS (
         SELECT i.*,
                i.value = $2 OR EXISTS (SELECT 1 FROM link_daily_dimensions s WHERE s.date = i.date AND s.link_id = i.link_id
                  AND s.dimension = i.dimension AND s.value = i.value) AS stored
           FROM incoming i
       ), ranked AS (
         SELECT c.*,
                row_number() OVER (PARTITION BY c.date, c.link_id, c.dimension, c.stored ORDER BY c.visits DESC, c.value) AS rank,
                CASE WHEN c.stored THEN 0 ELSE (SELECT count(*) FROM link_daily_dimensions s WHERE s.date = c.date AND s.link_id = c.link_id
                  AND s.dimension = c.dimension AND s.value <> ALL ($4::text[])) END AS taken
           FROM classified c
       ), folded AS (
         SELECT date, link_id, owner_id, domain_id, dimension, CASE WHEN stored OR taken + rank <= $3 THEN value ELSE $2 END
           AS value, visits
           FROM ranked
       )
       INSERT INTO link_daily_dimensions (date, link_id, dimension, value, owner_id, domain_id, visits)
       SELECT date, link_id, dimension, value, max(owner_id), max(domain_id), sum(visits)
         FROM folded
        GROUP BY date, link_id, dimension, value
        ORDER BY date, link_id, dimension, value
       ${addToStoredRow}`,
      [rows, OTHER_VALUE, maxValues, FIXED_VALUES],
    );
  }

  private async addPlainCounts(plain: ClickCounts[]): Promise<void> {
    await sql(
      this.dataSource,
      `INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
        visits, password_passed, password_failed)
       SELECT id, date, link_id, owner_id, domain_id, link_name, domain_name, '', '', '', visits, password_passed, password_failed
         FROM ${jsonRowsOf(1, PLAIN_COLUMNS, 'i')}
        ORDER BY date, link_id
       ${ADD_TO_STORED_ROW}`,
      [this.countRows(plain, false)],
    );
  }

  /** The JSON rows of both writes, in their columns' order: the row's own id, its keys and names, [UTM values,] counts. */
  private countRows(counts: ClickCounts[], withUtm: boolean): string {
    return jsonRows(
      counts.map((c) => [
        this.ids.next(),
        c.date,
        c.linkId,
        c.ownerId,
        c.domainId,
        clip(c.linkName, 200),
        clip(c.domainName, 253),
        ...(withUtm ? [clip(c.utmSource, 200), clip(c.utmMedium, 200), clip(c.utmCampaign, 200)] : []),
        c.visits,
        c.passwordPassed,
        c.passwordFailed,
      ]),
    );
  }

  /** Rows with UTM values, under the link-day locks (addCounts takes them). */
  private async addTaggedCounts(tagged: ClickCounts[], maxUtmCombinations: number): Promise<void> {
    await sql(
      this.dataSource,
      `WITH incoming AS (
         SELECT * FROM ${jsonRowsOf(1, TAGGED_COLUMNS, 'i')}
       ), classified AS (
         SELECT i.*,
                -- (other) always has its row: no probe for it.
                CASE WHEN i.utm_source = $2 AND i.utm_medium = $2 AND i.utm_campaign = $2 THEN true
                     ELSE EXISTS (SELECT 1 FROM link_daily_stats s WHERE s.date = i.date AND s.link_id = i.link_id
                       AND s.utm_source = i.utm_source AND s.utm_medium = i.utm_medium AND s.utm_campaign = i.utm_campaign) END AS stored
           FROM incoming i
       ), ranked AS (
         SELECT c.*,
                row_number() OVER (PARTITION BY c.date, c.link_id, c.stored
                  ORDER BY c.visits + c.password_passed + c.password_failed DESC, c.utm_source, c.utm_medium, c.utm_campaign) AS rank,
                CASE WHEN c.stored THEN 0 ELSE (SELECT count(*) FROM link_daily_stats s WHERE s.date = c.date AND s.link_id = c.link_id
                  AND NOT (s.utm_source = $2 AND s.utm_medium = $2 AND s.utm_campaign = $2) AND NOT (s.utm_source = '' AND s.utm_medium = ''
                    AND s.utm_campaign = '')) END AS taken
           FROM classified c
       ), folded AS (
         SELECT id, date, link_id, owner_id, domain_id, link_name, domain_name, visits, password_passed, password_failed,
                stored OR taken + rank <= $3 AS fits, utm_source, utm_medium, utm_campaign
           FROM ranked
       )
       INSERT INTO link_daily_stats (id, date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium, utm_campaign,
         visits, password_passed, password_failed)
       SELECT min(id), date, link_id, max(owner_id), max(domain_id), max(link_name), max(domain_name),
              CASE WHEN fits THEN utm_source ELSE $2 END, CASE WHEN fits THEN utm_medium ELSE $2 END, CASE WHEN fits THEN utm_campaign
                ELSE $2 END,
              sum(visits), sum(password_passed), sum(password_failed)
         FROM folded
        GROUP BY date, link_id, CASE WHEN fits THEN utm_source ELSE $2 END, CASE WHEN fits THEN utm_medium ELSE $2 END, CASE WHEN fits
          THEN utm_campaign ELSE $2 END
       ${ADD_TO_STORED_ROW}`,
      [this.countRows(tagged, true), OTHER_UTM, maxUtmCombinations],
    );
  }

  async page(q: StatsQuery, page: PageRequest): Promise<Page<StatsRecord>> {
    const range = rangeOf(q);
    const total = await countOf(this.dataSource, `SELECT count(*) AS n FROM link_daily_stats WHERE ${range.where}`, range.params);
    let rows: StatsRecord[] = [];
    if (page.after) rows = await this.read(after(range, page.after), `ORDER BY ${STATS_ORDER} LIMIT ${page.rows}`);
    else if (total > page.start) rows = await this.read(range, `ORDER BY ${STATS_ORDER} LIMIT ${page.limit} OFFSET ${page.start}`);
    return pageOf(rows, total, page, statsPosition);
  }

  /**
   * Keyset batches: each starts after the last row of the one before, from that row's day on. The index
   * on (owner_id, date) hands the rows over by day, so a batch sorts one day's rows at a time and stops at
   * `batchSize` (an incremental sort): no batch costs more than its rows and a day's, however far into
   * the range it is, and nothing (no cursor, no transaction, no connection) is held between two batches,
   * so a slow reader holds nothing of the database's. Rows written meanwhile may or may not be seen;
   * none is seen twice.
   */
  async *batches(q: StatsQuery, batchSize: number): AsyncIterable<StatsRecord[]> {
    const range = rangeOf(q);
    let last: StatsRecord | undefined;
    for (;;) {
      const rows = await this.read(last ? after(range, statsPosition(last)) : range, `ORDER BY ${STATS_ORDER} LIMIT ${batchSize}`);
      if (rows.length) yield rows;
      if (rows.length < batchSize) return;
      last = rows[rows.length - 1];
    }
  }

  private async read(range: Range, tail: string): Promise<StatsRecord[]> {
    const result = await sql(
      this.dataSource,
      `SELECT id, to_char(date, 'YYYY-MM-DD') AS date, link_id, owner_id, domain_id, link_name, domain_name, utm_source, utm_medium,
        utm_campaign,
              visits, password_passed, password_failed
         FROM link_daily_stats WHERE ${range.where}
        ${tail}`,
      range.params,
    );
    return rowsOf(result, statsRecord);
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    await sql(this.dataSource, 'DELETE FROM link_daily_stats WHERE owner_id = $1', [ownerId]);
    await sql(this.dataSource, 'DELETE FROM link_daily_dimensions WHERE owner_id = $1', [ownerId]);
  }
}
