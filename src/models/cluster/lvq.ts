/**
 * `lvq` (seed 002 and the book's §9.4.2: 学习向量量化, LVQ1): labelled prototype vectors. Each
 * step takes a random training row x, finds its nearest prototype p (Euclidean; ties: the
 * lowest prototype) and moves it by the learning rate η: towards x when their classes agree
 * (p ← p + η(x − p)), away from it otherwise (p ← p − η(x − p)).
 *
 * The book trains LVQ with class labels and reads the result as a clustering (each prototype's
 * Voronoi cell is a cluster). In xigua a categorical target makes a classification task
 * (src/training/spec.ts), and a clustering task takes no target, so lvq registers as a
 * classifier: predict gives the class of the nearest prototype; explain gives the prototypes
 * (the clusters) with their classes and how many training rows fall in each cell.
 *
 * Initialisation: `prototypes_per_class` distinct random rows of each class, or explicit
 * training rows (the book's example: rows 5, 12, 18, 23, 29 of watermelon 4.0), each prototype
 * taking its row's class.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkClasses, checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { MAX_CLUSTERS, MAX_ITERATIONS, MAX_ROW_ID } from "./params.js";
import { groupDigits } from "../../data/group-digits.js";

/** Most prototypes per class: each one is a vector in the state that every prediction scans. */
export const MAX_PROTOTYPES_PER_CLASS = 1000;

export const lvqParams = z
  .object({
    prototypes_per_class: z
      .int()
      .min(1)
      .max(MAX_PROTOTYPES_PER_CLASS)
      .default(1)
      .describe(`Prototypes of each class, drawn at random among its training rows (fewer for a class with fewer rows). At most ${MAX_PROTOTYPES_PER_CLASS}. Ignored with explicit init rows.`),
    learning_rate: z.number().gt(0).max(1).default(0.1).describe("η: the fraction of the way a prototype moves towards (same class) or away from (other class) the sampled row."),
    max_iter: z
      .int()
      .min(1)
      .max(MAX_ITERATIONS * 100)
      .default(4000)
      .describe(`Updates: each one samples a training row at random and moves its nearest prototype. At most ${groupDigits(MAX_ITERATIONS * 100)}.`),
    init: z
      .discriminatedUnion("kind", [
        z.object({ kind: z.literal("random") }).strict(),
        z.object({ kind: z.literal("rows"), rows: z.array(z.int().min(0).max(MAX_ROW_ID)).min(1).max(MAX_CLUSTERS) }).strict(),
      ])
      .default({ kind: "random" })
      .describe(`{"kind":"random"} (prototypes_per_class random rows of each class) or {"kind":"rows","rows":[…]} (0-based training rows, at most ${groupDigits(MAX_CLUSTERS)}; each prototype starts at its row and takes its class).`),
  })
  .strict();
export type LvqParams = z.infer<typeof lvqParams>;

export const lvqState = z
  .object({
    features: z.array(z.string()).min(1),
    classes: z.array(z.string()).min(1),
    /** q × features, row-major. */
    prototypes: f64,
    /** Class index of each prototype. */
    prototype_classes: i32,
    /** Training rows nearest each prototype after training (its cluster). */
    sizes: i32,
    n_iter: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"]) || !checkClasses(s.classes, report)) return;
      const q = s.prototype_classes.length;
      if (q < 1) return report("has no prototypes", ["prototype_classes"]);
      if (!checkLength(s.prototypes, q * s.features.length, "prototypes", report, `${q} prototypes × ${s.features.length} features`) || !checkFinite(s.prototypes, "prototypes", report)) return;
      if (!checkLength(s.sizes, q, "sizes", report, `${q} prototypes`)) return;
      const bad = s.prototype_classes.findIndex((c) => c < 0 || c >= s.classes.length);
      if (bad >= 0) report(`prototype_classes[${bad}] is not a class index`, ["prototype_classes", bad]);
    }),
  );
export type LvqState = z.infer<typeof lvqState>;

/** Index of the prototype nearest to X[row] (squared Euclidean; ties: the lowest). */
function nearest(P: Float64Array, q: number, X: Float64Array, row: number, d: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let c = 0; c < q; c++) {
    let s = 0;
    for (let j = 0; j < d; j++) {
      const t = X[row * d + j] - P[c * d + j];
      s += t * t;
    }
    if (s < bestD) {
      bestD = s;
      best = c;
    }
  }
  return best;
}

