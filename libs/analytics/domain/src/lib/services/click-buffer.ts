import {
  ClickCounts,
  hasNoUtm,
  isOutsideUtmBounds,
  MAX_UTM_COMBINATIONS_PER_LINK_DAY,
  normaliseUtm,
  OTHER_UTM,
  rollupKey,
} from '../model/click';
import { MAX_DIMENSION_VALUES_PER_LINK_DAY } from '../model/click-dimension';
import { LinkDayDimensions } from './link-day-dimensions';
import { UnitOfWork } from '@lnk/shared/kernel';
import { ClickToCount } from '../model/click-to-count';
import { ClickDimensions } from '../ports/click-dimensions.port';
import { ClickEvents, ClickSeries } from '../ports/click-events.port';
import { VisitorTraits } from '../model/click-dimension';
import { ClickMetrics } from '../ports/click-metrics.port';
import { LinkClickTotals } from '../ports/link-click-totals.port';
import { StatsRepository } from '../ports/stats.repository';

export interface ClickBufferOptions {
  /** Most distinct rollup rows held while the database cannot take them; beyond, new events are dropped. */
  maxRows: number;
  /** Most link.clicked events (for webhooks) held unwritten; beyond, new ones are dropped and counted. */
  maxEvents: number;
  /** Events held that start a write at once, without waiting for the schedule. */
  eventsPerWrite: number;
  /**
   * Most rows one account holds with their own UTM values: beyond, that account's new combinations are
   * counted in its links' `(other)` rows, so a flood from one account cannot fill the buffer for others.
   */
  maxRowsPerOwner: number;
  /** Most distinct UTM combinations per (link, UTC day) held; further ones are counted under `(other)`. */
  maxUtmCombinations: number;
  /** Most distinct values per (link, UTC day) of an open dimension held; further ones are counted under `(other)`. */
  maxDimensionValues: number;
  /** Whether a visit's dimensions (referrer host, country, device, ...) are derived and counted (CLICK_DIMENSIONS). */
  dimensions: boolean;
}

/** A pending rollup row, with the dimension counts of its (date, link), which the rows of its UTM values share. */
interface PendingRow extends ClickCounts {
  dimensions: LinkDayDimensions;
}

const DAY_MS = 86_400_000;

/** Whether a visit is of a series' kind: its moment aside, the same event (mostly the same strings, compared by reference). */
function sameKind(
  series: ClickSeries,
  event: ClickToCount,
  traits: VisitorTraits,
  utmSource: string,
  utmMedium: string,
  utmCampaign: string,
): boolean {
  const k = series.kind;
  return (
    k.linkId === event.linkId &&
    k.ownerId === event.ownerId &&
    k.domainId === event.domainId &&
    k.trigger === event.trigger &&
    k.referrer === traits.referrer &&
    k.country === traits.country &&
    k.device === traits.device &&
    k.browser === traits.browser &&
    k.os === traits.os &&
    k.utmSource === utmSource &&
    k.utmMedium === utmMedium &&
    k.utmCampaign === utmCampaign
  );
}

/** A pending row: a copy of the counts with its (date, link)'s dimensions, built field by field (a spread made slow objects). */
const pendingRow = (c: ClickCounts, dimensions: LinkDayDimensions): PendingRow => ({
  date: c.date,
  linkId: c.linkId,
  ownerId: c.ownerId,
  domainId: c.domainId,
  linkName: c.linkName,
  domainName: c.domainName,
  utmSource: c.utmSource,
  utmMedium: c.utmMedium,
  utmCampaign: c.utmCampaign,
  visits: c.visits,
  passwordPassed: c.passwordPassed,
  passwordFailed: c.passwordFailed,
  dimensions,
});

/** A pending row's counts, without its dimensions (built field by field: a rest pattern copies slowly). */
const countsOf = (r: PendingRow): ClickCounts => ({
  date: r.date,
  linkId: r.linkId,
  ownerId: r.ownerId,
  domainId: r.domainId,
  linkName: r.linkName,
  domainName: r.domainName,
  utmSource: r.utmSource,
  utmMedium: r.utmMedium,
  utmCampaign: r.utmCampaign,
  visits: r.visits,
  passwordPassed: r.passwordPassed,
  passwordFailed: r.passwordFailed,
});

