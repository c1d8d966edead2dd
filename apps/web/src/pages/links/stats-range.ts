/** The statistics' period: whole UTC days, as the API takes them (`YYYY-MM-DD`, both days included). */
export type Interval = 'day' | 'week' | 'month';

export interface StatsRange {
  startDate: string;
  endDate: string;
  interval: Interval;
}

/** The longest period the API answers (endDate at most 366 days after startDate). */
export const MAX_RANGE_DAYS = 366;

export const dayOf = (date: Date) => date.toISOString().slice(0, 10);

/** The last `days` days up to today (UTC), by day. */
export function lastDays(days: number, now = new Date()): StatsRange {
  const start = new Date(now.getTime() - (days - 1) * 86_400_000);
  return { startDate: dayOf(start), endDate: dayOf(now), interval: 'day' };
}

/** What is wrong with a period before asking (the API says the same, on startDate or endDate), or nothing. */
export function rangeProblem(range: StatsRange): string | undefined {
  const start = Date.parse(`${range.startDate}T00:00:00Z`);
  const end = Date.parse(`${range.endDate}T00:00:00Z`);
  if (Number.isNaN(start) || Number.isNaN(end)) return 'Choose a first and a last day.';
  if (end < start) return 'The last day comes before the first.';
  if ((end - start) / 86_400_000 > MAX_RANGE_DAYS) return `Choose at most ${MAX_RANGE_DAYS} days.`;
  return undefined;
}

/** A bucket's label: its day, its week's Monday, or its month. */
export function bucketLabel(iso: string, interval: Interval): string {
  const date = new Date(iso);
  if (interval === 'month') return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', timeZone: 'UTC' });
  const day = date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
  return interval === 'week' ? `Week of ${day}` : day;
}
