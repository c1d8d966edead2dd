import { readdirSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

export interface PriorityTaken {
  /** The nice value now in force (the main thread's). */
  nice: number;
  /** Threads given it: on Linux every thread of the process, elsewhere the process as the platform sees it (1). */
  threads: number;
}

/**
 * Lowers this process's scheduling priority to `nice` (19: the lowest). On Linux a nice value belongs to
 * a thread, and `setpriority` on the process id changes only the main thread: V8's and libuv's threads,
 * already started (the garbage collector's helpers among them), would keep theirs. So each thread listed
 * in /proc/self/task is given it; threads started later inherit it from the thread that starts them.
 * Lowering needs no privilege; a value below the present one is left alone (raising would need one).
 */
export function lowerPriority(nice: number, pid = process.pid): PriorityTaken {
  const current = getPriority(pid);
  if (nice <= current) return { nice: current, threads: 0 };
  let tids: number[];
  try {
    tids = readdirSync(`/proc/${pid}/task`)
      .map(Number)
      .filter((tid) => Number.isInteger(tid) && tid > 0);
  } catch {
    tids = [];
  }
  if (tids.length === 0) {
    setPriority(pid, nice);
    return { nice: getPriority(pid), threads: 1 };
  }
  let threads = 0;
  for (const tid of tids) {
    try {
      setPriority(tid, nice);
      threads++;
    } catch {
      // a thread that ended meanwhile
    }
  }
  return { nice: getPriority(pid), threads };
}
