/**
 * Prediction from the flat state (state.ts): each row walks every tree on its raw
 * values — numeric splits compare with a threshold that is a bin edge, categorical
 * ones read a per-level table, missing values (NaN, code -1, unseen levels) follow
 * the learned direction. Raw scores are summed per output in one preallocated array;
 * nothing is allocated per row.
 */
import type { Frame } from "../../../data/frame.js";
import type { Prediction } from "../../contract.js";
import { columnsFor } from "../../tree/tree-columns.js";
import { rawToProba } from "./losses.js";
import { MISSING_LEFT, type BoosterState } from "./state.js";

/** Raw scores, class-major: out[k·n + i]. */
export function rawScores(s: BoosterState, X: Frame): { raw: Float64Array; n: number } {
  const cols = columnsFor(s.features, X);
  const n = cols.n;
  const K = s.outputs;
  const raw = new Float64Array(n * K);
  for (let k = 0; k < K; k++) raw.fill(s.baseline[k], k * n, (k + 1) * n);
  const { feature, threshold, flags, left, right, value, catOffset, catLeft, treeStart } = s;
  const trees = s.iterations * K;
  for (let t = 0; t < trees; t++) {
    const root = treeStart[t];
    const out = (t % K) * n;
    for (let i = 0; i < n; i++) {
      let node = root;
      let f = feature[node];
      while (f >= 0) {
        const fl = flags[node];
        let goLeft: boolean;
        const v = cols.num[f];
        if (v) {
          const x = v[i];
          goLeft = x !== x ? (fl & MISSING_LEFT) !== 0 : x <= threshold[node];
        } else {
          const c = (cols.cat[f] as Int32Array)[i];
          goLeft = c < 0 ? (fl & MISSING_LEFT) !== 0 : catLeft[catOffset[node] + c] === 1;
        }
        node = goLeft ? left[node] : right[node];
        f = feature[node];
      }
      raw[out + i] += value[node];
    }
  }
  return { raw, n };
}

export function predictBooster(s: BoosterState, X: Frame): Prediction {
  const { raw, n } = rawScores(s, X);
  if (s.task === "regression") return { task: "regression", values: raw };
  const C = s.classes.length;
  const proba = new Float64Array(n * C);
  rawToProba(raw, n, s.outputs, proba);
  const labels = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    let best = 0;
    for (let k = 1; k < C; k++) if (proba[i * C + k] > proba[i * C + best]) best = k;
    labels[i] = best;
  }
  return { task: "classification", labels, proba };
}
