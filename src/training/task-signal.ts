/**
 * The `ctx.signal` a worker gives every fit: reads the job's shared stop flag and,
 * at most every MEMORY_CHECK_MS, this thread's memory against the job's budget.
 *
 * Measured on Node 20 (piscina, two threads, 200 MB of typed arrays held by the main
 * thread, 50 MB allocated in thread 1): process.memoryUsage() in a worker reports its
 * own isolate only (thread 1: arrayBuffers 10 KB → 52 MB; thread 2: 10 KB; main:
 * 210 MB), so heapUsed + external is this job's memory (external includes array
 * buffers, which resourceLimits does not bound). One call costs about 7 µs; rss is
 * process-wide and useless here. Native memory outside V8 (SQLite's page cache) and
 * garbage not yet collected are not told apart, so the figure errs on the high side.
 */
import type { AbortFlag } from "../models/contract.js";
import { requestStop, stopReason } from "./stop-flag.js";

const MEMORY_CHECK_MS = 25;
const MB = 1024 * 1024;

/** The job passed its memory budget; the main thread turns it into `memory_limit_exceeded`. */
export class MemoryLimitError extends Error {
  constructor(usedBytes: number, budgetMb: number) {
    super(`the job used ${Math.round(usedBytes / MB)} MiB, over its budget of ${budgetMb} MiB`);
    this.name = "MemoryLimitError";
  }
}

/** Cancelled, timed out or shut down: the main thread already knows which and why. */
export class JobStoppedError extends Error {
  constructor(reason: string) {
    super(`the job was stopped (${reason})`);
    this.name = "JobStoppedError";
  }
}

export function jobMemoryBytes(): number {
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

export function taskSignal(flag: Int32Array, budgetMb: number): AbortFlag {
  let nextCheck = 0;
  let usedAtStop = 0;
  return {
    get aborted() {
      if (Atomics.load(flag, 0) !== 0) return true;
      const now = performance.now();
      if (now < nextCheck) return false;
      nextCheck = now + MEMORY_CHECK_MS;
      const used = jobMemoryBytes();
      if (used <= budgetMb * MB) return false;
      usedAtStop = used;
      requestStop(flag, "memory");
      return true;
    },
    get reason() {
      const reason = stopReason(flag);
      return reason === "memory" ? new MemoryLimitError(usedAtStop || jobMemoryBytes(), budgetMb) : new JobStoppedError(reason ?? "not stopped");
    },
  };
}
