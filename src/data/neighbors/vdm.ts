/**
 * Value Difference Metric for unordered (categorical) attributes, and HVDM for
 * tables that mix them with numeric ones — seed 002's distance section ("ordered
 * attributes: Minkowski; unordered: VDM"), in the book's form:
 *
 *   VDM_p(a, b) = Σ_c | m_{u,a,c} / m_{u,a} − m_{u,b,c} / m_{u,b} |^p
 *
 * where m_{u,a} counts training rows whose attribute u is a and m_{u,a,c} those of
 * them in class c. Two levels are close when they predict the classes alike, so
 * the metric is fitted: it keeps those class-conditional frequencies.
 *
 *   vdm:  ( Σ_categorical VDM_p )^{1/p}
 *   hvdm: ( Σ_numeric (|x − y| / 4σ_u)^p + Σ_categorical VDM_p )^{1/p}
 *
 * hvdm with p = 2 is Wilson & Martinez's HVDM (1997): numeric differences over four
 * training standard deviations, so that they fall mostly in [0, 1] like a VDM term
 * (a constant column contributes nothing). A missing value (NaN, code −1, or a
 * level never seen in training) contributes 1 for its attribute, their rule.
 *
 * Rows are row-major Float64Arrays holding a categorical attribute as its level
 * code. The trees cannot bound these metrics: indexes over them use brute force.
 */
import type { RowMetric } from "./metric.js";

export interface VdmTables {
  readonly kind: "vdm" | "hvdm";
  readonly p: number;
  readonly classes: number;
  /** Per column: its level count, or −1 for a numeric column. */
  readonly levels: Int32Array<ArrayBuffer>;
  /** Per column: where its levels × classes block of P(class | level) starts in `probs` (−1 for numeric). */
  readonly offsets: Int32Array<ArrayBuffer>;
  readonly probs: Float64Array<ArrayBuffer>;
  /** Per column: 4σ of a numeric column over the training rows (0 for categorical or constant columns). */
  readonly spread: Float64Array<ArrayBuffer>;
}

/** Counts the class-conditional level frequencies (and numeric spreads) of training rows X (n × d) with class indices y. */
export function fitVdm(kind: "vdm" | "hvdm", p: number, X: Float64Array, n: number, d: number, levels: Int32Array<ArrayBuffer>, y: Int32Array, classes: number): VdmTables {
  const offsets = new Int32Array(d).fill(-1);
  let size = 0;
  for (let j = 0; j < d; j++) {
    if (levels[j] < 0) continue;
    offsets[j] = size;
    size += levels[j] * classes;
  }
  const probs = new Float64Array(size);
  const spread = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    if (levels[j] < 0) {
      spread[j] = 4 * standardDeviation(X, n, d, j);
      continue;
    }
    const off = offsets[j];
    const L = levels[j];
    const totals = new Float64Array(L);
    for (let i = 0; i < n; i++) {
      const a = X[i * d + j];
      if (!(a >= 0 && a < L)) continue;
      probs[off + a * classes + y[i]]++;
      totals[a]++;
    }
    for (let a = 0; a < L; a++) if (totals[a] > 0) for (let c = 0; c < classes; c++) probs[off + a * classes + c] /= totals[a];
  }
  return { kind, p, classes, levels, offsets, probs, spread };
}

function standardDeviation(X: Float64Array, n: number, d: number, j: number): number {
  let count = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const v = X[i * d + j];
    if (v === v) {
      count++;
      sum += v;
    }
  }
  if (count < 2) return 0;
  const mean = sum / count;
  let ss = 0;
  for (let i = 0; i < n; i++) {
    const v = X[i * d + j];
    if (v === v) ss += (v - mean) * (v - mean);
  }
  // Sample standard deviation, as Wilson & Martinez's σ.
  return Math.sqrt(ss / (count - 1));
}

/** The fitted metric as a RowMetric (p is null: brute force only). */
export function vdmMetric(t: VdmTables): RowMetric {
  const { p, classes, levels, offsets, probs, spread } = t;
  const powered = p === 1 ? (v: number) => v : p === 2 ? (v: number) => v * v : (v: number) => v ** p;
  return {
    name: t.kind,
    p: null,
    reduced(a, ai, b, bi, d) {
      const oa = ai * d;
      const ob = bi * d;
      let s = 0;
      for (let j = 0; j < d; j++) {
        const x = a[oa + j];
        const y = b[ob + j];
        const L = levels[j];
        if (L < 0) {
          if (x !== x || y !== y) s += 1;
          else if (spread[j] > 0) s += powered(Math.abs(x - y) / spread[j]);
          continue;
        }
        if (!(x >= 0 && x < L && y >= 0 && y < L)) {
          s += 1;
          continue;
        }
        if (x === y) continue;
        const px = offsets[j] + x * classes;
        const py = offsets[j] + y * classes;
        for (let c = 0; c < classes; c++) s += powered(Math.abs(probs[px + c] - probs[py + c]));
      }
      return s;
    },
    toDistance: (r) => (p === 1 ? r : p === 2 ? Math.sqrt(r) : r ** (1 / p)),
    toReduced: (v) => (p === 1 ? v : p === 2 ? v * v : v ** p),
  };
}