const DEFAULTS: ClickBufferOptions = {
  maxRows: 100_000,
  maxEvents: 500_000,
  eventsPerWrite: 20_000,
  maxRowsPerOwner: 10_000,
  maxUtmCombinations: MAX_UTM_COMBINATIONS_PER_LINK_DAY,
  maxDimensionValues: MAX_DIMENSION_VALUES_PER_LINK_DAY,
  dimensions: true,
};

/** What a click buffer counts into and reports to: given once by the composition. */
export interface ClickBufferParts {
  stats: StatsRepository;
  totals: LinkClickTotals;
  unitOfWork: UnitOfWork;
  metrics: ClickMetrics;
  dimensions: ClickDimensions;
  options?: Partial<ClickBufferOptions>;
  clickEvents?: ClickEvents | null;
}

/**
 * Counts clicks off the request's critical path: events are folded into in-memory rollup rows and
 * written in batches by `flush()` (called on a timer and at shutdown). A failed write keeps the rows
 * for the next flush, so nothing is lost while the database is briefly away, up to `maxRows`.
 *
 * UTM values come from anonymous visitors: they are normalised (`normaliseUtm`), and each (link, day)
 * and each account gets a bounded number of combinations; what goes beyond is counted, under `(other)`.
 * The repository applies the per-(link, day) bound again against the rows already written.
 *
 * A visit's dimensions (referrer host, country, device, browser, OS, trigger) are derived here, through
 * the ClickDimensions port, and only the derived values are kept: one count per (day, link, dimension,
 * value), bounded per (day, link, dimension) the same way. The raw referer, User-Agent and address go no
 * further than this call.
 */
export class ClickBuffer {
  private pending = new Map<string, PendingRow>();
  /**
   * The dimension counts of each (date, link) pending, by date then link id: the link id strings come from
   * the redirect cache's entries, their hashes already computed; no key is built per new row.
   */
  private dimensionsPerDay = new Map<string, Map<string, LinkDayDimensions>>();
  /** Rows of `pending` per owner, and combinations (other than `(other)`) per (date, link). */
  private rowsPerOwner = new Map<string, number>();
  private combinationsPerLinkDay = new Map<string, number>();
  private flushing: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private readonly options: ClickBufferOptions;
  /**
   * The counted visits of owners `clickEvents` wants, written with the counts: as series of one kind each
   * (a moment per visit, no object), found through the last one used (a hot link's next click) or by key.
   */
  private pendingEvents: ClickSeries[] = [];
  private seriesByKind = new Map<string, ClickSeries>();
  private lastSeries: ClickSeries | null = null;
  private eventsHeld = 0;
  /** Events dropped since the last write began: reported then, once (not a log line per click). */
  private eventsDropped = 0;

  private readonly clickEvents: ClickEvents | null;

  constructor(private readonly deps: ClickBufferParts) {
    this.clickEvents = deps.clickEvents ?? null;
    this.options = { ...DEFAULTS, ...deps.options };
  }

  get size(): number {
    return this.pending.size;
  }

  record(event: ClickToCount): void {
    const date = this.dateOf(event.at);
    const utmSource = normaliseUtm(event.utmSource);
    const utmMedium = normaliseUtm(event.utmMedium);
    const utmCampaign = normaliseUtm(event.utmCampaign);
    // The usual case, a visit to a row already pending: one key, one map lookup, an increment.
    if (event.kind === 'visit') {
      const row = this.pending.get(rollupKey({ date, linkId: event.linkId, utmSource, utmMedium, utmCampaign }));
      if (row) {
        row.visits += 1;
        this.visited(row, event, utmSource, utmMedium, utmCampaign);
        return;
      }
    }
    const row = this.absorb({
      date,
      linkId: event.linkId,
      ownerId: event.ownerId,
      domainId: event.domainId,
      linkName: event.linkName,
      domainName: event.domainName,
      utmSource,
      utmMedium,
      utmCampaign,
      visits: event.kind === 'visit' ? 1 : 0,
      passwordPassed: event.kind === 'passwordPassed' ? 1 : 0,
      passwordFailed: event.kind === 'passwordFailed' ? 1 : 0,
    });
    if (row && event.kind === 'visit') this.visited(row, event, utmSource, utmMedium, utmCampaign);
  }

