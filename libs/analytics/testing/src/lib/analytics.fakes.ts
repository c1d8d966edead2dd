import {
  ClickCounts,
  ClickDimensions,
  DimensionCounts,
  DIRECT_REFERRER,
  isBoundedValue,
  MAX_DIMENSION_VALUES_PER_LINK_DAY,
  OTHER_VALUE,
  StatsQuery,
  StatsRecord,
  statsPosition,
  StatsRepository,
  UNKNOWN_VALUE,
  VisitorTraits,
} from '@lnk/analytics/domain';
import { Keyset, Page, pageOf, PageRequest, parseUrl } from '@lnk/shared/kernel';

/**
 * Dimensions from tables the test gives: a User-Agent's device, browser and OS, an address's country;
 * the referrer is the Referer's host, as the real adapter reads it. Counts its calls, so a test can see
 * what the derivation was asked, and answers a new object each time (a caller cannot change the tables).
 */
/** The adapter's order of two positions (day, link name, UTM source, medium, campaign, id; ids as the fake's numbers). */
function compareKeys(a: Keyset, b: Keyset): number {
  for (let i = 0; i < a.length; i++) {
    const [x, y] = i === a.length - 1 ? [a[i].padStart(24, '0'), b[i].padStart(24, '0')] : [a[i], b[i]];
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

export class FakeClickDimensions extends ClickDimensions {
  calls = 0;

  constructor(
    private readonly agents: Record<string, Pick<VisitorTraits, 'device' | 'browser' | 'os'>> = {},
    private readonly countries: Record<string, string> = {},
  ) {
    super();
  }

  traitsOf(userAgent: string | undefined, ip: string, referer: string | undefined): VisitorTraits {
    this.calls++;
    const agent = (userAgent && this.agents[userAgent]) || { device: UNKNOWN_VALUE, browser: UNKNOWN_VALUE, os: UNKNOWN_VALUE };
    const referrer = !referer ? DIRECT_REFERRER : parseUrl(referer)?.hostname || UNKNOWN_VALUE;
    return { referrer, country: this.countries[ip] ?? UNKNOWN_VALUE, ...agent };
  }
}

const rollupKeyOf = (c: ClickCounts) => [c.date, c.linkId, c.utmSource, c.utmMedium, c.utmCampaign].join('\u0000');
const dimensionKeyOf = (c: Pick<DimensionCounts, 'date' | 'linkId' | 'dimension' | 'value'>) =>
  [c.date, c.linkId, c.dimension, c.value].join('\u0000');

/**
 * Statistics in memory, copied on write and on read as the table's rows would be. The UTM bound is the
 * adapter's business and not repeated here (the rollups are added as they come); the dimension bound is:
 * a (date, link) takes at most `maxDimensionValues` bounded values (isBoundedValue) of an open dimension.
 */
export class MemoryStatsRepository extends StatsRepository {
  private readonly rows = new Map<string, StatsRecord>();
  private readonly dimensionRows = new Map<string, DimensionCounts>();
  /** Makes the next N writes fail before changing anything, as an unreachable database would. */
  failNext = 0;
  private nextId = 0;

  async addCounts(
    counts: ClickCounts[],
    _maxUtmCombinations: number,
    dimensions: DimensionCounts[] = [],
    maxDimensionValues = MAX_DIMENSION_VALUES_PER_LINK_DAY,
  ): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error('database unreachable');
    }
    for (const c of counts) {
      const stored = this.rows.get(rollupKeyOf(c));
      const row: StatsRecord = stored
        ? {
            ...stored,
            visits: stored.visits + c.visits,
            passwordPassed: stored.passwordPassed + c.passwordPassed,
            passwordFailed: stored.passwordFailed + c.passwordFailed,
            linkName: c.linkName,
            domainName: c.domainName,
          }
        : { ...c, id: String(++this.nextId) };
      this.rows.set(rollupKeyOf(c), row);
    }
    for (const d of dimensions) {
      const taken = [...this.dimensionRows.values()].filter(
        (s) => s.date === d.date && s.linkId === d.linkId && s.dimension === d.dimension && isBoundedValue(s.dimension, s.value),
      ).length;
      const fits = !isBoundedValue(d.dimension, d.value) || this.dimensionRows.has(dimensionKeyOf(d)) || taken < maxDimensionValues;
      const key = dimensionKeyOf({ ...d, value: fits ? d.value : OTHER_VALUE });
      const stored = this.dimensionRows.get(key);
      this.dimensionRows.set(key, stored ? { ...stored, visits: stored.visits + d.visits } : { ...d, value: fits ? d.value : OTHER_VALUE });
    }
  }

  /** The rows of the range in the adapter's order (day, link name, UTM source, medium, campaign, id), copied. */
  private rowsOf(q: StatsQuery): StatsRecord[] {
    const needle = q.q?.toLowerCase();
    return [...this.rows.values()]
      .filter((r) => r.ownerId === q.ownerId && r.date >= q.startDate && r.date <= q.endDate)
      .filter(
        (r) => !needle || [r.linkName, r.domainName, r.utmSource, r.utmMedium, r.utmCampaign].some((v) => v.toLowerCase().includes(needle)),
      )
      .sort((a, b) => compareKeys(statsPosition(a), statsPosition(b)))
      .map((r) => ({ ...r }));
  }

  async page(q: StatsQuery, page: PageRequest): Promise<Page<StatsRecord>> {
    const rows = this.rowsOf(q);
    const after = page.after;
    const from = after ? rows.filter((r) => compareKeys(statsPosition(r), after) > 0) : rows.slice(page.start);
    return pageOf(from.slice(0, page.rows), rows.length, page, statsPosition);
  }

  async *batches(q: StatsQuery, batchSize: number): AsyncIterable<StatsRecord[]> {
    const rows = this.rowsOf(q);
    for (let i = 0; i < rows.length; i += batchSize) yield rows.slice(i, i + batchSize);
  }

  /** The stored dimension rows, copied (for tests). */
  dimensionCounts(): DimensionCounts[] {
    return [...this.dimensionRows.values()].map((d) => ({ ...d }));
  }

  async deleteAllOfOwner(ownerId: string): Promise<void> {
    for (const [key, r] of this.rows) if (r.ownerId === ownerId) this.rows.delete(key);
    for (const [key, d] of this.dimensionRows) if (d.ownerId === ownerId) this.dimensionRows.delete(key);
  }
}
