/**
 * One large predict batch cut into row ranges that separate threads predict, and
 * their outputs joined again. Every algorithm predicts a row from that row alone
 * (its fitted steps and state do not change at predict time), so the joined output
 * equals the whole batch's, bit for bit — test/training/predict-chunks.test.ts holds
 * every registered algorithm to that.
 *
 * Pure: typed-array copies only.
 */
import type { Column, Frame } from "../data/frame.js";
import type { Prediction } from "../models/contract.js";

/** `parts` contiguous [from, to) ranges covering 0..n, sizes differing by at most one (fewer when n is small). */
export function rowRanges(n: number, parts: number): [number, number][] {
  const count = Math.max(1, Math.min(parts, n));
  const ranges: [number, number][] = [];
  for (let p = 0, from = 0; p < count; p++) {
    const to = from + Math.floor(n / count) + (p < n % count ? 1 : 0);
    ranges.push([from, to]);
    from = to;
  }
  return ranges;
}

/** Rows from..to-1 of a frame, in their own buffers (so they can be moved to another thread). */
export function sliceRows(X: Frame, from: number, to: number): Frame {
  const columns = X.columns.map((c): Column => (c.type === "numeric" ? { ...c, values: c.values.slice(from, to) } : { ...c, codes: c.codes.slice(from, to) }));
  return { rowCount: to - from, columns };
}

/** The arrays one after another, in a new array made by `make`. */
function concat<A extends Float64Array | Int32Array>(arrays: readonly A[], make: (length: number) => A): A {
  const out = make(arrays.reduce((n, a) => n + a.length, 0));
  let at = 0;
  for (const a of arrays) {
    out.set(a, at);
    at += a.length;
  }
  return out;
}

const concatFloat = (arrays: readonly Float64Array[]) => concat(arrays, (n) => new Float64Array(n));
const concatInt = (arrays: readonly Int32Array[]) => concat(arrays, (n) => new Int32Array(n));

/** Probabilities join only when every part has them (a model gives them for all rows or none). */
function concatProba(parts: readonly { proba?: Float64Array }[]): { proba?: Float64Array } {
  return parts.every((p) => p.proba) ? { proba: concatFloat(parts.map((p) => p.proba!)) } : {};
}

/** The outputs of consecutive row ranges, in order, as one prediction of all their rows. */
export function concatPredictions(parts: readonly Prediction[]): Prediction {
  if (parts.length === 0) throw new Error("no predictions to join");
  const first = parts[0];
  if (parts.some((p) => p.task !== first.task)) throw new Error("predictions of different tasks cannot be joined");
  // Every part has first's task (checked above); the casts only tell TypeScript so.
  switch (first.task) {
    case "classification":
    case "clustering": {
      const ps = parts as readonly Extract<Prediction, { task: "classification" | "clustering" }>[];
      return { task: first.task, labels: concatInt(ps.map((p) => p.labels)), ...concatProba(ps) };
    }
    case "regression":
      return { task: "regression", values: concatFloat((parts as readonly Extract<Prediction, { task: "regression" }>[]).map((p) => p.values)) };
    case "projection":
      return { task: "projection", dims: first.dims, values: concatFloat((parts as readonly Extract<Prediction, { task: "projection" }>[]).map((p) => p.values)) };
    case "anomaly": {
      const ps = parts as readonly Extract<Prediction, { task: "anomaly" }>[];
      return { task: "anomaly", scores: concatFloat(ps.map((p) => p.scores)), labels: concatInt(ps.map((p) => p.labels)) };
    }
  }
}
