/**
 * Elastic net (seed 002): (1/(2n))‖y − Xβ − b‖² + α·l1_ratio‖β‖₁ + ½α(1 − l1_ratio)‖β‖²
 * by coordinate descent, as scikit-learn's ElasticNet.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { fitElasticNet } from "./elastic-net-fit.js";
import { explainRegressor } from "./explain.js";
import { maxIterParam, tolParam } from "./params.js";
import { regressorStateSchema, type RegressorState } from "./linear-state.js";
import { predictRegressor } from "./regressor-predict.js";

const NAME = "elastic_net";

export const elasticNetParams = z
  .object({
    alpha: z.number().nonnegative().default(1),
    l1_ratio: z.number().min(0).max(1).default(0.5),
    fit_intercept: z.boolean().default(true),
    /** Coordinate-descent sweeps. */
    max_iter: maxIterParam(1000),
    /** Converged when the duality gap is at most tol·‖y‖² (scikit-learn's criterion). */
    tol: tolParam(1e-4),
    selection: z.enum(["cyclic", "random"]).default("cyclic"),
  })
  .strict();
export type ElasticNetParams = z.infer<typeof elasticNetParams>;

export const elasticNet: Algorithm<ElasticNetParams, RegressorState> = {
  name: NAME,
  family: "linear",
  tasks: ["regression"],
  description: "Elastic net: least squares with a mixed L1/L2 penalty, by coordinate descent.",
  params: elasticNetParams,
  state: regressorStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // the penalty weighs coefficients in the units of their columns
  fit: (train, params, ctx) => fitElasticNet(train, NAME, params, ctx),
  predict: (state, X) => predictRegressor(state, X, NAME),
  explain: (state) => explainRegressor(state),
};
