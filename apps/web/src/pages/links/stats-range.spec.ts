import { bucketLabel, lastDays, rangeProblem } from './stats-range';

describe("the statistics' period", () => {
  it('starts as the last 30 days up to today (UTC), by day', () => {
    expect(lastDays(30, new Date('2026-11-27T22:00:00Z'))).toEqual({ startDate: '2026-10-29', endDate: '2026-11-27', interval: 'day' });
  });

  it('says what is wrong with a period before asking the API (reversed, too long, missing)', () => {
    expect(rangeProblem({ startDate: '2026-01-01', endDate: '2026-12-31', interval: 'day' })).toBeUndefined();
    expect(rangeProblem({ startDate: '2026-02-01', endDate: '2026-01-01', interval: 'day' })).toMatch(/before/);
    expect(rangeProblem({ startDate: '2025-01-01', endDate: '2026-12-31', interval: 'week' })).toMatch(/366/);
    expect(rangeProblem({ startDate: '', endDate: '2026-12-31', interval: 'day' })).toMatch(/Choose/);
  });

  it('labels a week by its Monday, a month by its name', () => {
    expect(bucketLabel('2026-11-23T00:00:00.000Z', 'week')).toMatch(/^Week of /);
    expect(bucketLabel('2026-11-01T00:00:00.000Z', 'month')).not.toMatch(/1,/);
  });
});
