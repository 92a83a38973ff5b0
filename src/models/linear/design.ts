/**
 * Numeric feature columns as the linear models read them. The pipeline one-hot
 * encodes and imputes in front of these models, so a categorical column or a
 * NaN here is a wiring error reported as unusable input, never silently coerced.
 */
import type { Frame } from "../../data/frame.js";
import { featureRows, featureValues, isIndicatorColumn, isRegisteredIndicator, type FeatureColumn } from "../../data/indicator-columns.js";
import { UnusableInputError } from "../contract.js";

export interface Design {
  readonly n: number;
  readonly p: number;
  readonly names: string[];
  /** Every column's cells (one_hot's written on first read of this field). */
  readonly columns: Float64Array[];
  /** The same columns, one_hot's left unwritten: for the solvers that read those from their codes. */
  readonly sources: readonly FeatureColumn[];
}

export function numericDesign(X: Frame, algorithm: string): Design {
  const sources = X.columns.map((c): FeatureColumn => {
    if (c.type !== "numeric") throw new UnusableInputError(`${algorithm} takes numeric features only; ${c.name} is categorical (one-hot encode it)`);
    // one_hot's columns are 0/1 by construction: no need to write or read their n cells per level.
    if (isIndicatorColumn(c)) return c;
    const values = c.values;
    if (!isRegisteredIndicator(values) && hasNaN(values)) throw new UnusableInputError(`${algorithm} cannot take missing values; ${c.name} has some (impute them)`);
    return values;
  });
  if (sources.length === 0) throw new UnusableInputError(`${algorithm} needs at least one feature`);
  if (X.rowCount === 0) throw new UnusableInputError(`${algorithm} needs at least one row`);
  let columns: Float64Array[] | null = null;
  return {
    n: X.rowCount,
    p: sources.length,
    names: X.columns.map((c) => c.name),
    sources,
    get columns() {
      return (columns ??= sources.map(featureValues));
    },
  };
}

/** A scan of its own (monomorphic, the array hoisted) runs at memory speed, twice as fast as inline in the map callback. */
function hasNaN(values: Float64Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] !== values[i]) return true;
  return false;
}

/** The columns a fitted model was trained on, by name, in its order. */
export function fittedColumns(X: Frame, features: readonly string[], algorithm: string): Float64Array[] {
  return fittedSources(X, features, algorithm).map(featureValues);
}

/** fittedColumns with one_hot's columns left unwritten, for linearScores. */
export function fittedSources(X: Frame, features: readonly string[], algorithm: string): FeatureColumn[] {
  // By name through a map: hundreds of one-hot columns would make a find per feature quadratic.
  const byName = new Map(X.columns.map((col) => [col.name, col]));
  return features.map((name) => {
    const c = byName.get(name);
    if (!c) throw new UnusableInputError(`${algorithm}: missing feature ${name}`);
    if (c.type !== "numeric") throw new UnusableInputError(`${algorithm}: feature ${name} must be numeric`);
    return isIndicatorColumn(c) ? c : c.values;
  });
}

export interface Moments {
  /** Weighted mean per column. */
  readonly mean: Float64Array<ArrayBuffer>;
  /** Weighted population standard deviation per column (0 for a constant column). */
  readonly std: Float64Array<ArrayBuffer>;
  /** Σ weights (n when unweighted). */
  readonly total: number;
}

export function moments(columns: readonly FeatureColumn[], n: number, weights?: Float64Array): Moments {
  const p = columns.length;
  const mean = new Float64Array(p);
  const std = new Float64Array(p);
  let total = n;
  if (weights) {
    total = 0;
    for (let i = 0; i < n; i++) total += weights[i];
  }
  // One pass of sums shifted by each column's first value, which keeps Σ(x − k)² free of
  // the cancellation the raw Σx² would suffer for columns far from zero. Two columns a
  // pass: four independent chains of adds instead of two (each column's sums are still
  // taken in row order, so the same doubles), about 1.6 times as fast.
  const finish = (j: number, k: number, s1: number, s2: number): void => {
    const m1 = s1 / total;
    mean[j] = k + m1;
    std[j] = Math.sqrt(Math.max(0, s2 / total - m1 * m1));
  };
  // one_hot's 0/1 columns (unweighted) from their counts: every term c_i − k is 0, 1 or −1, so
  // both sums are integers the loops below would also reach exactly, whatever their order.
  const scanned: number[] = [];
  for (let c = 0; c < p; c++) {
    const ones = weights ? null : featureRows(columns[c]);
    if (!ones) {
      scanned.push(c);
      continue;
    }
    // The first cell, from the rows of 1s (ascending).
    const k = n > 0 && ones.length > 0 && ones[0] === 0 ? 1 : 0;
    const differing = k === 0 ? ones.length : n - ones.length;
    finish(c, k, k === 0 ? differing : -differing, differing);
  }
  let q = 0;
  for (; q + 1 < scanned.length; q += 2) {
    const ja = scanned[q];
    const jb = scanned[q + 1];
    const a = featureValues(columns[ja]);
    const b = featureValues(columns[jb]);
    const ka = n > 0 ? a[0] : 0;
    const kb = n > 0 ? b[0] : 0;
    let a1 = 0;
    let a2 = 0;
    let b1 = 0;
    let b2 = 0;
    if (weights) {
      for (let i = 0; i < n; i++) {
        const w = weights[i];
        const da = a[i] - ka;
        const wa = w * da;
        a1 += wa;
        a2 += wa * da;
        const db = b[i] - kb;
        const wb = w * db;
        b1 += wb;
        b2 += wb * db;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const da = a[i] - ka;
        a1 += da;
        a2 += da * da;
        const db = b[i] - kb;
        b1 += db;
        b2 += db * db;
      }
    }
    finish(ja, ka, a1, a2);
    finish(jb, kb, b1, b2);
  }
  if (q < scanned.length) {
    const j = scanned[q];
    const c = featureValues(columns[j]);
    const k = n > 0 ? c[0] : 0;
    let s1 = 0;
    let s2 = 0;
    if (weights) {
      for (let i = 0; i < n; i++) {
        const d = c[i] - k;
        const wd = weights[i] * d;
        s1 += wd;
        s2 += wd * d;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const d = c[i] - k;
        s1 += d;
        s2 += d * d;
      }
    }
    finish(j, k, s1, s2);
  }
  return { mean, std, total };
}

export function weightedMean(values: Float64Array, weights?: Float64Array): number {
  let s = 0;
  let t = 0;
  for (let i = 0; i < values.length; i++) {
    const w = weights ? weights[i] : 1;
    s += w * values[i];
    t += w;
  }
  return s / t;
}

/** A scale usable as a divisor: constant columns keep 1. */
export function safeScale(std: Float64Array): Float64Array {
  return std.map((s) => (s > 0 && Number.isFinite(s) ? s : 1));
}

export function checkWeights(weights: Float64Array | undefined, n: number, algorithm: string): void {
  if (!weights) return;
  if (weights.length !== n) throw new UnusableInputError(`${algorithm}: ${weights.length} weights for ${n} rows`);
  let total = 0;
  for (let i = 0; i < n; i++) {
    if (!(weights[i] >= 0) || !Number.isFinite(weights[i])) throw new UnusableInputError(`${algorithm}: sample weights must be finite and non-negative`);
    total += weights[i];
  }
  if (!(total > 0)) throw new UnusableInputError(`${algorithm}: sample weights sum to zero`);
}