  /** A counted visit's dimensions (derived once) go to its row's counts and, if its owner's events are wanted, to its event. */
  private visited(row: PendingRow, event: ClickToCount, utmSource: string, utmMedium: string, utmCampaign: string): void {
    const wanted = this.clickEvents !== null && this.clickEvents.wants(event.ownerId);
    if (!this.options.dimensions && !wanted) return;
    const traits = this.deps.dimensions.traitsOf(event.userAgent, event.ip, event.referer);
    if (this.options.dimensions) row.dimensions.add(traits, event.trigger, 1);
    if (wanted) this.keepEvent(event, traits, utmSource, utmMedium, utmCampaign);
  }

  /**
   * A counted visit's event, with its derived dimensions only. A write is started as soon as
   * `eventsPerWrite` are held (the schedule may otherwise wait up to CLICK_FLUSH_MAX_INTERVAL, some hundreds
   * of thousands of clicks under load); beyond `maxEvents` unwritten (the database away), an event is
   * dropped and counted (ClickMetrics.eventsDropped), its click still counted.
   */
  private keepEvent(event: ClickToCount, traits: VisitorTraits, utmSource: string, utmMedium: string, utmCampaign: string): void {
    if (this.eventsHeld >= this.options.maxEvents) {
      this.eventsDropped++;
      return;
    }
    const at = event.at.getTime();
    const last = this.lastSeries;
    if (last !== null && sameKind(last, event, traits, utmSource, utmMedium, utmCampaign)) last.ats.push(at);
    else {
      const key =
        `${event.ownerId}\u0001${event.linkId}\u0001${event.domainId}\u0001${event.trigger}\u0001` +
        `${traits.referrer}\u0001${traits.country}\u0001${traits.device}\u0001${traits.browser}` +
        `\u0001${traits.os}\u0001${utmSource}\u0001${utmMedium}\u0001${utmCampaign}`;
      let series = this.seriesByKind.get(key);
      if (series === undefined) {
        series = {
          kind: {
            linkId: event.linkId,
            ownerId: event.ownerId,
            domainId: event.domainId,
            trigger: event.trigger,
            referrer: traits.referrer,
            country: traits.country,
            device: traits.device,
            browser: traits.browser,
            os: traits.os,
            utmSource,
            utmMedium,
            utmCampaign,
          },
          ats: [],
        };
        this.seriesByKind.set(key, series);
        this.pendingEvents.push(series);
      }
      series.ats.push(at);
      this.lastSeries = series;
    }
    this.eventsHeld++;
    if (this.eventsHeld >= this.options.eventsPerWrite && !this.flushing) {
      // Rows and events held are kept on a failure, and the schedule's next write tries again.
      this.flush().catch(() => undefined);
    }
  }

  /** The UTC date (YYYY-MM-DD) of a moment; the current day's string is kept, not formatted per click. */
  private dayStart = 0;
  private dayEnd = 0;
  private day = '';

