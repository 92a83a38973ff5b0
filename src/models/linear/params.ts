/**
 * Parameters shared by every linear model that can be fitted by an optimiser
 * from optim/. Names follow scikit-learn's MLP/SGD estimators (learning_rate is
 * the schedule, learning_rate_init the step size, beta_1/beta_2 for Adam).
 */
import { z } from "zod";
import { UnusableInputError, type FitContext } from "../contract.js";
import { METHODS, type Method, type MinimizeOptions } from "../optim/minimize.js";

export const solverEnum = z.enum(METHODS as [Method, ...Method[]]);

export const gradientFields = {
  /** Fit on standardised features (an exact reparametrisation: the optimum is unchanged) so the loss surface is not elongated (seed 000). */
  normalize_features: z.boolean().default(true),
  learning_rate: z.enum(["constant", "invscaling", "adaptive"]).default("constant"),
  learning_rate_init: z.number().positive().default(0.1),
  power_t: z.number().nonnegative().default(0.5),
  /** Rows per update for the first-order solvers; null is full batch, 1 is stochastic. */
  batch_size: z.number().int().positive().nullable().default(null),
  shuffle: z.boolean().default(true),
  momentum: z.number().min(0).lt(1).default(0.9),
  beta_1: z.number().min(0).lt(1).default(0.9),
  beta_2: z.number().min(0).lt(1).default(0.999),
  epsilon: z.number().positive().default(1e-8),
  rho: z.number().min(0).lt(1).default(0.9),
};

type GradientParams = { [K in keyof typeof gradientFields]: z.infer<(typeof gradientFields)[K]> };

export function minimizeOptions(method: Method, params: GradientParams & { max_iter: number; tol: number }, ctx: FitContext): MinimizeOptions {
  return {
    method,
    maxIter: params.max_iter,
    tol: params.tol,
    learningRate: params.learning_rate_init,
    schedule: params.learning_rate,
    powerT: params.power_t,
    batchSize: params.batch_size,
    shuffle: params.shuffle,
    rng: ctx.rng,
    momentum: params.momentum,
    beta1: params.beta_1,
    beta2: params.beta_2,
    epsilon: params.epsilon,
    rho: params.rho,
    signal: ctx.signal,
  };
}

/** Newton, BFGS and DFP hold size × size matrices; past this many parameters they cost more memory and time than they save. */
export const DENSE_SOLVER_LIMIT = 2000;

export function checkDenseSolver(method: Method, size: number, algorithm: string): void {
  if ((method === "newton" || method === "bfgs" || method === "dfp") && size > DENSE_SOLVER_LIMIT) {
    throw new UnusableInputError(`${algorithm}: solver ${method} keeps a ${size} × ${size} matrix; use lbfgs or a gradient solver for more than ${DENSE_SOLVER_LIMIT} parameters`);
  }
}
