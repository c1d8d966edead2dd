import { Clock } from '@lnk/shared/kernel';

/** A clock that stands still until a test moves it. */
export class FixedClock extends Clock {
  constructor(private current: Date = new Date('2026-01-01T00:00:00.000Z')) {
    super();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(milliseconds: number): void {
    this.current = new Date(this.current.getTime() + milliseconds);
  }
}

/** A clock that reads `now()` each time it is asked (a test's own variable, moved as the test goes). */
export function clockReading(now: () => Date): Clock {
  return new (class extends Clock {
    now(): Date {
      return now();
    }
  })();
}
