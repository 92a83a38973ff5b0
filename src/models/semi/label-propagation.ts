/**
 * `label_propagation` and `label_spreading` (seed 002 半监督学习 → 图半监督学习; Zhu &
 * Ghahramani 2002, Zhou et al. 2004), as scikit-learn's LabelPropagation / LabelSpreading:
 * labels flow along a similarity graph of all training rows (graph.ts) from the labelled
 * rows (class ≥ 0) to the unlabelled ones (class −1, kept by the pipeline because these
 * algorithms declare accepts.unlabelled).
 *
 *   propagation: F ← row-normalise(P·F), labelled rows clamped to their labels (hard clamping)
 *   spreading:   F ← α·S·F + (1 − α)·Y, S the symmetrically normalised graph (soft clamping:
 *                a labelled row may change its label when its neighbours disagree)
 *
 * until Σ|ΔF| < tol or max_iter. A row's label is the argmax of its row of F (ties: the
 * lowest class); a new row's distribution is its kernel row times F, normalised (a row too
 * far from every training row for the rbf kernel gets equal probabilities).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf } from "../explain-bounds.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { affinity, multiply, normaliseRows, propagationMatrix, spreadingMatrix, type Kernel } from "./graph.js";
import { argmaxRows } from "../linear/scores.js";
import { groupDigits } from "../../data/group-digits.js";

/** The rbf graph is dense: n² weights (8 bytes each) — 10,000 rows are 800 MB. */
export const MAX_RBF_ROWS = 10_000;
export const MAX_NEIGHBORS = 1000;

const kernelSchema = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("rbf"), gamma: z.number().positive().max(1e12).default(20).describe("exp(−γ‖x − x′‖²); scikit-learn's default 20.") }).strict(),
    z.object({ kind: z.literal("knn"), n_neighbors: z.int().min(1).max(MAX_NEIGHBORS).default(7).describe("Neighbours per row (the row itself included).") }).strict(),
  ])
  .describe(`The similarity graph: {"kind":"rbf","gamma":20} (dense; at most ${groupDigits(MAX_RBF_ROWS)} training rows) or {"kind":"knn","n_neighbors":7} (sparse).`);

const common = {
  max_iter: z.int().min(1).max(100_000).describe("Propagation rounds at most."),
  tol: z.number().min(0).default(1e-3).describe("Stop when the label distributions change by less than this in sum."),
};

export const labelPropagationParams = z
  .object({ kernel: kernelSchema.default({ kind: "rbf", gamma: 20 }), max_iter: common.max_iter.default(1000), tol: common.tol })
  .strict();
export const labelSpreadingParams = z
  .object({
    kernel: kernelSchema.default({ kind: "rbf", gamma: 20 }),
    alpha: z.number().gt(0).lt(1).default(0.2).describe("How much of a row's label comes from its neighbours each round (the rest from its initial label); in (0, 1)."),
    max_iter: common.max_iter.default(30),
    tol: common.tol,
  })
  .strict();
type PropagationParams = z.infer<typeof labelPropagationParams>;
type SpreadingParams = z.infer<typeof labelSpreadingParams>;

export const graphLabelState = z
  .object({
    features: z.array(z.string()).min(1),
    classes: z.array(z.string()),
    kernel: kernelSchema,
    /** Training rows, row-major n × features: a new row is compared with each of them. */
    X: f64,
    /** Label distributions of the training rows, row-major n × classes. */
    distributions: f64,
    n_iter: z.int().min(0),
    labelled_rows: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"]) || !checkClasses(s.classes, report)) return;
      const d = s.features.length;
      if (s.X.length % d !== 0) return report(`X has ${s.X.length} values, not a multiple of ${d} features`, ["X"]);
      const n = s.X.length / d;
      if (n < 1) return report("keeps no training rows", ["X"]);
      if (s.kernel.kind === "rbf" && n > MAX_RBF_ROWS) return report(`keeps ${n} rows; the rbf kernel takes at most ${MAX_RBF_ROWS}`, ["X"]);
      if (!checkFinite(s.X, "X", report)) return;
      if (!checkLength(s.distributions, n * s.classes.length, "distributions", report, `${n} rows × ${s.classes.length} classes`)) return;
      checkFinite(s.distributions, "distributions", report);
    }),
  );
type GraphLabelState = z.infer<typeof graphLabelState>;

type Variant = { kind: "propagation" } | { kind: "spreading"; alpha: number };

