/**
 * The attributes as the counting models see them: a level code per row (-1 when
 * missing). Categorical columns keep their codes (recoded onto the fitted levels at
 * predict time, an unseen level becoming missing); numeric columns are cut at the
 * equal-frequency edges found on the training rows (src/data/transforms/discretize.ts,
 * the same edges as KBinsDiscretizer's "quantile"), unless the model keeps them
 * continuous (naive Bayes' Gaussian and KDE), in which case they are left uncoded.
 *
 * The state part every Bayesian classifier shares (`codedShape`) lives here too,
 * with its structural check: class counts and the class × level counts of each coded attribute.
 */
import { z } from "zod";
import type { ColumnSchema, Frame } from "../../data/frame.js";
import { frameSchema } from "../../data/frame.js";
import { binEdges } from "../../data/transforms/discretize.js";
import { UnusableInputError, type TrainingSet } from "../contract.js";
import { columnsFor, type TreeColumns } from "../tree/tree-columns.js";
import { checkClasses, checkFinite, checkUnique, columnSchema, f64, i32, type Check } from "../state-schemas.js";
import { groupDigits } from "../../data/group-digits.js";

export const codedShape = {
  classes: z.array(z.string()),
  features: z.array(columnSchema),
  /** Per feature: its levels (categorical), its bins (a cut numeric one), or 0 (a numeric one kept continuous). */
  levels: i32,
  /** Interior bin edges of feature j are edges[edge_offset[j] .. edge_offset[j+1]-1] (length d + 1). */
  edge_offset: i32,
  edges: f64,
  alpha: z.number().min(0),
  /** Weighted training rows per class. */
  class_count: f64,
  /** Feature j's K × levels[j] block (class-major) of weighted counts starts at single_offset[j] (length d + 1). */
  single_offset: i32,
  single: f64,
};

export interface CodedState {
  classes: string[];
  features: ColumnSchema[];
  levels: Int32Array<ArrayBuffer>;
  edge_offset: Int32Array<ArrayBuffer>;
  edges: Float64Array<ArrayBuffer>;
  alpha: number;
  class_count: Float64Array<ArrayBuffer>;
  single_offset: Int32Array<ArrayBuffer>;
  single: Float64Array<ArrayBuffer>;
}

/** Attribute codes per feature (null for a continuous numeric one) and the numeric values where kept. */
export interface Coded {
  readonly n: number;
  readonly codes: readonly (Int32Array | null)[];
  readonly values: readonly (Float64Array | null)[];
}

/** Edges for every numeric feature when `bins` is set, none (kept continuous) when it is null. */
export function fitEdges(X: Frame, bins: number | null): { schema: ColumnSchema[]; levels: Int32Array<ArrayBuffer>; edge_offset: Int32Array<ArrayBuffer>; edges: Float64Array<ArrayBuffer> } {
  const schema = frameSchema(X);
  const d = schema.length;
  const levels = new Int32Array(d);
  const edge_offset = new Int32Array(d + 1);
  const parts: Float64Array[] = [];
  for (let j = 0; j < d; j++) {
    const c = X.columns[j];
    let interior = new Float64Array(0);
    if (c.type === "categorical") levels[j] = c.levels.length;
    else if (bins !== null) {
      const all = binEdges(c.values, bins, "quantile");
      interior = all.slice(1, all.length - 1);
      levels[j] = interior.length + 1;
    }
    parts.push(interior);
    edge_offset[j + 1] = edge_offset[j] + interior.length;
  }
  const edges = new Float64Array(edge_offset[d]);
  parts.forEach((p, j) => edges.set(p, edge_offset[j]));
  return { schema, levels, edge_offset, edges };
}

/** Reads X onto the fitted schema: recoded categorical codes, binned or raw numeric values. */
export function codeFrame(s: Pick<CodedState, "features" | "levels" | "edge_offset" | "edges">, X: Frame): Coded {
  const cols: TreeColumns = columnsFor(s.features, X);
  const codes: (Int32Array | null)[] = [];
  const values: (Float64Array | null)[] = [];
  for (let j = 0; j < s.features.length; j++) {
    const num = cols.num[j];
    if (!num) {
      codes.push(cols.cat[j]);
      values.push(null);
    } else if (s.levels[j] === 0) {
      codes.push(null);
      values.push(num);
    } else {
      codes.push(binColumn(num, s.edges.subarray(s.edge_offset[j], s.edge_offset[j + 1])));
      values.push(null);
    }
  }
  return { n: X.rowCount, codes, values };
}

