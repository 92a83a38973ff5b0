/**
 * `lmnn_projection`: Large Margin Nearest Neighbour as a model (seed 002 度量学习), the
 * twin of nca_projection — the linear map L that pulls each row's same-class target
 * neighbours close and pushes other classes a margin beyond them; /predict and /transform
 * answer L(x − x̄). The fit is the `lmnn` preprocessing step's (fitLmnnMap below, which the
 * step calls), with the same options and bounds: each evaluation compares every pair of
 * rows, so the training rows are bounded by `max_rows` (more are refused).
 */
import { z } from "zod";
import { UnusableInputError, type AbortFlag, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { columnCountParam } from "../limits.js";
import { fitLmnn } from "../neighbors/lmnn.js";
import { structural } from "../state-schemas.js";
import { centredRows } from "./linear-map.js";
import { columnMeans } from "./pca-core.js";
import { BoundedExplanation, classesAndColumns, outputNamesOf } from "./shared.js";
import { checkSupervisedMap, predictSupervisedMap, supervisedMapFields } from "./supervised-map.js";
import { groupDigits } from "../../data/group-digits.js";

const NAME = "lmnn_projection";
const PREFIX = "lmnn";
/** 20,000 rows: one evaluation then walks 4·10⁸ pairs, minutes per iteration. */
export const LMNN_MAX_ROWS = 20_000;
const MAX_ITER = 10_000;
/** Target neighbours per row: each multiplies the hinge terms of every impostor. */
export const LMNN_MAX_NEIGHBORS = 100;

/** The options the lmnn step and lmnn_projection share (the step adds columns and prefix). */
export const lmnnOptionsShape = {
  n_components: columnCountParam("Dimensions of the learned space; null: as many as the columns.", "the columns"),
  init: z
    .enum(["auto", "identity", "pca"])
    .default("auto")
    .describe("Start of the optimisation: identity, or the top principal directions (pca); auto: identity when n_components equals the columns, else pca."),
  n_neighbors: z.number().int().min(1).max(LMNN_MAX_NEIGHBORS).default(3).describe(`Target neighbours per row: its nearest rows of the same class in the input space, pulled close. At most ${LMNN_MAX_NEIGHBORS}.`),
  push_weight: z.number().min(0).max(1).default(0.5).describe("μ: the weight of pushing impostors beyond the margin; 1 − μ weighs pulling the target neighbours."),
  max_iter: z.number().int().min(1).max(MAX_ITER).default(50).describe(`L-BFGS iterations at most (pylmnn's default 50). At most ${groupDigits(MAX_ITER)}.`),
  tol: z.number().positive().default(1e-5),
  max_rows: z
    .number()
    .int()
    .min(2)
    .max(LMNN_MAX_ROWS)
    .default(5_000)
    .describe(`Training rows allowed (each evaluation compares every pair of rows); more is refused. At most ${groupDigits(LMNN_MAX_ROWS)}.`),
};

export interface LmnnMap {
  readonly mean: Float64Array<ArrayBuffer>;
  /** c × d row-major. */
  readonly components: Float64Array<ArrayBuffer>;
  readonly iterations: number;
  readonly converged: boolean;
  readonly loss: number;
  readonly impostors: number;
}

/** The map fitted on complete numeric columns (n rows) against class indices y; c outputs (≤ columns, checked by the caller). */
export function fitLmnnMap(
  columns: readonly Float64Array[],
  n: number,
  y: Int32Array,
  c: number,
  options: { init: "auto" | "identity" | "pca"; n_neighbors: number; push_weight: number; max_iter: number; tol: number; signal?: AbortFlag },
): LmnnMap {
  const d = columns.length;
  const mean = columnMeans(columns, n);
  const X = centredRows(columns, mean, n);
  const init = options.init === "auto" ? (c === d ? "identity" : "pca") : options.init;
  const result = fitLmnn(X, n, d, y, { components: c, neighbors: options.n_neighbors, pushWeight: options.push_weight, init, maxIter: options.max_iter, tol: options.tol, signal: options.signal });
  return { mean, components: result.components, iterations: result.iterations, converged: result.converged, loss: result.loss, impostors: result.impostors };
}

export const lmnnProjectionParams = z.object(lmnnOptionsShape).strict();
export type LmnnProjectionParams = z.infer<typeof lmnnProjectionParams>;

export const lmnnProjectionState = z
  .object({
    ...supervisedMapFields,
    iterations: z.number().int().nonnegative(),
    converged: z.boolean(),
    loss: z.number(),
    impostors: z.number().int().min(0),
  })
  .strict()
  .superRefine(structural(checkSupervisedMap));
export type LmnnProjectionState = z.infer<typeof lmnnProjectionState>;

function fit(train: TrainingSet, params: LmnnProjectionParams, ctx: FitContext): LmnnProjectionState {
  const { features, columns, y, classes } = classesAndColumns(train, NAME);
  const n = train.X.rowCount;
  if (n > params.max_rows) throw new UnusableInputError(`${NAME}: ${groupDigits(n)} training rows, above max_rows ${groupDigits(params.max_rows)} (each evaluation compares every pair of rows)`);
  const c = params.n_components ?? features.length;
  if (c > features.length) throw new UnusableInputError(`${NAME}: n_components = ${c}, and there are only ${features.length} numeric features`);
  const map = fitLmnnMap(columns, n, y, c, { ...params, signal: ctx.signal });
  if (!map.components.every(Number.isFinite)) throw new UnusableInputError(`${NAME}: the optimisation diverged; rescale the features`);
  return { features, classes: [...classes], mean: map.mean, components: map.components, n_components: c, iterations: map.iterations, converged: map.converged, loss: map.loss, impostors: map.impostors };
}


export const lmnnProjection: Algorithm<LmnnProjectionParams, LmnnProjectionState> = {
  name: NAME,
  family: "projection",
  tasks: ["projection"],
  description: "Large Margin Nearest Neighbour (supervised, needs a categorical target): the features mapped linearly so that each row's same-class neighbours are close and other classes a margin beyond them (L-BFGS).",
  params: lmnnProjectionParams,
  state: lmnnProjectionState,
  accepts: { categorical: false, missing: false, weights: false, classes: true },
  scaleSensitive: true, // the target neighbours are found by distances in input units
  fit,
  predict: predictSupervisedMap,
  outputNames: (s) => outputNamesOf(PREFIX, s.n_components),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.n_components);
    return new BoundedExplanation(options?.maxValues)
      .set("n_components", names.length)
      .set("iterations", s.iterations)
      .set("converged", s.converged)
      .set("loss", s.loss)
      .set("active_impostor_triples", s.impostors)
      .matrix("components", names, s.features, s.components).out;
  },
};
