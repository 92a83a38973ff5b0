/**
 * Node impurities over weighted statistics.
 * Classification statistics are K weighted class counts; regression statistics are
 * the triple (Σw, Σw·y, Σw·y²). Entropy is in bits, as the seeds compute it.
 */
export type ImpurityKind = "entropy" | "gini" | "variance";

export function xlogx(x: number): number {
  return x > 0 ? x * Math.log(x) : 0;
}

export function entropy(counts: Float64Array, off: number, K: number, total: number): number {
  if (!(total > 0)) return 0;
  let s = 0;
  for (let k = 0; k < K; k++) s += xlogx(counts[off + k]);
  return Math.max(0, (Math.log(total) - s / total) * Math.LOG2E);
}

export function gini(counts: Float64Array, off: number, K: number, total: number): number {
  if (!(total > 0)) return 0;
  let sq = 0;
  for (let k = 0; k < K; k++) sq += counts[off + k] * counts[off + k];
  return Math.max(0, 1 - sq / (total * total));
}

/** Weighted variance from (Σw, Σw·y, Σw·y²) at stats[off..off+2]. */
export function variance(stats: Float64Array, off: number): number {
  const w = stats[off];
  if (!(w > 0)) return 0;
  const mean = stats[off + 1] / w;
  return Math.max(0, stats[off + 2] / w - mean * mean);
}

/** Impurity of one statistics vector; `total` is its weight (ignored for variance). */
export function impurityOf(kind: ImpurityKind, stats: Float64Array, off: number, K: number, total: number): number {
  if (kind === "entropy") return entropy(stats, off, K, total);
  if (kind === "gini") return gini(stats, off, K, total);
  return variance(stats, off);
}

/** intrinsicValue of two branches, without an array for them: the same operations in the same order. */
export function intrinsicValue2(a: number, b: number, total: number): number {
  if (!(total > 0)) return 0;
  let iv = 0;
  const ra = a / total;
  if (ra > 0) iv -= ra * Math.log2(ra);
  const rb = b / total;
  if (rb > 0) iv -= rb * Math.log2(rb);
  return iv;
}

/** Split information −Σ r log2 r of branch weights (C4.5's intrinsic value). */
export function intrinsicValue(weights: ArrayLike<number>, count: number, total: number): number {
  if (!(total > 0)) return 0;
  let iv = 0;
  for (let b = 0; b < count; b++) {
    const r = weights[b] / total;
    if (r > 0) iv -= r * Math.log2(r);
  }
  return iv;
}