  private dateOf(at: Date): string {
    const ms = at.getTime();
    if (ms >= this.dayStart && ms < this.dayEnd) return this.day;
    this.dayStart = ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);
    this.dayEnd = this.dayStart + DAY_MS;
    this.day = new Date(this.dayStart).toISOString().slice(0, 10);
    return this.day;
  }

  /**
   * Writes what is buffered, one write at a time. A call made while a write is under way waits for it and
   * then for a write of what arrived since (callers made meanwhile share that one): whoever awaits flush()
   * finds every click recorded before the call written. Rejects (keeping the rows) if its write fails.
   */
  flush(): Promise<void> {
    if (this.flushing) {
      this.queued ??= this.flushing
        .catch(() => undefined)
        .then(() => {
          this.queued = null;
          return this.flush();
        });
      return this.queued;
    }
    this.flushing = this.write().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private hasRoomFor(ownerId: string, date: string, linkId: string): boolean {
    return (
      (this.rowsPerOwner.get(ownerId) ?? 0) < this.options.maxRowsPerOwner &&
      (this.combinationsPerLinkDay.get(`${date}\u0000${linkId}`) ?? 0) < this.options.maxUtmCombinations
    );
  }

  /**
   * Adds counts to their row: a new combination beyond the bounds goes to `(other)`; a new row beyond
   * `maxRows` is dropped. Returns the row the counts went to, or null when they were dropped.
   */
  private absorb(counts: ClickCounts): PendingRow | null {
    let key = rollupKey(counts);
    let row = this.pending.get(key);
    if (!row && !isOutsideUtmBounds(counts) && !this.hasRoomFor(counts.ownerId, counts.date, counts.linkId)) {
      counts = { ...counts, utmSource: OTHER_UTM, utmMedium: OTHER_UTM, utmCampaign: OTHER_UTM };
      key = rollupKey(counts);
      row = this.pending.get(key);
    }
    if (row) {
      row.visits += counts.visits;
      row.passwordPassed += counts.passwordPassed;
      row.passwordFailed += counts.passwordFailed;
      return row;
    }
    if (this.pending.size < this.options.maxRows) return this.add(key, counts);
    this.deps.metrics.dropped(counts.visits + counts.passwordPassed + counts.passwordFailed);
    return null;
  }

  /** A new pending row (a copy of `counts`), joined to its (date, link)'s dimension counts. */
  private add(key: string, counts: ClickCounts): PendingRow {
    let day = this.dimensionsPerDay.get(counts.date);
    if (!day) this.dimensionsPerDay.set(counts.date, (day = new Map()));
    let dimensions = day.get(counts.linkId);
    if (!dimensions) {
      dimensions = new LinkDayDimensions(
        { date: counts.date, linkId: counts.linkId, ownerId: counts.ownerId, domainId: counts.domainId },
        this.options.maxDimensionValues,
      );
      day.set(counts.linkId, dimensions);
    }
    const row = pendingRow(counts, dimensions);
    this.pending.set(key, row);
    // Rows without UTM values are bounded by the account's links, not by what visitors send: no share.
    if (!hasNoUtm(row)) this.rowsPerOwner.set(row.ownerId, (this.rowsPerOwner.get(row.ownerId) ?? 0) + 1);
    if (!isOutsideUtmBounds(row)) {
      const linkDay = `${row.date}\u0000${row.linkId}`;
      this.combinationsPerLinkDay.set(linkDay, (this.combinationsPerLinkDay.get(linkDay) ?? 0) + 1);
    }
    return row;
  }

  private allDimensions(): LinkDayDimensions[] {
    return [...this.dimensionsPerDay.values()].flatMap((day) => [...day.values()]);
  }

  private reset(): void {
    this.pending = new Map();
    this.dimensionsPerDay = new Map();
    this.rowsPerOwner = new Map();
    this.combinationsPerLinkDay = new Map();
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0 && this.eventsHeld === 0) return;
    const batch = this.pending;
    const batchDimensions = this.allDimensions();
    const events = this.pendingEvents;
    const eventsHeld = this.eventsHeld;
    this.pendingEvents = [];
    this.seriesByKind = new Map();
    this.lastSeries = null;
    this.eventsHeld = 0;
    if (this.eventsDropped) {
      this.deps.metrics.eventsDropped(this.eventsDropped);
      this.eventsDropped = 0;
    }
    this.reset();
    try {
      const rows = [...batch.values()].map(countsOf);
      const dimensions = batchDimensions.flatMap((d) => d.rows());
      const visits = new Map<string, number>();
      for (const row of rows) if (row.visits) visits.set(row.linkId, (visits.get(row.linkId) ?? 0) + row.visits);
      // Rollups, dimension rollups and link totals move together, so they never disagree.
      await this.deps.unitOfWork.run(async () => {
        await this.deps.stats.addCounts(rows, this.options.maxUtmCombinations, dimensions, this.options.maxDimensionValues);
        await this.deps.totals.addVisits(visits);
        if (events.length && this.clickEvents) await this.clickEvents.record(events);
      });
      this.deps.metrics.written(rows.reduce((n, r) => n + r.visits + r.passwordPassed + r.passwordFailed, 0));
    } catch (error) {
      // Put the batch back in front of what arrived meanwhile, merging rows with the same key.
      const arrived = [...this.pending.values()];
      const arrivedDimensions = this.allDimensions();
      this.reset();
      for (const [key, row] of batch) this.add(key, row);
      for (const row of arrived) this.absorb(row);
      // Dimension counts of rows dropped above go too: only what has its row is kept.
      for (const counts of [...batchDimensions, ...arrivedDimensions])
        this.dimensionsPerDay.get(counts.row.date)?.get(counts.row.linkId)?.addAll(counts);
      // Series that arrived meanwhile stay as they are: a kind in two series is written as both.
      this.pendingEvents = events.concat(this.pendingEvents);
      this.eventsHeld += eventsHeld;
      throw error;
    }
  }
}
