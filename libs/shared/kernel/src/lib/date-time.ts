/** An ISO 8601 date-time with its offset (RFC 3339; seconds may be left out), `T` or `t` between date and time. */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):(\d{2}))$/i;

/** Whether year-month-day names a day of the calendar (2026-02-30 does not). */
export function isCalendarDay(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/**
 * The moment a date-time names, or null when it is not one: the wrong shape, or a day, hour, minute or
 * offset that does not exist. `Date.parse` reads 2026-02-30 as March 2, so the parts are checked first.
 */
export function parseDateTime(value: string): Date | null {
  const parts = DATE_TIME.exec(value);
  if (!parts) return null;
  const [year, month, day, hour, minute, second = '0', offsetHours = '0', offsetMinutes = '0'] = parts.slice(1);
  if (!isCalendarDay(Number(year), Number(month), Number(day))) return null;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59 || Number(offsetHours) > 23 || Number(offsetMinutes) > 59)
    return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}
