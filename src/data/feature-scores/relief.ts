/**
 * Relief-F (Kononenko 1994; seed 001 §3.2 lists Relief among the filter methods):
 * for each probe row, its k nearest rows of its own class (hits) and of every other
 * class (misses); a feature gains weight where misses differ from the probe and
 * loses it where hits do, misses weighted by their class's prior P(C)/(1 − P(class)).
 *
 * diff of a numeric feature is |a − b| / (max − min), of a categorical one 0 or 1;
 * the distance between rows is the sum of diffs. A missing value is replaced by its
 * expectation given the row's class (Kononenko's rule: 1 − P(b | class(a)) for a
 * categorical feature; E|V − b| / (max − min) with V drawn from the class's values for
 * a numeric one; both missing: the same expectation over both classes).
 *
 * Scores lie in [−1, 1]: higher is more relevant.
 */
import type { Column } from "../frame.js";
import { permutation, type Rng } from "../random.js";

type Diff = (a: number, b: number) => number;

interface FeatureDiff {
  diff: Diff;
  /** Adds this feature's diff from row `probe` to every row into `dist` (the hot loop, specialised when nothing is missing). */
  accumulate(probe: number, dist: Float64Array): void;
}

function numericDiff(x: Float64Array, y: Int32Array, classes: number): FeatureDiff {
  let min = Infinity;
  let max = -Infinity;
  let missing = false;
  for (const v of x) {
    if (Number.isNaN(v)) missing = true;
    else {
      if (v < min) min = v;
      if (v > max) max = v;
    }
  }
  const scale = max > min ? 1 / (max - min) : 0;
  const n = x.length;
  if (!missing) {
    return {
      diff: (a, b) => Math.abs(x[a] - x[b]) * scale,
      accumulate(probe, dist) {
        const v = x[probe];
        for (let j = 0; j < n; j++) dist[j] += Math.abs(v - x[j]) * scale;
      },
    };
  }
  // Per class: the present values, sorted, with prefix sums, for E|V − b|.
  const perClass = Array.from({ length: classes }, (_, c) => {
    const values: number[] = [];
    for (let i = 0; i < n; i++) if (y[i] === c && !Number.isNaN(x[i])) values.push(x[i]);
    return values;
  });
  const everything = perClass.flat();
  const sorted = perClass.map((values) => Float64Array.from(values.length ? values : everything).sort());
  const prefix = sorted.map((s) => {
    const p = new Float64Array(s.length + 1);
    for (let i = 0; i < s.length; i++) p[i + 1] = p[i] + s[i];
    return p;
  });
  const expectedGap = (c: number, b: number): number => {
    const s = sorted[c];
    const p = prefix[c];
    if (s.length === 0) return 0;
    let lo = 0;
    let hi = s.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid] <= b) lo = mid + 1;
      else hi = mid;
    }
    return (b * lo - p[lo] + (p[s.length] - p[lo]) - b * (s.length - lo)) / s.length;
  };
  const bothMissing = new Float64Array(classes * classes).fill(NaN);
  const pairGap = (c1: number, c2: number): number => {
    if (Number.isNaN(bothMissing[c1 * classes + c2])) {
      const s = sorted[c1];
      let sum = 0;
      for (const v of s) sum += expectedGap(c2, v);
      bothMissing[c1 * classes + c2] = s.length ? sum / s.length : 0;
    }
    return bothMissing[c1 * classes + c2];
  };
  const diff: Diff = (a, b) => {
    const va = x[a];
    const vb = x[b];
    const ma = Number.isNaN(va);
    const mb = Number.isNaN(vb);
    if (!ma && !mb) return Math.abs(va - vb) * scale;
    if (ma && mb) return pairGap(y[a], y[b]) * scale;
    return (ma ? expectedGap(y[a], vb) : expectedGap(y[b], va)) * scale;
  };
  return {
    diff,
    accumulate(probe, dist) {
      for (let j = 0; j < n; j++) dist[j] += diff(probe, j);
    },
  };
}

