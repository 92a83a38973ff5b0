/**
 * Permutation feature importances of a forest, on its out-of-bag rows.
 *
 * scikit-learn's `permutation_importance` semantics (Breiman 2001, §10): the score
 * of the model on a set of rows, minus its score after one column's values are
 * shuffled among those rows, averaged over `n_repeats` shuffles (importances_mean,
 * with the population std over the repeats, importances_std); the score is accuracy
 * for classification and R² for regression, scikit-learn's default scorers.
 *
 * The rows and the model are the out-of-bag ones: the rows that at least one tree
 * left out of its bootstrap (at most `maxRows` of them, drawn without replacement),
 * each predicted only by the trees that did not train on it — the OOB estimate of
 * oob.ts, so the baseline equals it on the same rows. Scoring on the training rows
 * instead would reward memorised noise (a forest fits its bags almost perfectly).
 * Rows are unweighted, as in the OOB estimate.
 *
 * Cost: a tree that never splits on column j predicts the shuffled rows exactly as
 * before, so only the trees using j are walked again: per column, their out-of-bag
 * rows once unshuffled and once per repeat.
 */
import type { Frame } from "../../data/frame.js";
import { takeRows } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { permutation } from "../../data/random.js";
import type { AbortFlag, Target } from "../contract.js";
import { throwIfAborted } from "../contract.js";
import { predictValues } from "../tree/predict.js";
import { columnsFor } from "../tree/tree-columns.js";
import type { TreeState } from "../tree/tree-state.js";
import { LEAF, OBLIQUE } from "../tree/tree-state.js";
import { subsampleCounts } from "./bootstrap.js";

export interface PermutationImportances {
  readonly rows: "out_of_bag";
  readonly metric: "accuracy" | "r2";
  readonly n_repeats: number;
  readonly rows_scored: number;
  /** The OOB score of the scored rows, unshuffled. */
  readonly baseline: number;
  /** Per feature (the forest's order): baseline − mean shuffled score, and the std over repeats. */
  readonly mean: Float64Array<ArrayBuffer>;
  readonly std: Float64Array<ArrayBuffer>;
}

export interface PermutationPlan {
  readonly repeats: number;
  readonly maxRows: number;
  readonly rng: Rng;
  readonly signal?: AbortFlag;
}

/** Whether a tree's prediction can depend on feature j. */
function usesFeature(tree: TreeState, j: number): boolean {
  for (let node = 0; node < tree.kind.length; node++) {
    const k = tree.kind[node];
    if (k === OBLIQUE || (k !== LEAF && tree.feature[node] === j)) return true;
  }
  return false;
}

/** Accuracy of the argmax of summed outputs, or R² of the averaged ones, over rows with votes. */
function score(sum: Float64Array, votes: Int32Array, target: Target, rows: Int32Array, W: number): number {
  const m = rows.length;
  if (target.task === "classification") {
    let correct = 0;
    for (let i = 0; i < m; i++) {
      let best = 0;
      for (let k = 1; k < W; k++) if (sum[i * W + k] > sum[i * W + best]) best = k;
      if (best === target.y[rows[i]]) correct++;
    }
    return correct / m;
  }
  let mean = 0;
  for (let i = 0; i < m; i++) mean += target.y[rows[i]] / m;
  let res = 0;
  let tot = 0;
  for (let i = 0; i < m; i++) {
    const y = target.y[rows[i]];
    res += (y - sum[i] / votes[i]) ** 2;
    tot += (y - mean) ** 2;
  }
  return tot > 0 ? 1 - res / tot : 0;
}

/** Null when no row is out of any tree's bag (bootstrap off with every row drawn). */
export function oobPermutationImportances(X: Frame, target: Target, trees: readonly TreeState[], oobRows: readonly Int32Array[], W: number, plan: PermutationPlan): PermutationImportances | null {
  const n = X.rowCount;
  const anyVote = new Uint8Array(n);
  for (const left of oobRows) for (let r = 0; r < left.length; r++) anyVote[left[r]] = 1;
  let candidates: number[] = [];
  for (let i = 0; i < n; i++) if (anyVote[i]) candidates.push(i);
  if (candidates.length === 0) return null;
  if (candidates.length > plan.maxRows) {
    const keep = subsampleCounts(candidates.length, plan.maxRows, plan.rng);
    candidates = candidates.filter((_, r) => keep[r] > 0);
  }
  const rows = Int32Array.from(candidates);
  const m = rows.length;
  const local = new Int32Array(n).fill(-1);
  for (let r = 0; r < m; r++) local[rows[r]] = r;
  const XS = takeRows(X, rows);
  const schema = trees[0].features;
  // Each tree's out-of-bag rows among the scored ones, as local indices.
  const treeRows = oobRows.map((left) => {
    const out: number[] = [];
    for (let r = 0; r < left.length; r++) if (local[left[r]] >= 0) out.push(local[left[r]]);
    return Int32Array.from(out);
  });
  const sum = new Float64Array(m * W);
  const votes = new Int32Array(m);
  const predictOn = (t: number, frame: Frame) => predictValues(trees[t], columnsFor(schema, takeRows(frame, treeRows[t])));
  for (let t = 0; t < trees.length; t++) {
    if (treeRows[t].length === 0) continue;
    const out = predictOn(t, XS);
    const loc = treeRows[t];
    for (let r = 0; r < loc.length; r++) {
      votes[loc[r]]++;
      for (let c = 0; c < W; c++) sum[loc[r] * W + c] += out[r * W + c];
    }
  }
  const baseline = score(sum, votes, target, rows, W);
  const d = schema.length;
  const R = plan.repeats;
  const mean = new Float64Array(d);
  const std = new Float64Array(d);
  const shuffled = Array.from({ length: R }, () => new Float64Array(m * W));
  for (let j = 0; j < d; j++) {
    throwIfAborted(plan.signal);
    const at = XS.columns.findIndex((c) => c.name === schema[j].name);
    const column = XS.columns[at];
    // Every repeat's frame: column j shuffled among the scored rows, the others shared.
    const frames = Array.from({ length: R }, () => {
      const perm = permutation(m, plan.rng);
      const moved = column.type === "numeric" ? { ...column, values: Float64Array.from(perm, (i) => column.values[i]) } : { ...column, codes: Int32Array.from(perm, (i) => column.codes[i]) };
      return { rowCount: m, columns: XS.columns.map((c, k) => (k === at ? moved : c)) } as Frame;
    });
    for (const s of shuffled) s.set(sum);
    for (let t = 0; t < trees.length; t++) {
      const loc = treeRows[t];
      if (loc.length === 0 || !usesFeature(trees[t], j)) continue;
      const before = predictOn(t, XS);
      for (let rep = 0; rep < R; rep++) {
        const after = predictOn(t, frames[rep]);
        const s = shuffled[rep];
        for (let r = 0; r < loc.length; r++) for (let c = 0; c < W; c++) s[loc[r] * W + c] += after[r * W + c] - before[r * W + c];
      }
    }
    const drops = shuffled.map((s) => baseline - score(s, votes, target, rows, W));
    mean[j] = drops.reduce((a, b) => a + b, 0) / R;
    std[j] = Math.sqrt(drops.reduce((a, b) => a + (b - mean[j]) ** 2, 0) / R);
  }
  return { rows: "out_of_bag", metric: target.task === "classification" ? "accuracy" : "r2", n_repeats: R, rows_scored: m, baseline, mean, std };
}