/** One LVQ1 update with training row `row`; returns the prototype moved. */
export function lvqStep(P: Float64Array, classes: Int32Array, X: Float64Array, y: Int32Array, row: number, d: number, eta: number): number {
  const c = nearest(P, classes.length, X, row, d);
  const sign = classes[c] === y[row] ? eta : -eta;
  for (let j = 0; j < d; j++) P[c * d + j] += sign * (X[row * d + j] - P[c * d + j]);
  return c;
}

function initialRows(y: Int32Array, K: number, params: LvqParams, ctx: FitContext): number[] {
  const n = y.length;
  if (params.init.kind === "rows") {
    const bad = params.init.rows.find((r) => r >= n);
    if (bad !== undefined) throw new UnusableInputError(`init row ${bad} is not a training row (there are ${n})`);
    return params.init.rows;
  }
  const rows: number[] = [];
  for (let k = 0; k < K; k++) {
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (y[i] === k) members.push(i);
    // A partial Fisher–Yates shuffle: the first prototypes_per_class members, distinct.
    const take = Math.min(params.prototypes_per_class, members.length);
    for (let t = 0; t < take; t++) {
      const j = t + ctx.rng.int(members.length - t);
      [members[t], members[j]] = [members[j], members[t]];
      rows.push(members[t]);
    }
  }
  return rows;
}

function fit(train: TrainingSet, params: LvqParams, ctx: FitContext): LvqState {
  const target = train.target;
  if (target?.task !== "classification") throw new UnusableInputError("lvq learns labelled prototypes: train it with a categorical target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError("lvq needs at least one training row");
  const X = rowMajor(train.X);
  const rows = initialRows(target.y, target.classes.length, params, ctx);
  const q = rows.length;
  const P = new Float64Array(q * d);
  const protoClasses = new Int32Array(q);
  rows.forEach((r, c) => {
    P.set(X.subarray(r * d, r * d + d), c * d);
    protoClasses[c] = target.y[r];
  });
  for (let t = 0; t < params.max_iter; t++) {
    if ((t & 4095) === 0) {
      throwIfAborted(ctx.signal);
      ctx.progress(t / params.max_iter);
    }
    lvqStep(P, protoClasses, X, target.y, ctx.rng.int(n), d, params.learning_rate);
  }
  const sizes = new Int32Array(q);
  for (let i = 0; i < n; i++) sizes[nearest(P, q, X, i, d)]++;
  ctx.progress(1);
  return { features, classes: [...target.classes], prototypes: P, prototype_classes: protoClasses, sizes, n_iter: params.max_iter };
}

function predict(s: LvqState, X: Frame): Prediction {
  const d = s.features.length;
  const M = rowMajor(selectColumns(X, s.features));
  const labels = new Int32Array(X.rowCount);
  for (let i = 0; i < labels.length; i++) labels[i] = s.prototype_classes[nearest(s.prototypes, s.prototype_classes.length, M, i, d)];
  return { task: "classification", labels };
}

/** The prototypes (the clusters: each one's Voronoi cell), with their class and training rows, within max_values numbers. */
function explain(s: LvqState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const q = s.prototype_classes.length;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const prototypes: { cluster: number; class: string; rows: number; vector: Record<string, number> }[] = [];
  let truncated = false;
  for (let c = 0; c < q; c++) {
    if (budget.remaining < 2) {
      truncated = true;
      break;
    }
    budget.spend(2);
    const { values, truncated: cut } = budget.take(s.prototypes.subarray(c * d, c * d + d));
    prototypes.push({ cluster: c, class: s.classes[s.prototype_classes[c]], rows: s.sizes[c], vector: Object.fromEntries(values.map((v, j) => [s.features[j], v])) });
    truncated ||= cut;
  }
  return { n_prototypes: q, n_iter: s.n_iter, prototypes, ...(truncated ? { prototypes_truncated: true } : {}) };
}

export const lvq: Algorithm<LvqParams, LvqState> = {
  name: "lvq",
  family: "cluster",
  tasks: ["classification"],
  description: "Learning vector quantisation (LVQ1): labelled prototypes pulled towards rows of their class and pushed from others; predicts the class of the nearest prototype, explain lists the prototypes (clusters) and their classes.",
  params: lvqParams,
  state: lvqState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true,
  fit,
  predict,
  explain: (s, options) => explain(s, options?.maxValues),
};
