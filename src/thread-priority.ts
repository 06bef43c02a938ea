// Work a caller can wait for, run at a lower priority than the work it waits on: on Linux each
// thread has its own nice value, so a worker thread can step back while the threads that decide
// how long the caller waits keep their cores.

import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';

/** Niceness a thread that steps back adds to its own: the scheduler then gives it about a tenth of a core the others want. */
export const BACKGROUND_NICENESS = 10;

/**
 * Lowers the priority of the calling thread only, by `niceness` from where it was (Linux:
 * /proc/thread-self names it, and setpriority on a thread id sets that thread's). Best effort:
 * where threads have no priority of their own (other systems), or it cannot be set, nothing
 * changes. Returns whether it was set.
 */
export function stepBack(niceness = BACKGROUND_NICENESS): boolean {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    setPriority(tid, Math.min(19, getPriority(tid) + niceness));
    return true;
  } catch {
    return false;
  }
}
