/**
 * mlp parameters, scikit-learn's names where it has the concept (hidden_layer_sizes,
 * activation, solver, learning_rate_init, momentum, beta_1, beta_2, epsilon, alpha,
 * batch_size, max_iter, tol, n_iter_no_change, shuffle, early_stopping,
 * validation_fraction); the seed's where it does not (bp, n_restarts).
 */
import { z } from "zod";
import { STEPPER_KINDS, type StepperKind } from "../optim/steppers.js";

export const mlpParams = z
  .object({
    /** Units of each hidden layer; [] is a network with no hidden layer. */
    hidden_layer_sizes: z.array(z.number().int().min(1).max(4096)).max(16).default([100]),
    /** Hidden units' activation; sigmoid is the seed's (scikit-learn calls it "logistic"). */
    activation: z.enum(["sigmoid", "tanh", "relu"]).default("sigmoid"),
    /** auto: softmax for 3+ classes, one sigmoid unit for 2, identity for regression. */
    output: z.enum(["auto", "softmax", "sigmoid", "identity"]).default("auto"),
    /** auto: cross-entropy for classification, squared error for regression. The seed's BP is sigmoid + squared_error. */
    loss: z.enum(["auto", "cross_entropy", "squared_error"]).default("auto"),
    /** standard: update after every row (the seed's 标准BP); accumulated: once per pass over all rows (累积BP); minibatch: every batch_size rows. */
    bp: z.enum(["standard", "accumulated", "minibatch"]).default("minibatch"),
    /** Rows per update with bp "minibatch" (capped at the training rows). */
    batch_size: z.number().int().min(1).default(200),
    solver: z.enum(STEPPER_KINDS as unknown as [StepperKind, ...StepperKind[]]).default("adam"),
    learning_rate_init: z.number().positive().default(0.001),
    /** momentum and nesterov solvers. */
    momentum: z.number().min(0).lt(1).default(0.9),
    beta_1: z.number().min(0).lt(1).default(0.9),
    beta_2: z.number().min(0).lt(1).default(0.999),
    epsilon: z.number().positive().default(1e-8),
    /** L2 penalty: ½·alpha·‖W‖² added to each update's mean loss over its b rows, divided by b (as scikit-learn). */
    alpha: z.number().nonnegative().default(1e-4),
    /** Epochs (passes over the training rows). */
    max_iter: z.number().int().min(1).max(100_000).default(200),
    /** Stop when the loss (validation loss with early_stopping) has not improved by tol for n_iter_no_change epochs. */
    tol: z.number().nonnegative().default(1e-4),
    n_iter_no_change: z.number().int().min(1).default(10),
    shuffle: z.boolean().default(true),
    /** Hold out validation_fraction of the training rows (seeded, stratified) and keep the weights with the lowest validation loss (seed 003). */
    early_stopping: z.boolean().default(false),
    validation_fraction: z.number().gt(0).lt(1).default(0.1),
    /** Extra trainings from other seeded initialisations; the best is kept (seed 003's first way out of local minima). */
    n_restarts: z.number().int().min(0).max(100).default(0),
  })
  .strict();

export type MlpParams = z.infer<typeof mlpParams>;
