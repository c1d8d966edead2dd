import { ClickWriteSchedule, Flushable } from './click-write-schedule';

/** A buffer whose writes take `writeMs` of the test's clock each, or fail while `failing` > 0. */
class TimedBuffer implements Flushable {
  size = 0;
  writes: number[] = [];
  writeMs = 5;
  failing = 0;
  constructor(private readonly clock: { t: number }) {}
  async flush(): Promise<void> {
    this.clock.t += this.writeMs;
    this.writes.push(this.clock.t);
    if (this.failing > 0) {
      this.failing--;
      throw new Error('database away');
    }
    this.size = 0;
  }
}

describe('ClickWriteSchedule', () => {
  const clock = { t: 0 };
  let buffer: TimedBuffer;
  let errors: string[];
  let schedule: ClickWriteSchedule;

  beforeEach(() => {
    jest.useFakeTimers();
    clock.t = 0;
    buffer = new TimedBuffer(clock);
    errors = [];
    schedule = new ClickWriteSchedule(buffer, {
      intervalMs: 1_000,
      maxIntervalMs: 10_000,
      onError: (e) => errors.push(e.message),
      now: () => clock.t,
    });
  });

  afterEach(() => {
    schedule.stop();
    jest.useRealTimers();
  });

  /** Advances the timers by `ms` and lets the flush's promise settle. */
  const pass = async (ms: number) => {
    await jest.advanceTimersByTimeAsync(ms);
  };

  it('writes every interval while writes are quick', async () => {
    schedule.start();
    await pass(3_000);
    expect(buffer.writes).toHaveLength(3);
    expect(schedule.nextWaitMs).toBe(1_000);
  });

  // Defends the redirect edge against its own writer: at thousands of links a second, a write every second
  // took more CPU than the redirects; after a slow write the next must wait longer, within the bound that
  // says what a crash may lose.
  it('waits nine times as long as a slow write took, within the bound, and comes back once writes are quick', async () => {
    schedule.start();
    buffer.writeMs = 400;
    await pass(1_000);
    expect(buffer.writes).toHaveLength(1);
    expect(schedule.nextWaitMs).toBe(3_600);
    await pass(3_599);
    expect(buffer.writes).toHaveLength(1);
    buffer.writeMs = 5_000;
    await pass(1);
    expect(buffer.writes).toHaveLength(2);
    expect(schedule.nextWaitMs).toBe(10_000);
    buffer.writeMs = 20;
    await pass(10_000);
    expect(schedule.nextWaitMs).toBe(1_000);
  });

  it('keeps writing on its timer after a failed write, reporting the error', async () => {
    buffer.failing = 1;
    schedule.start();
    await pass(2_000);
    expect(errors).toEqual(['database away']);
    expect(buffer.writes).toHaveLength(2);
  });

  it('stops writing on its timer when stopped', async () => {
    schedule.start();
    await pass(1_000);
    schedule.stop();
    await pass(5_000);
    expect(buffer.writes).toHaveLength(1);
  });

  // Shutdown: nothing lost while the database answers within a few attempts; what is left is said.
  /** A shutdown drain (`attempts` writes at most) of `size` rows while the database fails the next `failing` writes. */
  async function drainAtShutdown(size: number, failing: number, attempts: number): Promise<{ left: number; writes: number }> {
    buffer.size = size;
    buffer.failing = failing;
    const before = buffer.writes.length;
    const drained = schedule.drain(attempts, 10);
    await pass(100);
    return { left: await drained, writes: buffer.writes.length - before };
  }

  it('drains what is left at shutdown, retrying a failed write, and answers the rows it could not write', async () => {
    expect(await drainAtShutdown(3, 2, 5)).toEqual({ left: 0, writes: 3 });
    expect(errors).toEqual(['database away', 'database away']);
    expect(await drainAtShutdown(2, 10, 3)).toEqual({ left: 2, writes: 3 });
  });

  it('answers after one flush when there is nothing to write', async () => {
    await expect(schedule.drain()).resolves.toBe(0);
    expect(buffer.writes).toHaveLength(1);
  });
});
