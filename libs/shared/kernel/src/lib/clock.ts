/** The time source of the domain; tests pass a clock they can move. */
export abstract class Clock {
  abstract now(): Date;

  /** Milliseconds since the epoch: what a hot path asks (a clock that can, answers without making a Date). */
  nowMs(): number {
    return this.now().getTime();
  }
}

export class SystemClock extends Clock {
  now(): Date {
    return new Date();
  }

  override nowMs(): number {
    return Date.now();
  }
}
