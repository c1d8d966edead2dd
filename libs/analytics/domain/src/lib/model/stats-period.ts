import { checkEach, ValidationError } from '@lnk/shared/kernel';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const MAX_STATS_DAYS = 366;

/** A day of the calendar as YYYY-MM-DD (2026-02-30 is none). */
export function checkCalendarDate(value: unknown, field: string): string {
  if (value === undefined) throw ValidationError.field(field, `${field} is required`);
  if (
    typeof value !== 'string' ||
    !DATE.test(value) ||
    Number.isNaN(Date.parse(`${value}T00:00:00Z`)) ||
    new Date(`${value}T00:00:00Z`).toISOString().slice(0, 10) !== value
  ) {
    throw ValidationError.field(field, `${field} must be a date as YYYY-MM-DD`);
  }
  return value;
}

/** Spec 4.8's period: two dates, both required and included, at most MAX_STATS_DAYS days, in order. */
export function checkStatsPeriod(params: { startDate?: string; endDate?: string }): { startDate: string; endDate: string } {
  const [startDate, endDate] = checkEach(
    () => checkCalendarDate(params.startDate, 'startDate'),
    () => checkCalendarDate(params.endDate, 'endDate'),
  );
  const days = (Date.parse(endDate) - Date.parse(startDate)) / 86_400_000;
  if (days < 0) throw ValidationError.field('endDate', 'endDate must not be before startDate');
  if (days + 1 > MAX_STATS_DAYS) throw ValidationError.field('endDate', `the range may span at most ${MAX_STATS_DAYS} days`);
  return { startDate, endDate };
}