function categoricalDiff(codes: Int32Array, levels: number, y: Int32Array, classes: number): FeatureDiff {
  const n = codes.length;
  let missing = false;
  for (const c of codes) if (c < 0) missing = true;
  if (!missing) {
    return {
      diff: (a, b) => (codes[a] === codes[b] ? 0 : 1),
      accumulate(probe, dist) {
        const v = codes[probe];
        for (let j = 0; j < n; j++) if (codes[j] !== v) dist[j] += 1;
      },
    };
  }
  // P(level | class), falling back to the overall distribution for a class without values.
  const counts = new Float64Array((classes + 1) * levels);
  for (let i = 0; i < n; i++) {
    if (codes[i] < 0) continue;
    counts[y[i] * levels + codes[i]]++;
    counts[classes * levels + codes[i]]++;
  }
  const p = new Float64Array(classes * levels);
  for (let c = 0; c < classes; c++) {
    let total = 0;
    for (let l = 0; l < levels; l++) total += counts[c * levels + l];
    const base = total > 0 ? c : classes;
    let baseTotal = 0;
    for (let l = 0; l < levels; l++) baseTotal += counts[base * levels + l];
    for (let l = 0; l < levels; l++) p[c * levels + l] = baseTotal > 0 ? counts[base * levels + l] / baseTotal : 0;
  }
  const diff: Diff = (a, b) => {
    const va = codes[a];
    const vb = codes[b];
    if (va >= 0 && vb >= 0) return va === vb ? 0 : 1;
    if (va < 0 && vb < 0) {
      let same = 0;
      for (let l = 0; l < levels; l++) same += p[y[a] * levels + l] * p[y[b] * levels + l];
      return 1 - same;
    }
    return va < 0 ? 1 - p[y[a] * levels + vb] : 1 - p[y[b] * levels + va];
  };
  return {
    diff,
    accumulate(probe, dist) {
      for (let j = 0; j < n; j++) dist[j] += diff(probe, j);
    },
  };
}

export interface ReliefOptions {
  /** k: nearest hits and misses per class. */
  readonly neighbours: number;
  /** How many probe rows; null: every row. */
  readonly probes: number | null;
  /** Draws the probes when there are fewer probes than rows. */
  readonly rng: Rng;
}

/** Relief-F weight per column; rows with a missing class are left out. */
export function reliefScores(columns: readonly Column[], y0: Int32Array, classes: number, options: ReliefOptions): Float64Array<ArrayBuffer> {
  const used: number[] = [];
  for (let i = 0; i < y0.length; i++) if (y0[i] >= 0) used.push(i);
  const n = used.length;
  const p = columns.length;
  const weights = new Float64Array(p);
  if (n < 2 || p === 0) return weights;
  const y = Int32Array.from(used, (i) => y0[i]);
  const features = columns.map((c): FeatureDiff =>
    c.type === "numeric" ? numericDiff(Float64Array.from(used, (i) => c.values[i]), y, classes) : categoricalDiff(Int32Array.from(used, (i) => c.codes[i]), c.levels.length, y, classes),
  );
  const prior = new Float64Array(classes);
  for (const c of y) prior[c] += 1 / n;

  const probeRows = options.probes === null || options.probes >= n ? Int32Array.from({ length: n }, (_, i) => i) : permutation(n, options.rng).subarray(0, options.probes).sort();
  const m = probeRows.length;
  const k = options.neighbours;
  const dist = new Float64Array(n);
  // Per class, the k nearest rows so far, ordered by (distance, row).
  const nearest = Array.from({ length: classes }, () => new Int32Array(k));
  const found = new Int32Array(classes);
  for (const r of probeRows) {
    dist.fill(0);
    for (const f of features) f.accumulate(r, dist);
    found.fill(0);
    for (let j = 0; j < n; j++) {
      if (j === r) continue;
      const c = y[j];
      const list = nearest[c];
      let size = found[c];
      if (size === k && dist[list[k - 1]] <= dist[j]) continue;
      if (size < k) size++;
      let at = size - 1;
      while (at > 0 && dist[list[at - 1]] > dist[j]) {
        list[at] = list[at - 1];
        at--;
      }
      list[at] = j;
      found[c] = size;
    }
    const own = y[r];
    for (let c = 0; c < classes; c++) {
      const count = found[c];
      if (count === 0) continue;
      const factor = c === own ? -1 / (count * m) : prior[own] < 1 ? prior[c] / (1 - prior[own]) / (count * m) : 0;
      for (let t = 0; t < count; t++) {
        const j = nearest[c][t];
        for (let f = 0; f < p; f++) weights[f] += factor * features[f].diff(r, j);
      }
    }
  }
  return weights;
}
