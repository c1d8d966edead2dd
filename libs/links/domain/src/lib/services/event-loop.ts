/**
 * Lets whatever else is waiting (other requests, timers, I/O) run before the caller goes on: long CPU
 * work (an import's lines) awaits this between slices, so one request cannot hold the process.
 * setImmediate runs after pending I/O, where a resolved promise would run before it.
 */
export function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
