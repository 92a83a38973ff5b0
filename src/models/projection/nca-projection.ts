/**
 * `nca_projection`: Neighbourhood Components Analysis as a model (seed 002 度量学习) —
 * the linear map A that maximises a stochastic nearest neighbour's leave-one-out
 * accuracy on the training classes; /predict and /transform answer A(x − x̄). The fit
 * is the `nca` preprocessing step's (fitNcaMap below, which the step calls), with the
 * same options and bounds: fitting holds an n × n matrix, so the training rows are
 * bounded by `max_rows` (more are refused, not subsampled).
 */
import { z } from "zod";
import { UnusableInputError, type AbortFlag, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { columnCountParam } from "../limits.js";
import { fitNca } from "../neighbors/nca.js";
import { structural } from "../state-schemas.js";
import { centredRows } from "./linear-map.js";
import { columnMeans } from "./pca-core.js";
import { BoundedExplanation, classesAndColumns, outputNamesOf } from "./shared.js";
import { checkSupervisedMap, predictSupervisedMap, supervisedMapFields } from "./supervised-map.js";
import { groupDigits } from "../../data/group-digits.js";

const NAME = "nca_projection";
const PREFIX = "nca";
/** 20,000 rows: the n × n matrix of one evaluation is then 3.2 GB, more than any job budget allows. */
export const NCA_MAX_ROWS = 20_000;
const MAX_ITER = 10_000;

/** The options the nca step and nca_projection share (the step adds columns and prefix). */
export const ncaOptionsShape = {
  n_components: columnCountParam("Dimensions of the learned space; null: as many as the columns.", "the columns"),
  init: z
    .enum(["auto", "identity", "pca"])
    .default("auto")
    .describe("Start of the optimisation: identity, or the top principal directions (pca); auto: identity when n_components equals the columns, else pca."),
  max_iter: z.number().int().min(1).max(MAX_ITER).default(50).describe(`L-BFGS iterations at most (scikit-learn's default 50). At most ${groupDigits(MAX_ITER)}.`),
  tol: z.number().positive().default(1e-5),
  max_rows: z
    .number()
    .int()
    .min(2)
    .max(NCA_MAX_ROWS)
    .default(5_000)
    .describe(`Training rows allowed (each evaluation holds rows² numbers); more is refused. At most ${groupDigits(NCA_MAX_ROWS)}.`),
};

export interface NcaMap {
  readonly mean: Float64Array<ArrayBuffer>;
  /** c × d row-major. */
  readonly components: Float64Array<ArrayBuffer>;
  readonly iterations: number;
  readonly converged: boolean;
  readonly score: number;
}

/** The map fitted on complete numeric columns (n rows) against class indices y; c outputs (≤ columns, checked by the caller). */
export function fitNcaMap(columns: readonly Float64Array[], n: number, y: Int32Array, c: number, options: { init: "auto" | "identity" | "pca"; max_iter: number; tol: number; signal?: AbortFlag }): NcaMap {
  const d = columns.length;
  const mean = columnMeans(columns, n);
  const X = centredRows(columns, mean, n);
  const init = options.init === "auto" ? (c === d ? "identity" : "pca") : options.init;
  const result = fitNca(X, n, d, y, { components: c, init, maxIter: options.max_iter, tol: options.tol, signal: options.signal });
  return { mean, components: result.components, iterations: result.iterations, converged: result.converged, score: result.score };
}

export const ncaProjectionParams = z.object(ncaOptionsShape).strict();
export type NcaProjectionParams = z.infer<typeof ncaProjectionParams>;

export const ncaProjectionState = z
  .object({
    ...supervisedMapFields,
    iterations: z.number().int().nonnegative(),
    converged: z.boolean(),
    score: z.number(),
  })
  .strict()
  .superRefine(structural(checkSupervisedMap));
export type NcaProjectionState = z.infer<typeof ncaProjectionState>;

function fit(train: TrainingSet, params: NcaProjectionParams, ctx: FitContext): NcaProjectionState {
  const { features, columns, y, classes } = classesAndColumns(train, NAME);
  const n = train.X.rowCount;
  if (n > params.max_rows) throw new UnusableInputError(`${NAME}: ${groupDigits(n)} training rows, above max_rows ${groupDigits(params.max_rows)} (each evaluation holds rows² numbers)`);
  const c = params.n_components ?? features.length;
  if (c > features.length) throw new UnusableInputError(`${NAME}: n_components = ${c}, and there are only ${features.length} numeric features`);
  const map = fitNcaMap(columns, n, y, c, { ...params, signal: ctx.signal });
  if (!map.components.every(Number.isFinite)) throw new UnusableInputError(`${NAME}: the optimisation diverged; rescale the features`);
  return { features, classes: [...classes], mean: map.mean, components: map.components, n_components: c, iterations: map.iterations, converged: map.converged, score: map.score };
}


export const ncaProjection: Algorithm<NcaProjectionParams, NcaProjectionState> = {
  name: NAME,
  family: "projection",
  tasks: ["projection"],
  description: "Neighbourhood Components Analysis (supervised, needs a categorical target): the features mapped linearly so that a stochastic nearest neighbour's leave-one-out accuracy on the classes is highest (L-BFGS).",
  params: ncaProjectionParams,
  state: ncaProjectionState,
  accepts: { categorical: false, missing: false, weights: false, classes: true },
  scaleSensitive: true, // the neighbour probabilities follow the distances, which follow the units
  fit,
  predict: predictSupervisedMap,
  outputNames: (s) => outputNamesOf(PREFIX, s.n_components),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.n_components);
    return new BoundedExplanation(options?.maxValues)
      .set("n_components", names.length)
      .set("iterations", s.iterations)
      .set("converged", s.converged)
      .set("expected_loo_accuracy", s.score)
      .matrix("components", names, s.features, s.components).out;
  },
};