function fit(name: string, train: TrainingSet, params: { kernel: Kernel; max_iter: number; tol: number }, variant: Variant, ctx: FitContext): GraphLabelState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError(`${name} needs a categorical target (rows without a value are its unlabelled rows)`);
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (params.kernel.kind === "rbf" && n > MAX_RBF_ROWS) {
    throw new UnusableInputError(`${name} with the rbf kernel keeps an n × n graph: ${n} rows is over ${groupDigits(MAX_RBF_ROWS)}; use {"kind":"knn"}`);
  }
  const y = target.y;
  const c = target.classes.length;
  let labelled = 0;
  for (const v of y) if (v >= 0) labelled++;
  if (labelled === 0) throw new UnusableInputError(`${name} needs at least one labelled row`);
  const X = rowMajor(train.X);
  const W = affinity(X, n, X, n, d, params.kernel, ctx.signal);
  const G = variant.kind === "propagation" ? propagationMatrix(W) : spreadingMatrix(W);

  // Y: one-hot rows for labelled rows, zeros for unlabelled ones; F starts at Y.
  let F = new Float64Array(n * c);
  for (let i = 0; i < n; i++) if (y[i] >= 0) F[i * c + y[i]] = 1;
  const clamp = variant.kind === "propagation" ? Float64Array.from(F) : Float64Array.from(F, (v) => v * (1 - variant.alpha));
  let next = new Float64Array(n * c);
  let previous = new Float64Array(n * c);
  let iterations = 0;
  for (; iterations < params.max_iter; iterations++) {
    let change = 0;
    for (let i = 0; i < F.length; i++) change += Math.abs(F[i] - previous[i]);
    if (change < params.tol) break;
    throwIfAborted(ctx.signal);
    multiply(G, F, c, next);
    if (variant.kind === "propagation") {
      normaliseRows(next, c);
      for (let i = 0; i < n; i++) if (y[i] >= 0) next.set(clamp.subarray(i * c, (i + 1) * c), i * c);
    } else {
      for (let i = 0; i < next.length; i++) next[i] = variant.alpha * next[i] + clamp[i];
    }
    [previous, F, next] = [F, next, previous];
    ctx.progress((iterations + 1) / params.max_iter);
  }
  normaliseRows(F, c);
  return { features, classes: [...target.classes], kernel: params.kernel, X: X as Float64Array<ArrayBuffer>, distributions: F, n_iter: iterations, labelled_rows: labelled };
}

function trainingLabelsOf(s: GraphLabelState): Int32Array {
  return argmaxRows(s.distributions, s.distributions.length / s.classes.length, s.classes.length);
}


function predict(s: GraphLabelState, frame: Frame): Prediction {
  const d = s.features.length;
  const n = s.X.length / d;
  const c = s.classes.length;
  const m = frame.rowCount;
  const Q = rowMajor(selectColumns(frame, s.features));
  const K = affinity(Q, m, s.X, n, d, s.kernel);
  const proba = new Float64Array(m * c);
  multiply(K, s.distributions, c, proba);
  for (let i = 0; i < m; i++) {
    let sum = 0;
    for (let k = 0; k < c; k++) sum += proba[i * c + k];
    if (sum > 0) for (let k = 0; k < c; k++) proba[i * c + k] /= sum;
    else proba.fill(1 / c, i * c, (i + 1) * c);
  }
  return { task: "classification", labels: argmaxRows(proba, m, c), proba };
}

function explain(s: GraphLabelState, options?: { maxValues?: number }) {
  const c = s.classes.length;
  const labels = trainingLabelsOf(s);
  const counts = Object.fromEntries(s.classes.map((name) => [name, 0]));
  for (const l of labels) counts[s.classes[l]]++;
  const shown = Math.min(labels.length, Math.floor(maxValuesOf(options?.maxValues) / Math.max(c, 1)));
  return {
    kernel: s.kernel,
    iterations: s.n_iter,
    labelled_rows: s.labelled_rows,
    unlabelled_rows: labels.length - s.labelled_rows,
    transduction_counts: counts,
    label_distributions: Array.from({ length: shown }, (_, i) => Array.from(s.distributions.subarray(i * c, (i + 1) * c))),
    ...(shown < labels.length ? { label_distributions_truncated: true } : {}),
  };
}

const shared = {
  family: "semi",
  tasks: ["classification"] as const,
  state: graphLabelState,
  // The graph is built from the numeric inputs; missing cells are imputed and categories one-hot encoded in front.
  accepts: { categorical: false, missing: false, weights: false, unlabelled: true },
  scaleSensitive: true, // distances in input units
  predict,
  // The transduction: the label inferred for every training row, unlabelled ones included.
  trainingLabels: trainingLabelsOf,
  explain,
};

export const labelPropagation: Algorithm<PropagationParams, GraphLabelState> = {
  ...shared,
  name: "label_propagation",
  description: "Label propagation over an rbf or kNN graph of all training rows; rows without a target value are unlabelled data whose labels are inferred (hard clamping of the labelled rows).",
  params: labelPropagationParams,
  fit: (train, params, ctx) => fit("label_propagation", train, params, { kind: "propagation" }, ctx),
};

export const labelSpreading: Algorithm<SpreadingParams, GraphLabelState> = {
  ...shared,
  name: "label_spreading",
  description: "Label spreading over the symmetrically normalised rbf or kNN graph (soft clamping with alpha); rows without a target value are unlabelled data.",
  params: labelSpreadingParams,
  fit: (train, params, ctx) => fit("label_spreading", train, params, { kind: "spreading", alpha: params.alpha }, ctx),
};
