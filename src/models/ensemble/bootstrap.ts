/**
 * Seeded draws for the members of an ensemble. Member t's generator is derived from
 * (the fit's seed, t) alone, never from the draws of members before it, so a forest
 * grown in chunks (on several workers) is the forest grown in one loop.
 */
import type { Rng } from "../../data/random.js";
import { createRng } from "../../data/random.js";

/** One number drawn from the fit's generator: every member's stream derives from it. */
export function ensembleSeed(rng: Rng): number {
  return Math.floor(rng.next() * 2 ** 32);
}

/** Member t's generator (splitmix-style mixing, so seeds t and t + 1 give unrelated streams). */
export function memberRng(seed: number, t: number): Rng {
  let z = (seed ^ Math.imul(t + 1, 0x9e3779b9)) >>> 0;
  z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
  z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
  return createRng(((z ^ (z >>> 16)) >>> 0) + t * 2 ** 32);
}

/**
 * How often each of n rows is drawn in m draws with replacement: the bootstrap as
 * weights (a row drawn twice weighs 2), so no copy of the data is made. With
 * `weights`, rows are drawn in proportion to them (a weighted bootstrap).
 */
export function bootstrapCounts(n: number, m: number, rng: Rng, weights?: Float64Array): Float64Array {
  const counts = new Float64Array(n);
  if (!weights) {
    for (let i = 0; i < m; i++) counts[rng.int(n)]++;
    return counts;
  }
  const cdf = cumulative(weights);
  const total = cdf[n - 1];
  for (let i = 0; i < m; i++) counts[search(cdf, rng.next() * total)]++;
  return counts;
}

/** m distinct rows of n, drawn without replacement (partial Fisher–Yates), as 0/1 counts. */
export function subsampleCounts(n: number, m: number, rng: Rng): Float64Array {
  const ids = new Int32Array(n);
  for (let i = 0; i < n; i++) ids[i] = i;
  const counts = new Float64Array(n);
  for (let i = 0; i < m; i++) {
    const j = i + rng.int(n - i);
    const t = ids[i];
    ids[i] = ids[j];
    ids[j] = t;
    counts[ids[i]] = 1;
  }
  return counts;
}

/** k distinct indices of d in increasing order (or, with replacement, k draws, repeats removed). */
export function drawFeatures(d: number, k: number, rng: Rng, withReplacement: boolean): Int32Array<ArrayBuffer> {
  if (k >= d && !withReplacement) return Int32Array.from({ length: d }, (_, j) => j);
  const picked = withReplacement ? bootstrapCounts(d, k, rng) : subsampleCounts(d, Math.min(k, d), rng);
  const out: number[] = [];
  for (let j = 0; j < d; j++) if (picked[j] > 0) out.push(j);
  return Int32Array.from(out);
}

function cumulative(w: Float64Array): Float64Array {
  const c = new Float64Array(w.length);
  let s = 0;
  for (let i = 0; i < w.length; i++) {
    s += w[i] > 0 ? w[i] : 0;
    c[i] = s;
  }
  return c;
}

/** First index whose cumulative weight exceeds u. */
function search(cdf: Float64Array, u: number): number {
  let lo = 0;
  let hi = cdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cdf[mid] > u) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Rows (and their counts) with a positive count, in row order. */
export function inBag(counts: Float64Array): { rows: Int32Array; weights: Float64Array } {
  let m = 0;
  for (let i = 0; i < counts.length; i++) if (counts[i] > 0) m++;
  const rows = new Int32Array(m);
  const weights = new Float64Array(m);
  for (let i = 0, j = 0; i < counts.length; i++) {
    if (counts[i] > 0) {
      rows[j] = i;
      weights[j++] = counts[i];
    }
  }
  return { rows, weights };
}
