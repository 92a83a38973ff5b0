/**
 * aode: Averaged One-Dependence Estimators (the book's 7.4.2, eq. 7.23): the sum of the
 * SPODEs whose super-parent's value in the row occurs at least m times in the training
 * rows (default 30, the book's threshold), with the book's Laplace correction
 * (one-dependence.ts). Numeric attributes are cut into n_bins equal-frequency bins.
 * Fit is O(n · d²) counting; the table holds Σ_{i≠j} K · L_i · L_j counts.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";
import { codeFrame, prepare } from "./coded.js";
import { compile, oneDependenceScores, oneDependenceState, oneDependenceStateSchema, type OneDependenceState } from "./one-dependence.js";
import { alphaParam, nBinsParam } from "./params.js";
import { finishScores } from "./scores.js";

/** Beyond any training set's row count: m only compares with counts of rows. */
export const MAX_M = 1_000_000_000;

export const aodeParams = z
  .object({
    alpha: alphaParam("positive"),
    m: z
      .int()
      .min(0)
      .max(MAX_M)
      .default(30)
      .describe("A super-parent is used for a row only when its value occurs in at least m training rows (weighted); the book's default is 30. A row with none falls back to naive Bayes."),
    n_bins: nBinsParam,
  })
  .strict();
export type AodeParams = z.infer<typeof aodeParams>;

function fit(train: TrainingSet, p: AodeParams, ctx: FitContext): OneDependenceState {
  const prep = prepare(train, "aode", p.n_bins);
  const d = prep.cut.levels.length;
  const parents = Int32Array.from({ length: d }, (_, j) => j);
  return oneDependenceState(prep, p.alpha, parents, p.m, new Float64Array(0), ctx);
}

export function predictOneDependence(s: OneDependenceState, X: Frame): Prediction {
  const coded = codeFrame(s, X);
  const use = Int32Array.from(s.parents, (_, q) => q);
  const scores = oneDependenceScores(s, coded, s.m, use);
  const { labels, proba } = finishScores(scores, null, coded.n, s.classes.length);
  return { task: "classification", labels, proba };
}

/** For each super-parent: how many of its levels reach m, and (within max_values) which. */
export function explainParents(s: OneDependenceState, maxValues?: number) {
  const c = compile(s);
  const budget = new ValueBudget(maxValuesOf(maxValues));
  return Array.from(s.parents, (p, q) => {
    const f = s.features[p];
    const names = f.type === "categorical" ? f.levels : Array.from({ length: s.levels[p] }, (_, b) => `bin ${b}`);
    const eligible = names.filter((_, u) => c.levelWeight[q][u] >= s.m);
    const listed = budget.take(Float64Array.from(eligible, () => 0)).values.length;
    return { feature: f.name, levels: s.levels[p], eligible_levels: eligible.length, eligible: eligible.slice(0, listed), ...(listed < eligible.length ? { eligible_truncated: true } : {}) };
  });
}

export function binEdgesOf(s: OneDependenceState) {
  return Object.fromEntries(s.features.flatMap((f, j) => (f.type === "numeric" ? [[f.name, Array.from(s.edges.subarray(s.edge_offset[j], s.edge_offset[j + 1]))]] : [])));
}

export const aode: Algorithm<AodeParams, OneDependenceState> = {
  name: "aode",
  family: "bayes",
  tasks: ["classification"],
  description: "Averaged one-dependence estimators: every attribute whose value occurs at least m times serves as super-parent of a SPODE, and their joint estimates are summed; Laplace correction as the book's formula.",
  params: aodeParams,
  state: oneDependenceStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit,
  predict: predictOneDependence,
  explain: (s, options) => ({ classes: s.classes, alpha: s.alpha, m: s.m, class_count: Object.fromEntries(s.classes.map((cl, k) => [cl, s.class_count[k]])), super_parents: explainParents(s, options?.maxValues), bin_edges: binEdgesOf(s) }),
};
