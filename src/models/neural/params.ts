/**
 * mlp parameters, scikit-learn's names where it has the concept (hidden_layer_sizes,
 * activation, solver, learning_rate_init, momentum, beta_1, beta_2, epsilon, alpha,
 * batch_size, max_iter, tol, n_iter_no_change, shuffle, early_stopping,
 * validation_fraction); the seed's where it does not (bp, n_restarts).
 *
 * A tagged union keyed by `solver` (STYLE.md §2): momentum only for momentum and
 * nesterov, beta_1/beta_2 only for adam, epsilon for adam, adagrad and rmsprop, rho
 * for rmsprop. Options another option makes inert (batch_size outside bp "minibatch",
 * shuffle under "accumulated", validation_fraction without early_stopping) are
 * refused when given a value other than their default.
 */
import { z } from "zod";
import type { StepperKind, StepperOptions } from "../optim/steppers.js";
import { refuseInert, solverUnion } from "../optim/solver-options.js";
import { MAX_SEARCH_EVALUATIONS, weightSearchSchema } from "./weight-search.js";

/**
 * Deeper plain-BP networks do not train on tabular data (vanishing gradients), and 8
 * layers of 1024 units are ~7.3 M weights: with gradient, Adam's two moments and the
 * kept best copy, ~300 MB — against ~12 GB for the 16 × 4096 this replaced.
 */
export const MAX_HIDDEN_LAYERS = 8;
export const MAX_HIDDEN_UNITS = 1024;
/** Epochs per run; every epoch is a pass over the rows. */
export const MAX_EPOCHS = 10_000;
/** Restarts multiply the whole training; 20 extra seeded runs already make a fit 21 times as long. */
export const MAX_RESTARTS = 20;
/**
 * Rows per update with bp "minibatch" (scikit-learn's default is 200). The batch's rows are
 * copied (batch × features); the network goes through them 1024 at a time (trainer.ts).
 * Past a few thousand rows a mini-batch is all but bp "accumulated", which says so.
 */
export const MAX_BATCH_SIZE = 4096;

const BATCH_SIZE = 200;
const VALIDATION_FRACTION = 0.1;

const shared = {
  /** Units of each hidden layer; [] is a network with no hidden layer. */
  hidden_layer_sizes: z.array(z.number().int().min(1).max(MAX_HIDDEN_UNITS)).max(MAX_HIDDEN_LAYERS).default([100]),
  /** Hidden units' activation; sigmoid is the seed's (scikit-learn calls it "logistic"). */
  activation: z.enum(["sigmoid", "tanh", "relu"]).default("sigmoid"),
  /** auto: softmax for 3+ classes, one sigmoid unit for 2, identity for regression. */
  output: z.enum(["auto", "softmax", "sigmoid", "identity"]).default("auto"),
  /** auto: cross-entropy for classification, squared error for regression. The seed's BP is sigmoid + squared_error. */
  loss: z.enum(["auto", "cross_entropy", "squared_error"]).default("auto"),
  /** standard: update after every row (the seed's 标准BP); accumulated: once per pass over all rows (累积BP); minibatch: every batch_size rows. */
  bp: z.enum(["standard", "accumulated", "minibatch"]).default("minibatch"),
  /** Rows per update with bp "minibatch" (capped at the training rows). */
  batch_size: z.number().int().min(1).max(MAX_BATCH_SIZE).default(BATCH_SIZE),
  learning_rate_init: z.number().positive().default(0.001),
  /** L2 penalty: ½·alpha·‖W‖² added to each update's mean loss over its b rows, divided by b (as scikit-learn). */
  alpha: z.number().nonnegative().default(1e-4),
  /** Epochs (passes over the training rows). */
  max_iter: z.number().int().min(1).max(MAX_EPOCHS).default(200),
  /** Stop when the loss (validation loss with early_stopping) has not improved by tol for n_iter_no_change epochs; 0 counts any improvement (max_iter still bounds the run). */
  tol: z.number().nonnegative().default(1e-4),
  n_iter_no_change: z.number().int().min(1).max(MAX_EPOCHS).default(10),
  /** Visit the rows in a new seeded order every epoch (not with bp "accumulated", where order does not matter). */
  shuffle: z.boolean().default(true),
  /** Hold out validation_fraction of the training rows (seeded, stratified) and keep the weights with the lowest validation loss (seed 003). */
  early_stopping: z.boolean().default(false),
  validation_fraction: z.number().gt(0).lt(1).default(VALIDATION_FRACTION),
  /** Extra trainings from other seeded initialisations; the best is kept (seed 003's first way out of local minima). */
  n_restarts: z.number().int().min(0).max(MAX_RESTARTS).default(0),
  /** glorot: scikit-learn's Glorot-uniform bounds; uniform_0_1: every weight and threshold in [0, 1), as the seed's BP pseudo-code. */
  init: z.enum(["glorot", "uniform_0_1"]).default("glorot"),
  /** Probability that a hidden unit is left out of a training pass (inverted dropout, seeded); 0: none. Prediction always uses every unit. */
  dropout: z.number().min(0).lt(1).default(0),
  /** A global search for the weights BP starts from (weight-search.ts): simulated annealing or a genetic algorithm, for tiny nets. */
  weight_search: weightSearchSchema,
};

