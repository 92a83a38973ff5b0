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
  for (let j = 0; j < d; j++) {
    const c = frame.columns[j];
    if (c.type !== "numeric") throw new UnusableInputError(`column ${c.name} is categorical; this learner takes numeric features only`);
    const v = c.values;
    for (let i = 0; i < n; i++) {
      const x = v[i];
      if (Number.isNaN(x)) throw new UnusableInputError(`column ${c.name} has missing values; impute them first`);
      out[i * d + j] = x;
    }
  }
  return out;
}

/** The model's feature names from its training frame, checked numeric. */
export function numericFeatureNames(frame: Frame): string[] {
  return frame.columns.map((c) => {
    if (c.type !== "numeric") throw new UnusableInputError(`column ${c.name} is categorical; this learner takes numeric features only`);
    return c.name;
  });
}