/** Bin = number of interior edges at or below x (binOf's rule); NaN → -1. */
function binColumn(values: Float64Array, interior: Float64Array): Int32Array<ArrayBuffer> {
  const out = new Int32Array(values.length);
  const m = interior.length;
  for (let i = 0; i < values.length; i++) {
    const x = values[i];
    if (x !== x) {
      out[i] = -1;
      continue;
    }
    let lo = 0;
    let hi = m;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (interior[mid] <= x) lo = mid + 1;
      else hi = mid;
    }
    out[i] = lo;
  }
  return out;
}

/** The classification target and weights of a training set, checked. */
export function classTarget(train: TrainingSet, who: string): { y: Int32Array; classes: string[]; w: Float64Array | undefined } {
  const t = train.target;
  if (!t || t.task !== "classification") throw new UnusableInputError(`${who} is a classifier: it needs a categorical target`);
  if (t.classes.length === 0) throw new UnusableInputError(`${who} needs at least one class`);
  return { y: t.y, classes: [...t.classes], w: train.weights };
}

/** Weighted rows per class; refuses a table without positive weight. */
export function countClasses(y: Int32Array, w: Float64Array | undefined, K: number, who: string): Float64Array<ArrayBuffer> {
  const count = new Float64Array(K);
  for (let i = 0; i < y.length; i++) count[y[i]] += w ? w[i] : 1;
  let total = 0;
  for (let k = 0; k < K; k++) total += count[k];
  if (!(total > 0)) throw new UnusableInputError(`${who} needs at least one training row with positive weight`);
  return count;
}

/** Class × level counts of every coded attribute (rows missing the attribute are not counted for it). */
export function countSingles(coded: Coded, levels: Int32Array, y: Int32Array, w: Float64Array | undefined, K: number): { single_offset: Int32Array<ArrayBuffer>; single: Float64Array<ArrayBuffer> } {
  const d = levels.length;
  const single_offset = new Int32Array(d + 1);
  for (let j = 0; j < d; j++) single_offset[j + 1] = single_offset[j] + (coded.codes[j] ? K * levels[j] : 0);
  const single = new Float64Array(single_offset[d]);
  for (let j = 0; j < d; j++) {
    const codes = coded.codes[j];
    if (!codes) continue;
    const off = single_offset[j];
    const L = levels[j];
    for (let i = 0; i < coded.n; i++) {
      const v = codes[i];
      if (v >= 0) single[off + y[i] * L + v] += w ? w[i] : 1;
    }
  }
  return { single_offset, single };
}

/** Offsets (length blocks + 1) and their total from block sizes; refuses tables past `max` entries. */
export function offsetsOf(sizes: ArrayLike<number>, max: number, what: string): Int32Array<ArrayBuffer> {
  const out = new Int32Array(sizes.length + 1);
  let total = 0;
  for (let b = 0; b < sizes.length; b++) {
    total += sizes[b];
    if (total > max) throw new UnusableInputError(`${what} would hold more than ${groupDigits(max)} counts: use fewer bins (n_bins) or attributes with fewer levels`);
    out[b + 1] = total;
  }
  return out;
}

/** Most counts one table may hold (8 bytes each: 1 GiB); the memory estimate refuses such requests before this. */
export const MAX_TABLE_ENTRIES = 2 ** 27;

/** True when `offset` (length blocks + 1) starts at 0, never decreases, has the given block sizes, and ends at `length`. */
export function checkOffsets(offset: Int32Array, sizes: (b: number) => number, blocks: number, length: number, name: string, report: Check): boolean {
  if (offset.length !== blocks + 1 || offset[0] !== 0) {
    report(`${name} must have ${blocks + 1} entries starting at 0`, [name]);
    return false;
  }
  for (let b = 0; b < blocks; b++) {
    if (offset[b + 1] - offset[b] !== sizes(b)) {
      report(`${name}: block ${b} has ${offset[b + 1] - offset[b]} entries where its shape needs ${sizes(b)}`, [name, b]);
      return false;
    }
  }
  if (offset[blocks] !== length) {
    report(`${name} ends at ${offset[blocks]} but the table has ${length} entries`, [name]);
    return false;
  }
  return true;
}

