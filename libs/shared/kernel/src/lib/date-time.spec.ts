import { isCalendarDay, parseDateTime } from './date-time';

describe('parseDateTime', () => {
  it('reads a date-time with its offset, seconds and fractions optional', () => {
    expect(parseDateTime('2030-01-31T12:00:00Z')?.toISOString()).toBe('2030-01-31T12:00:00.000Z');
    expect(parseDateTime('2030-01-31T12:00+02:00')?.toISOString()).toBe('2030-01-31T10:00:00.000Z');
    expect(parseDateTime('2028-02-29t23:59:59.123456z')?.toISOString()).toBe('2028-02-29T23:59:59.123Z');
  });

  // Date.parse rolls 2026-02-30 over to March 2: a request asking for an impossible day must be refused, not moved.
  it('refuses days, times and offsets that do not exist, and other shapes', () => {
    for (const value of [
      '2026-02-30T00:00:00Z',
      '2027-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T12:60:00Z',
      '2026-01-01T12:00:00+24:00',
      '2026-01-01',
      '2026-01-01T12:00:00',
      'tomorrow',
    ]) {
      expect([value, parseDateTime(value)]).toEqual([value, null]);
    }
  });

  it('knows the length of each month, leap years included', () => {
    expect([
      isCalendarDay(2028, 2, 29),
      isCalendarDay(2100, 2, 29),
      isCalendarDay(2000, 2, 29),
      isCalendarDay(2026, 12, 31),
      isCalendarDay(2026, 11, 31),
    ]).toEqual([true, false, true, true, false]);
  });
});
