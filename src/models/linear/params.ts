/**
 * Parameters of the linear models that an optimiser from optim/ fits, as a tagged
 * union keyed by `solver` (STYLE.md §2): each solver's branch carries only what
 * that solver reads — the step-size options only for the first-order solvers,
 * momentum only for momentum/nesterov, beta_1/beta_2 only for adam, none of them
 * for newton, dfp, bfgs, lbfgs or a closed form — so a parameter with no effect
 * is a 422, not silently ignored. Names follow scikit-learn's MLP/SGD estimators
 * (learning_rate is the schedule, learning_rate_init the step size).
 */
import { z } from "zod";
import { UnusableInputError, type FitContext } from "../contract.js";
import { METHODS, type LearningRateSchedule, type Method, type MinimizeOptions } from "../optim/minimize.js";
import { refuseInert, solverUnion } from "../optim/solver-options.js";

/**
 * Iterations of Newton and quasi-Newton solvers, epochs of first-order ones, sweeps of
 * coordinate descent: each costs at least one pass over the data, so 10⁵ is already
 * hours on a large table, and the tightest fits the tests need stop below 10⁴.
 */
export const MAX_ITER = 100_000;
/**
 * Below 1e-12 a gradient or duality gap computed in double precision is mostly
 * rounding noise: a run asked for less would never converge and only stop at max_iter.
 */
export const MIN_TOL = 1e-12;
/** Rows per update; at or above the training rows it is full batch, so no dataset needs more. */
export const MAX_BATCH_SIZE = 1_000_000;

export const maxIterParam = (fallback: number) => z.number().int().min(1).max(MAX_ITER).default(fallback);
export const tolParam = (fallback: number) => z.number().min(MIN_TOL).default(fallback);

const POWER_T = 0.5;

const firstOrder = {
  learning_rate: z.enum(["constant", "invscaling", "adaptive"]).default("constant"),
  learning_rate_init: z.number().positive().default(0.1),
  /** invscaling only: η / (t + 1)^power_t. */
  power_t: z.number().nonnegative().default(POWER_T),
  /** Rows per update; null is full batch, 1 is stochastic. */
  batch_size: z.number().int().min(1).max(MAX_BATCH_SIZE).nullable().default(null),
  /** Mini-batches only: visit the rows in a new seeded order every epoch. */
  shuffle: z.boolean().default(true),
};
const momentum = z.number().min(0).lt(1).default(0.9);
const epsilon = z.number().positive().default(1e-8);

/** What each solver reads besides max_iter, tol and normalize_features. */
export const SOLVER_OPTIONS = {
  gd: firstOrder,
  momentum: { ...firstOrder, momentum },
  nesterov: { ...firstOrder, momentum },
  adagrad: { ...firstOrder, epsilon },
  rmsprop: { ...firstOrder, rho: z.number().min(0).lt(1).default(0.9), epsilon },
  adam: { ...firstOrder, beta_1: z.number().min(0).lt(1).default(0.9), beta_2: z.number().min(0).lt(1).default(0.999), epsilon },
  newton: {},
  dfp: {},
  bfgs: {},
  lbfgs: {},
} as const satisfies Record<Method, z.ZodRawShape>;

/** What fitting reads from any iterative branch; options a solver does not have are absent. */
export interface IterativeSettings {
  solver: Method;
  max_iter: number;
  tol: number;
  normalize_features: boolean;
  learning_rate?: LearningRateSchedule;
  learning_rate_init?: number;
  power_t?: number;
  batch_size?: number | null;
  shuffle?: boolean;
  momentum?: number;
  beta_1?: number;
  beta_2?: number;
  epsilon?: number;
  rho?: number;
}

/**
 * The union over `solver`: `closed` branches (a closed form's own options) and every
 * iterative method with `shared` options, max_iter, tol and normalize_features.
 * `fallback` is the solver used when none is given. The branches are built from data,
 * so the caller states the parsed type P (the model's tests pin that they agree).
 */
export function solverParams<P>(shared: z.ZodRawShape, defaults: { max_iter: number; tol: number }, fallback: string, closed: Record<string, z.ZodRawShape> = {}): z.ZodType<P> {
  const iterative = {
    max_iter: maxIterParam(defaults.max_iter),
    /** Gradient tolerance: converged when max |∂loss/∂θ| ≤ tol. */
    tol: tolParam(defaults.tol),
    /** Fit on standardised features (an exact reparametrisation: the optimum is unchanged) so the loss surface is not elongated (seed 000). */
    normalize_features: z.boolean().default(true),
  };
  const shapes: Record<string, z.ZodRawShape> = {};
  for (const [name, own] of Object.entries(closed)) shapes[name] = { ...shared, ...own };
  for (const m of METHODS) shapes[m] = { ...shared, ...iterative, ...SOLVER_OPTIONS[m] };
  const union = solverUnion(shapes, fallback).superRefine((p, ctx) => {
    const v = p as Partial<IterativeSettings>;
    if (v.learning_rate !== "invscaling") refuseInert(ctx, v.power_t, POWER_T, "power_t", `unless learning_rate is "invscaling"`);
    if (v.batch_size === null) refuseInert(ctx, v.shuffle, true, "shuffle", "with full-batch updates (batch_size null)");
  });
  return union as unknown as z.ZodType<P>;
}

export function minimizeOptions(params: IterativeSettings, ctx: FitContext): MinimizeOptions {
  return {
    method: params.solver,
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
