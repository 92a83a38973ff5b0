/**
 * External clustering indices (seed 002 "性能度量 → 外部指标"): a clustering λ compared
 * with a reference λ* through the four pair counts
 *   a = |SS| same cluster in λ and in λ*,   b = |SD| same in λ, different in λ*,
 *   c = |DS| different in λ, same in λ*,    d = |DD| different in both,
 * over unordered pairs i < j, so a + b + c + d = m(m − 1)/2.
 * Arguments run (reference, labels) like scikit-learn's (labels_true, labels_pred).
 * Labels are arbitrary integers; −1 (DBSCAN noise) is one more cluster, as in scikit-learn.
 */
import { checkSameLength } from "../wire.js";

export interface PairCounts {
  a: number;
  b: number;
  c: number;
  d: number;
}

export interface ExternalIndices {
  jaccard: number;
  fowlkes_mallows: number;
  rand_index: number;
  adjusted_rand_index: number;
  normalized_mutual_info: number;
}

export function pairCounts(reference: ArrayLike<number>, labels: ArrayLike<number>): PairCounts {
  checkSameLength("labels", reference.length, labels);
  const m = reference.length;
  const refIndex = denseIndex(reference);
  const labIndex = denseIndex(labels);
  const nRef = refIndex.count;
  const cells = new Map<number, number>();
  const refSizes = new Float64Array(nRef);
  const labSizes = new Float64Array(labIndex.count);
  for (let i = 0; i < m; i++) {
    const r = refIndex.codes[i];
    const l = labIndex.codes[i];
    refSizes[r]++;
    labSizes[l]++;
    const key = l * nRef + r;
    cells.set(key, (cells.get(key) ?? 0) + 1);
  }
  let a = 0;
  for (const n of cells.values()) a += pairsOf(n);
  let sameInLabels = 0;
  for (const n of labSizes) sameInLabels += pairsOf(n);
  let sameInReference = 0;
  for (const n of refSizes) sameInReference += pairsOf(n);
  const b = sameInLabels - a;
  const c = sameInReference - a;
  return { a, b, c, d: pairsOf(m) - a - b - c };
}

/** JC = a/(a+b+c); 0 when no pair is together in either clustering (a = 0). */
export function jaccardIndex(p: PairCounts): number {
  return p.a === 0 ? 0 : p.a / (p.a + p.b + p.c);
}

/** FMI = sqrt(a/(a+b) · a/(a+c)); 0 when a = 0, as scikit-learn's fowlkes_mallows_score. */
export function fowlkesMallowsIndex(p: PairCounts): number {
  return p.a === 0 ? 0 : p.a / Math.sqrt((p.a + p.b) * (p.a + p.c));
}

/** RI = 2(a+d)/(m(m−1)); 1 when there are no pairs, as scikit-learn's rand_score. */
export function randIndex(p: PairCounts): number {
  const total = p.a + p.b + p.c + p.d;
  return total === 0 ? 1 : (p.a + p.d) / total;
}

/** Hubert–Arabie adjusted Rand index in scikit-learn 1.2's pair-count form. */
export function adjustedRandIndex(p: PairCounts): number {
  if (p.b === 0 && p.c === 0) return 1;
  return (2 * (p.a * p.d - p.b * p.c)) / ((p.a + p.c) * (p.c + p.d) + (p.a + p.b) * (p.b + p.d));
}

export function externalIndices(reference: ArrayLike<number>, labels: ArrayLike<number>): ExternalIndices & { pair_counts: PairCounts } {
  const p = pairCounts(reference, labels);
  return {
    jaccard: jaccardIndex(p),
    fowlkes_mallows: fowlkesMallowsIndex(p),
    rand_index: randIndex(p),
    adjusted_rand_index: adjustedRandIndex(p),
    normalized_mutual_info: normalizedMutualInfo(reference, labels),
    pair_counts: p,
  };
}

/**
 * Normalised mutual information as scikit-learn's normalized_mutual_info_score with its
 * default arithmetic mean: I(λ*; λ) / ((H(λ*) + H(λ)) / 2), natural logarithms. Two
 * labellings that are each a single cluster agree perfectly (1), as in scikit-learn.
 */
export function normalizedMutualInfo(reference: ArrayLike<number>, labels: ArrayLike<number>): number {
  checkSameLength("labels", reference.length, labels);
  const m = reference.length;
  const ref = denseIndex(reference);
  const lab = denseIndex(labels);
  if (ref.count === lab.count && ref.count <= 1) return 1;
  const joint = new Map<number, number>();
  for (let i = 0; i < m; i++) {
    const key = ref.codes[i] * lab.count + lab.codes[i];
    joint.set(key, (joint.get(key) ?? 0) + 1);
  }
  const refSizes = counts(ref);
  const labSizes = counts(lab);
  let mi = 0;
  for (const [key, nij] of joint) {
    const i = Math.floor(key / lab.count);
    const j = key % lab.count;
    mi += (nij / m) * Math.log((m * nij) / (refSizes[i] * labSizes[j]));
  }
  const entropy = (sizes: Float64Array) => sizes.reduce((h, s) => (s > 0 ? h - (s / m) * Math.log(s / m) : h), 0);
  const mean = (entropy(refSizes) + entropy(labSizes)) / 2;
  // scikit-learn clips tiny negative rounding of I to 0, and divides by max(mean, eps).
  return Math.max(mi, 0) / Math.max(mean, Number.EPSILON);
}

function counts(index: { codes: Int32Array; count: number }): Float64Array {
  const sizes = new Float64Array(index.count);
  for (const c of index.codes) sizes[c]++;
  return sizes;
}

function pairsOf(n: number): number {
  return (n * (n - 1)) / 2;
}

function denseIndex(values: ArrayLike<number>): { codes: Int32Array; count: number } {
  const map = new Map<number, number>();
  const codes = new Int32Array(values.length);
  for (let i = 0; i < values.length; i++) {
    let code = map.get(values[i]);
    if (code === undefined) {
      code = map.size;
      map.set(values[i], code);
    }
    codes[i] = code;
  }
  return { codes, count: map.size };
}
