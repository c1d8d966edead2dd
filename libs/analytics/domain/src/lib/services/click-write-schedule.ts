/** What the schedule drives: ClickBuffer's flush() and the rows it holds. */
export interface Flushable {
  flush(): Promise<void>;
  readonly size: number;
}

export interface ClickWriteScheduleOptions {
  /** The wait between two writes when writes are quick (CLICK_FLUSH_INTERVAL). */
  intervalMs: number;
  /** The longest wait, however long writes take (CLICK_FLUSH_MAX_INTERVAL): what a crash may lose at most. */
  maxIntervalMs: number;
  /** Called with the error of a failed write (its rows are kept for the next one). */
  onError: (error: Error) => void;
  /** A monotonic clock in ms (tests give their own). */
  now?: () => number;
}

/**
 * The part of the time the writer may take: after a write that took `d` ms, the next waits `d × (1 / share
 * - 1)`, within [interval, max interval]. At 10%, a write of 400 ms (thousands of links clicked since the
 * last) is followed by 3.6 s of waiting, in which each link's clicks add up in one row instead of four.
 */
const WRITE_SHARE = 0.1;

/**
 * When buffered clicks are written: every `intervalMs` while writes are quick, less often when they are
 * not. A write's rows grow with the links clicked since the last one (each link's clicks fold into one
 * daily row, one total and one row per dimension value), not with the clicks; on a busy server with many
 * links, writing every second cost the database more CPU than the redirects themselves (issue 13's
 * benchmark). Stretching the wait after a slow write keeps the writer to about a tenth of the time, and
 * the wait to the bound that says what a crash (kill -9) may lose. Writes never overlap (ClickBuffer
 * serialises them; the next wait starts when a write ends).
 */
export class ClickWriteSchedule {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;
  private readonly now: () => number;
  /** The wait before the next write, after the last write (for tests and /metrics). */
  nextWaitMs: number;

  constructor(
    private readonly buffer: Flushable,
    private readonly options: ClickWriteScheduleOptions,
  ) {
    this.now = options.now ?? (() => performance.now());
    this.nextWaitMs = options.intervalMs;
  }

  start(): void {
    this.stopped = false;
    this.schedule(this.options.intervalMs);
  }

  /** No further write on the timer (the one under way, if any, finishes). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** The wait after a write that took `writeMs`. */
  waitAfter(writeMs: number): number {
    const { intervalMs, maxIntervalMs } = this.options;
    return Math.min(maxIntervalMs, Math.max(intervalMs, Math.round(writeMs * (1 / WRITE_SHARE - 1))));
  }

  /**
   * Writes everything left (at shutdown, after the timer is stopped), retrying a failed write up to
   * `attempts` times with a growing pause. Returns the rows that could not be written (0 when all were).
   */
  async drain(attempts = 5, pauseMs = 200): Promise<number> {
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        // Always once, whatever `size` says: a write under way when the shutdown began holds its rows
        // outside `size`, and flush() waits for it (then writes what it left, should it fail). Skipping it
        // closed the database under that write, and its batch (a second or more of clicks) was lost.
        await this.buffer.flush();
        if (this.buffer.size === 0) return 0;
      } catch (error) {
        this.options.onError(error as Error);
        if (attempt < attempts) await new Promise((resolve) => setTimeout(resolve, pauseMs * attempt));
      }
    }
    return this.buffer.size;
  }

  private schedule(waitMs: number): void {
    if (this.stopped) return;
    this.nextWaitMs = waitMs;
    this.timer = setTimeout(() => void this.tick(), waitMs);
    // A timer alone does not keep the process alive: shutdown drains what is left.
    (this.timer as { unref?: () => void }).unref?.();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    const startedAt = this.now();
    try {
      await this.buffer.flush();
    } catch (error) {
      this.options.onError(error as Error);
    }
    this.schedule(this.waitAfter(this.now() - startedAt));
  }
}
