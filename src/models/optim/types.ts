import type { Rng } from "../../data/random.js";
import type { StepperKind } from "./steppers.js";

/** "gd" is plain (stochastic) gradient descent; the other first-order names are the steppers of steppers.ts. */
export type FirstOrderMethod = "gd" | Exclude<StepperKind, "sgd">;
export type Method = FirstOrderMethod | "newton" | "dfp" | "bfgs" | "lbfgs";

export const FIRST_ORDER_METHODS: readonly FirstOrderMethod[] = ["gd", "momentum", "nesterov", "adagrad", "rmsprop", "adam"];
export const METHODS: readonly Method[] = [...FIRST_ORDER_METHODS, "newton", "dfp", "bfgs", "lbfgs"];

/**
 * constant: η throughout; invscaling: η / (t + 1)^power_t after t updates;
 * adaptive: η divided by 5 whenever the loss fails to improve by tol for
 * N_ITER_NO_CHANGE consecutive epochs (scikit-learn's MLP), stopping below 1e-6·η.
 */
export type LearningRateSchedule = "constant" | "invscaling" | "adaptive";

export interface MinimizeOptions {
  method: Method;
  /** Iterations for second-order and quasi-Newton methods; epochs (passes over the terms) for first-order ones. Default 1000. */
  maxIter?: number;
  /** Converged when max_i |∇f(x)_i| ≤ tol (the pseudo-gradient under an L1 penalty). Default 1e-6. */
  tol?: number;
  learningRate?: number;
  schedule?: LearningRateSchedule;
  powerT?: number;
  /** Terms per update for first-order methods; null or ≥ terms means full batch, 1 is stochastic. */
  batchSize?: number | null;
  /** Reshuffle the terms every epoch (mini-batch only). Needs rng. */
  shuffle?: boolean;
  rng?: Rng;
  momentum?: number;
  beta1?: number;
  beta2?: number;
  epsilon?: number;
  rho?: number;
  /** L-BFGS history length. Default 10. */
  memory?: number;
  /** Per-coordinate L1 weights λ_j: minimises f(x) + Σ λ_j|x_j|. Only gd (proximal) and lbfgs (OWL-QN). */
  l1?: Float64Array;
  signal?: import("../contract.js").AbortFlag;
  /** Called after each iteration (epoch for first-order methods). */
  onIteration?: (iteration: number, loss: number) => void;
}

export interface MinimizeResult {
  x: Float64Array;
  iterations: number;
  /** Objective at x, including any L1 term. */
  loss: number;
  /** max_i |∇f(x)_i| (pseudo-gradient under L1). */
  gradNorm: number;
  converged: boolean;
}

/** Epochs without improvement before the loss plateau counts (stochastic runs) or the adaptive rate drops. */
export const N_ITER_NO_CHANGE = 10;
