/**
 * The `ctx.signal` a worker gives every fit: reads the job's shared stop flag and,
 * at most every MEMORY_CHECK_MS, this thread's memory against the job's budget.
 *
 * Measured on Node 20.20 (piscina, two threads, 200 MB of typed arrays held by the
 * main thread, 50 MB allocated in thread 1): process.memoryUsage() in a worker reports
 * its own isolate only (arrayBuffers: thread 1 10 KB → 52 MB, thread 2 10 KB, main
 * 210 MB), so heapUsed + arrayBuffers is this job's memory, typed arrays included
 * (resourceLimits bounds only the heap). One call costs about 7 µs; rss is
 * process-wide and useless here. `external` lags behind freed buffers by a GC, so it
 * is not used. Native memory outside V8 (SQLite's page cache) is not counted.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { AbortFlag } from "../models/contract.js";
import { requestStop, stopReason } from "./stop-flag.js";

const MEMORY_CHECK_MS = 25;
/** After a collection was needed to stay under budget, the job is near it: check less often than a full GC costs. */
const AFTER_COLLECTION_MS = 250;
/** Freed array buffers are released by a background sweeper shortly after a GC. */
const SWEEP_WAIT_MS = 50;
const MB = 1024 * 1024;

/**
 * A full collection before declaring a job over budget: garbage of the thread's previous
 * job (or of this one) still counts until collected (seen: 80 MB of a failed job's
 * one-hot columns at the start of the next). The same technique as jest-leak-detector;
 * the flag only exposes `gc` to contexts created after it.
 */
let collector: (() => void) | null = null;
function collectGarbage(): void {
  if (!collector) {
    setFlagsFromString("--expose-gc");
    collector = runInNewContext("gc") as () => void;
  }
  collector();
}

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
  return usage.heapUsed + usage.arrayBuffers;
}

const pause = new Int32Array(new SharedArrayBuffer(4));

/** Collects, then gives the sweeper up to SWEEP_WAIT_MS to release buffers; the fit is synchronous, so this thread sleeps. */
function usageAfterCollection(budgetBytes: number): number {
  collectGarbage();
  let used = jobMemoryBytes();
  for (let waited = 0; used > budgetBytes && waited < SWEEP_WAIT_MS; waited += 5) {
    Atomics.wait(pause, 0, 0, 5);
    used = jobMemoryBytes();
  }
  return used;
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
      if (jobMemoryBytes() <= budgetMb * MB) return false;
      const used = usageAfterCollection(budgetMb * MB);
      nextCheck = performance.now() + AFTER_COLLECTION_MS;
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