/** Counts are finite and not negative. */
export function checkCounts(a: Float64Array, name: string, report: Check): boolean {
  if (!checkFinite(a, name, report)) return false;
  const i = a.findIndex((v) => v < 0);
  if (i < 0) return true;
  report(`${name}[${i}] is negative`, [name, i]);
  return false;
}

/** The shared part: classes, features, levels, edges, class and single counts agree in shape and are finite. */
export function checkCoded(s: CodedState, report: Check, continuousAllowed: boolean): boolean {
  if (!checkClasses(s.classes, report) || !checkUnique(s.features.map((f) => f.name), "feature", report, ["features"])) return false;
  const d = s.features.length;
  const K = s.classes.length;
  if (s.levels.length !== d) {
    report(`levels has ${s.levels.length} entries for ${d} features`, ["levels"]);
    return false;
  }
  if (!checkOffsets(s.edge_offset, (j) => (s.features[j].type === "numeric" && s.levels[j] > 0 ? s.levels[j] - 1 : 0), d, s.edges.length, "edge_offset", report)) return false;
  for (let j = 0; j < d; j++) {
    const f = s.features[j];
    if (f.type === "categorical" ? s.levels[j] !== f.levels.length : s.levels[j] < (continuousAllowed ? 0 : 1)) {
      report(`levels[${j}] = ${s.levels[j]} does not fit feature ${f.name}`, ["levels", j]);
      return false;
    }
  }
  if (!checkFinite(s.edges, "edges", report)) return false;
  for (let j = 0; j < d; j++) {
    for (let e = s.edge_offset[j] + 1; e < s.edge_offset[j + 1]; e++) {
      if (!(s.edges[e] > s.edges[e - 1])) {
        report(`edges of feature ${j} must increase`, ["edges", e]);
        return false;
      }
    }
  }
  if (s.class_count.length !== K) {
    report(`class_count has ${s.class_count.length} entries for ${K} classes`, ["class_count"]);
    return false;
  }
  const coded = (j: number) => s.features[j].type === "categorical" || s.levels[j] > 0;
  return (
    checkCounts(s.class_count, "class_count", report) &&
    checkOffsets(s.single_offset, (j) => (coded(j) ? K * s.levels[j] : 0), d, s.single.length, "single_offset", report) &&
    checkCounts(s.single, "single", report)
  );
}

/** What every counting model starts from: the target, the edges, the coded training table, class and single counts. */
export function prepare(train: TrainingSet, who: string, bins: number | null) {
  const { y, classes, w } = classTarget(train, who);
  const K = classes.length;
  const cut = fitEdges(train.X, bins);
  const coded = codeFrame({ features: cut.schema, ...cut }, train.X);
  const class_count = countClasses(y, w, K, who);
  const singles = countSingles(coded, cut.levels, y, w, K);
  return { y, w, K, classes, coded, class_count, cut, ...singles };
}

/**
 * log of the smoothed conditional estimate of each cell of a count table made of R
 * groups of L cells: log((N + α) / (Σ_group N + α·L)); by continuity 1/L where a
 * group has no weight and α is 0. −∞ for a zero estimate (α = 0 only).
 */
export function conditionalLogs(counts: Float64Array, offset: number, groups: number, L: number, alpha: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(groups * L);
  for (let g = 0; g < groups; g++) {
    const base = offset + g * L;
    let total = 0;
    for (let v = 0; v < L; v++) total += counts[base + v];
    const denom = total + alpha * L;
    for (let v = 0; v < L; v++) {
      const p = denom > 0 ? (counts[base + v] + alpha) / denom : 1 / L;
      out[g * L + v] = p > 0 ? Math.log(p) : -Infinity;
    }
  }
  return out;
}
