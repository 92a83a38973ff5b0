/**
 * A job's stop request in shared memory. A fit runs synchronously on a worker
 * thread, so neither a MessagePort message nor the main thread's AbortSignal can
 * reach it before it returns; both threads read and write this one Int32Array
 * (over a SharedArrayBuffer) instead. The first reason written wins.
 */
export const STOP_REASONS = ["cancelled", "timeout", "shutdown", "memory"] as const;
export type StopReason = (typeof STOP_REASONS)[number];

export function createStopFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
}

/** True when this call set the flag (it was not set before). */
export function requestStop(flag: Int32Array, reason: StopReason): boolean {
  return Atomics.compareExchange(flag, 0, 0, STOP_REASONS.indexOf(reason) + 1) === 0;
}

export function stopReason(flag: Int32Array): StopReason | null {
  const value = Atomics.load(flag, 0);
  return value === 0 ? null : STOP_REASONS[value - 1];
}
