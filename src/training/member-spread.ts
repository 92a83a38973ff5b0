/**
 * FitContext.members on a training worker (models/contract.ts MemberSpread): an ensemble's
 * independent members grown on the job's thread and on idle pool threads at once.
 *
 *   job's worker                         main thread (jobs.ts)              helper tasks
 *   ────────────                         ─────────────────────              ────────────
 *   work → SharedArrayBuffers
 *   "spread" {work, count, next} ──────▶ queue pool.size − 1 helper tasks ─▶ claim i = next++,
 *   claim i = next++ and grow, …                                             grow member i, …
 *   wait for the members helpers  ◀───── forward each helper's members ◀─── return {i, member}
 *   claimed (receiveMessageOnPort)
 *
 * Every member is claimed from one shared counter (Atomics.add), so a helper that only gets a
 * thread after the job's own thread has claimed everything claims nothing and ends at once: the
 * job never waits for a member nobody is growing, whatever the pool is busy with. Members come
 * back by index, so the result is the same wherever each grew. The job's stop flag and memory
 * budget reach the helpers as they reach the job (task-signal.ts); a helper's failure fails the fit.
 */
import { receiveMessageOnPort, type MessagePort } from "node:worker_threads";
import { throwIfAborted, type AbortFlag, type MemberSpread, type MemberWork } from "../models/contract.js";

/** Worker → main: grow members of `work` on other threads too. */
export interface SpreadRequest {
  type: "spread";
  /** Tells this fit's replies from a previous fit's (a task may fit several forests: folds, then the model). */
  id: number;
  work: MemberWork;
  count: number;
  /** The next unclaimed member index, shared by every thread of the spread. */
  next: Int32Array;
}

/** Main → worker: what one helper task grew, or why it failed. */
export type SpreadReply = { type: "members"; id: number; members: { index: number; value: unknown }[] } | { type: "spread-failed"; id: number; message: string };

/** Typed arrays copied into shared memory, so every helper reads the one copy instead of receiving its own. */
function shared<T>(value: T): T {
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const array = value as unknown as Float64Array;
    if (array.buffer instanceof SharedArrayBuffer) return value;
    const Ctor = array.constructor as unknown as new (b: SharedArrayBuffer) => Float64Array;
    const copy = new Ctor(new SharedArrayBuffer(array.byteLength));
    copy.set(array);
    return copy as unknown as T;
  }
  if (Array.isArray(value)) return value.map(shared) as T;
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shared(v)])) as T;
  return value;
}

let spreads = 0;

export function memberSpread(port: MessagePort, signal: AbortFlag): MemberSpread {
  return {
    grow<T>(work: MemberWork, count: number, growHere: (i: number) => T): T[] {
      const id = ++spreads;
      const next = new Int32Array(new SharedArrayBuffer(4));
      port.postMessage({ type: "spread", id, work: shared(work), count, next } satisfies SpreadRequest);
      const out: T[] = new Array(count);
      let have = 0;
      const drain = () => {
        for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) {
          const reply = m.message as SpreadReply;
          if (reply.id !== id) continue;
          if (reply.type === "spread-failed") throw new Error(`a thread growing this model's members failed: ${reply.message}`);
          for (const { index, value } of reply.members) out[index] = value as T;
          have += reply.members.length;
        }
      };
      for (let i = Atomics.add(next, 0, 1); i < count; i = Atomics.add(next, 0, 1)) {
        out[i] = growHere(i);
        have++;
        drain();
      }
      // Every index is claimed: wait for the members helpers are still growing (they cannot be waiting for a thread).
      const nap = new Int32Array(new SharedArrayBuffer(4));
      while (have < count) {
        throwIfAborted(signal);
        drain();
        if (have < count) Atomics.wait(nap, 0, 0, 5);
      }
      return out;
    },
  };
}

/** A helper task's work: claim members from `next` until none is left, grow each. */
export function growClaimed(grow: (i: number) => unknown, count: number, next: Int32Array, signal: AbortFlag): { index: number; value: unknown }[] {
  const members: { index: number; value: unknown }[] = [];
  for (let i = Atomics.add(next, 0, 1); i < count; i = Atomics.add(next, 0, 1)) {
    throwIfAborted(signal);
    members.push({ index: i, value: grow(i) });
  }
  return members;
}
