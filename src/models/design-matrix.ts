/**
 * Frame → row-major Float64Array, the layout the kernel and network loops want
 * (one row's features contiguous). Numeric, complete columns only: the pipeline
 * encodes and imputes in front of learners that declare accepts.categorical/missing false,
 * so anything else here is a wiring error worth a clear message.
 */
import type { Frame } from "../data/frame.js";
import { UnusableInputError } from "./contract.js";

export function rowMajor(frame: Frame): Float64Array {
  const n = frame.rowCount;
  const d = frame.columns.length;
  const out = new Float64Array(n * d);
  const values = frame.columns.map((c) => {
    if (c.type !== "numeric") throw new UnusableInputError(`column ${c.name} is categorical; this learner takes numeric features only`);
    return c.values;
  });
  // A tile of rows at a time, every column into it: the tile of the output stays in cache (column by column over the
  // whole output wrote each of its cache lines once per column).
  let missing = false;
  for (let start = 0; start < n; start += ROW_TILE) {
    const end = Math.min(n, start + ROW_TILE);
    for (let j = 0; j < d; j++) {
      const v = values[j];
      for (let i = start; i < end; i++) {
        const x = v[i];
        if (x !== x) missing = true;
        out[i * d + j] = x;
      }
    }
    if (missing) break;
  }
  if (missing) throwIfMissing(frame);
  return out;
}

/** Throws for the first numeric column (in column order) holding a missing value (NaN). */
export function throwIfMissing(frame: Frame): void {
  for (const c of frame.columns) if (c.type === "numeric" && c.values.some(Number.isNaN)) throw new UnusableInputError(`column ${c.name} has missing values; impute them first`);
}

/** Rows per tile of rowMajor: 512 rows of 20 features are 80 KiB of output. */
const ROW_TILE = 512;

/** The model's feature names from its training frame, checked numeric. */
export function numericFeatureNames(frame: Frame): string[] {
  return frame.columns.map((c) => {
    if (c.type !== "numeric") throw new UnusableInputError(`column ${c.name} is categorical; this learner takes numeric features only`);
    return c.name;
  });
}