const momentum = z.number().min(0).lt(1).default(0.9);
const epsilon = z.number().positive().default(1e-8);

const SOLVER_OPTIONS = {
  sgd: {},
  momentum: { momentum },
  nesterov: { momentum },
  adagrad: { epsilon },
  rmsprop: { rho: z.number().min(0).lt(1).default(0.9), epsilon },
  adam: { beta_1: z.number().min(0).lt(1).default(0.9), beta_2: z.number().min(0).lt(1).default(0.999), epsilon },
} as const satisfies Record<StepperKind, z.ZodRawShape>;

type Shared = { [K in keyof typeof shared]: z.infer<(typeof shared)[K]> };
export type MlpParams = Shared &
  (
    | { solver: "sgd" }
    | { solver: "momentum" | "nesterov"; momentum: number }
    | { solver: "adagrad"; epsilon: number }
    | { solver: "rmsprop"; rho: number; epsilon: number }
    | { solver: "adam"; beta_1: number; beta_2: number; epsilon: number }
  );

export const mlpParams = solverUnion(
  Object.fromEntries(Object.entries(SOLVER_OPTIONS).map(([name, own]) => [name, { ...shared, ...own }])),
  "adam",
).superRefine((p, ctx) => {
  const v = p as unknown as MlpParams;
  if (v.bp !== "minibatch") refuseInert(ctx, v.batch_size, BATCH_SIZE, "batch_size", `unless bp is "minibatch"`);
  if (v.bp === "accumulated") refuseInert(ctx, v.shuffle, true, "shuffle", 'with bp "accumulated"');
  if (!v.early_stopping) refuseInert(ctx, v.validation_fraction, VALIDATION_FRACTION, "validation_fraction", "without early_stopping");
  const search = v.weight_search;
  if (search.kind === "genetic" && search.population * search.generations > MAX_SEARCH_EVALUATIONS) {
    ctx.addIssue({ code: "custom", message: `population × generations is ${search.population * search.generations}; at most ${MAX_SEARCH_EVALUATIONS} evaluations`, path: ["weight_search", "generations"] });
  }
}) as unknown as z.ZodType<MlpParams>;

/** The stepper settings of the chosen solver (the others' are absent from params). */
export function stepperOptions(params: MlpParams): StepperOptions {
  const o = params as Partial<{ momentum: number; beta_1: number; beta_2: number; epsilon: number; rho: number }>;
  return { learningRate: params.learning_rate_init, momentum: o.momentum, beta1: o.beta_1, beta2: o.beta_2, epsilon: o.epsilon, rho: o.rho };
}
