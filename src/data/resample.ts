/**
 * Class rebalancing of training rows (seed 002 "数据平衡"; seed 001 §2.6):
 *
 * - `undersample`: every class above n_min / ratio rows keeps that many, drawn at
 *   random without replacement (imbalanced-learn's RandomUnderSampler);
 * - `oversample`: every class below ratio · n_max rows gets random copies of its
 *   own rows up to that many (RandomOverSampler);
 * - `smote`: the same counts, reached with synthetic rows x_i + u·(x_j − x_i) where
 *   x_j is one of x_i's k nearest neighbours of the same class (Euclidean over the
 *   numeric columns) and u ~ U[0, 1) (Chawla et al. 2002, as SMOTE in
 *   imbalanced-learn). Categorical cells are copied from x_i. A class of a single
 *   row has no neighbour, so it is copied instead.
 *
 * `ratio` is minority / majority after resampling (imbalanced-learn's float
 * sampling_strategy), applied to every class. Rows come out as the kept original
 * rows in their order, then the new rows class by class.
 */
import { DataError } from "./errors.js";
import { takeRows, type Column, type Frame } from "./frame.js";
import { permutation, type Rng } from "./random.js";

export type ResampleMethod = "undersample" | "oversample" | "smote";

export interface ResampleOptions {
  readonly method: ResampleMethod;
  readonly ratio: number;
  /** smote: neighbours to interpolate towards. */
  readonly neighbours: number;
  readonly rng: Rng;
}

export interface Resampled {
  readonly frame: Frame;
  readonly y: Int32Array;
  /** The training row each output row comes from (for a synthetic row, the one it starts from). */
  readonly source: Int32Array;
}

function classRows(y: Int32Array, classes: number): Int32Array[] {
  const lists: number[][] = Array.from({ length: classes }, () => []);
  for (let i = 0; i < y.length; i++) if (y[i] >= 0) lists[y[i]].push(i);
  return lists.map((l) => Int32Array.from(l));
}

/** Target row count per class. */
export function resampledCounts(counts: readonly number[], method: ResampleMethod, ratio: number): number[] {
  const present = counts.filter((c) => c > 0);
  if (present.length === 0) return [...counts];
  if (method === "undersample") {
    const cap = Math.floor(Math.min(...present) / ratio);
    return counts.map((c) => Math.min(c, cap));
  }
  const floor = Math.floor(ratio * Math.max(...present));
  return counts.map((c) => (c > 0 ? Math.max(c, floor) : 0));
}

export function resample(frame: Frame, y: Int32Array, classes: number, options: ResampleOptions): Resampled {
  const groups = classRows(y, classes);
  const wanted = resampledCounts(
    groups.map((g) => g.length),
    options.method,
    options.ratio,
  );
  const { rng } = options;
  if (options.method === "undersample") {
    const keep = new Uint8Array(y.length);
    groups.forEach((rows, c) => {
      const order = permutation(rows.length, rng);
      for (let t = 0; t < wanted[c]; t++) keep[rows[order[t]]] = 1;
    });
    const kept: number[] = [];
    for (let i = 0; i < keep.length; i++) if (keep[i] === 1) kept.push(i);
    const source = Int32Array.from(kept);
    return { frame: takeRows(frame, source), y: Int32Array.from(source, (i) => y[i]), source };
  }

  const source: number[] = [];
  for (let i = 0; i < y.length; i++) if (y[i] >= 0) source.push(i);
  const partner: number[] = [];
  const gap: number[] = [];
  const numeric = frame.columns.filter((c): c is Extract<Column, { type: "numeric" }> => c.type === "numeric");
  groups.forEach((rows, c) => {
    const extra = wanted[c] - rows.length;
    if (extra <= 0) return;
    const k = options.method === "smote" ? Math.min(options.neighbours, rows.length - 1) : 0;
    if (k === 0) {
      for (let t = 0; t < extra; t++) source.push(rows[rng.int(rows.length)]);
      return;
    }
    const neighbours = nearestWithin(rows, numeric, k);
    for (let t = 0; t < extra; t++) {
      const pick = rng.int(rows.length * k);
      const i = Math.floor(pick / k);
      source.push(rows[i]);
      partner[source.length - 1] = neighbours[i * k + (pick % k)];
      gap[source.length - 1] = rng.next();
    }
  });
  const sourceRows = Int32Array.from(source);
  const base = takeRows(frame, sourceRows);
  if (partner.length === 0) return { frame: base, y: Int32Array.from(sourceRows, (i) => y[i]), source: sourceRows };
  const columns = base.columns.map((col): Column => {
    if (col.type !== "numeric") return col;
    const original = (frame.columns.find((c) => c.name === col.name) as Extract<Column, { type: "numeric" }>).values;
    const values = col.values;
    for (let r = 0; r < sourceRows.length; r++) {
      const j = partner[r];
      if (j === undefined) continue;
      const from = original[sourceRows[r]];
      values[r] = from + gap[r] * (original[j] - from);
    }
    return col;
  });
  return { frame: { rowCount: base.rowCount, columns }, y: Int32Array.from(sourceRows, (i) => y[i]), source: sourceRows };
}

/** For each of `rows`, its k nearest other rows of the list (row indices, nearest first; ties by position). */
function nearestWithin(rows: Int32Array, numeric: readonly Extract<Column, { type: "numeric" }>[], k: number): Int32Array {
  const m = rows.length;
  const p = numeric.length;
  const X = new Float64Array(m * p);
  for (let f = 0; f < p; f++) {
    const v = numeric[f].values;
    for (let a = 0; a < m; a++) {
      const x = v[rows[a]];
      if (Number.isNaN(x)) throw new DataError(`smote interpolates numeric columns, and "${numeric[f].name}" has missing values; put an impute step first`, "method");
      X[a * p + f] = x;
    }
  }
  const out = new Int32Array(m * k);
  const bestD = new Float64Array(k);
  const bestI = new Int32Array(k);
  for (let a = 0; a < m; a++) {
    let size = 0;
    for (let b = 0; b < m; b++) {
      if (b === a) continue;
      let d = 0;
      for (let f = 0; f < p; f++) {
        const t = X[a * p + f] - X[b * p + f];
        d += t * t;
      }
      if (size === k && bestD[k - 1] <= d) continue;
      if (size < k) size++;
      let at = size - 1;
      while (at > 0 && bestD[at - 1] > d) {
        bestD[at] = bestD[at - 1];
        bestI[at] = bestI[at - 1];
        at--;
      }
      bestD[at] = d;
      bestI[at] = b;
    }
    for (let t = 0; t < k; t++) out[a * k + t] = rows[bestI[t]];
  }
  return out;
}
