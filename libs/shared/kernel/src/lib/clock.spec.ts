import { Clock, SystemClock } from './clock';

// nowMs is what hot paths ask (EventSubscribers.wants, per counted click): it must tell the clock's time.
describe('Clock.nowMs', () => {
  it("is the time of a test clock's now(), as it is moved", () => {
    const clock = new (class extends Clock {
      at = new Date('2026-05-01T10:00:00.123Z');
      now(): Date {
        return new Date(this.at);
      }
    })();
    expect(clock.nowMs()).toBe(Date.parse('2026-05-01T10:00:00.123Z'));
    clock.at = new Date('2027-01-01T00:00:00Z');
    expect(clock.nowMs()).toBe(Date.parse('2027-01-01T00:00:00Z'));
  });

  it('is the system time for SystemClock', () => {
    const before = Date.now();
    const ms = new SystemClock().nowMs();
    expect(ms).toBeGreaterThanOrEqual(before);
    expect(ms).toBeLessThanOrEqual(Date.now());
  });
});
