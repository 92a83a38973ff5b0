/**
 * One training run of a network: epochs of updates in the chosen BP mode, an
 * optimiser stepper over the flat parameter vector, and the stopping rules.
 * With a validation set the run returns the parameters of its best validation
 * epoch (seed 003's early stopping), otherwise its last.
 */
import { permutation, type Rng } from "../../data/random.js";
import { UnusableInputError, throwIfAborted } from "../contract.js";
import { createStepper } from "../optim/steppers.js";
import { initialParams, Network, type NetworkSpec } from "./network.js";
import { stepperOptions, type MlpParams } from "./params.js";
import { searchWeights } from "./weight-search.js";

export interface Rows {
  X: Float64Array;
  Y: Float64Array;
  n: number;
}

export interface RunResult {
  params: Float64Array;
  /** Mean training loss per epoch (with the L2 term). */
  lossCurve: number[];
  /** Mean validation loss per epoch (empty without a validation set). */
  validationCurve: number[];
  /** Validation loss of the returned parameters (null without a validation set). */
  validationLoss: number | null;
  /** Loss the run is ranked by among restarts: validation loss, else the last training loss. */
  score: number;
  epochs: number;
}

/** Rows the network holds at once; a larger batch goes through in pieces of this size. */
export const CHUNK_ROWS = 1024;

export function batchSizeFor(params: Pick<MlpParams, "bp" | "batch_size">, n: number): number {
  if (params.bp === "standard") return 1;
  if (params.bp === "accumulated") return n;
  return Math.min(params.batch_size, n);
}

export function trainRun(
  spec: NetworkSpec,
  params: MlpParams,
  train: Rows,
  validation: Rows | null,
  rng: Rng,
  signal: import("../contract.js").AbortFlag | undefined,
  onEpoch: (epoch: number) => void,
  /** partial_fit: continue from these weights (copied) instead of a seeded initialisation and weight search. */
  start?: Float64Array,
): RunResult {
  const d = spec.sizes[0];
  const out = spec.sizes[spec.sizes.length - 1];
  const { n } = train;
  const B = batchSizeFor(params, n);
  // Activations and deltas are capacity × units per layer: bounded by CHUNK_ROWS, not by the rows or the batch.
  const w = start ? Float64Array.from(start) : initialParams(spec, rng, params.init);
  // The dropout masks draw from their own fork, taken only when dropout is on: without it the run's draws are as before.
  const dropout = params.dropout > 0 ? { rate: params.dropout, rng: rng.fork() } : null;
  const net = new Network(spec, Math.min(CHUNK_ROWS, Math.max(n, validation ? validation.n : 0)), dropout);
  // A global search, when asked for, moves the starting point (its own fork: without it the run's draws are as before).
  if (!start && params.weight_search.kind !== "none") w.set(searchWeights(params.weight_search, w, { net, X: train.X, Y: train.Y, n, alpha: params.alpha, init: params.init, signal }, rng.fork()));
  const grad = new Float64Array(w.length);
  const stepper = createStepper(params.solver, w.length, stepperOptions(params));
  const Xb = new Float64Array(B * d);
  const Yb = new Float64Array(B * out);
  const order = new Int32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;

  const lossCurve: number[] = [];
  const validationCurve: number[] = [];
  let best = Infinity;
  let bestParams: Float64Array | null = null;
  let stale = 0;
  let epochs = 0;
  for (let epoch = 0; epoch < params.max_iter; epoch++) {
    throwIfAborted(signal);
    if (params.shuffle) order.set(permutation(n, rng));
    let total = 0;
    for (let start = 0; start < n; start += B) {
      throwIfAborted(signal); // an epoch over many rows and wide layers can take seconds
      const b = Math.min(B, n - start);
      for (let r = 0; r < b; r++) {
        const i = order[start + r];
        Xb.set(train.X.subarray(i * d, i * d + d), r * d);
        Yb.set(train.Y.subarray(i * out, i * out + out), r * out);
      }
      total += net.lossAndGradient(w, Xb, Yb, b, params.alpha, grad) * b;
      stepper.step(w, grad);
    }
    const loss = total / n;
    if (!Number.isFinite(loss)) throw new UnusableInputError(`the training loss diverged at epoch ${epoch + 1}; lower learning_rate_init`);
    lossCurve.push(loss);
    epochs = epoch + 1;

    // Improvement is judged on the validation loss with early stopping, else on the training loss.
    const watched = validation ? net.meanLoss(w, validation.X, validation.Y, validation.n) : loss;
    if (validation) validationCurve.push(watched);
    if (watched < best - params.tol) stale = 0;
    else stale++;
    if (watched < best) {
      best = watched;
      if (validation) bestParams = Float64Array.from(w);
    }
    onEpoch(epoch + 1);
    if (stale >= params.n_iter_no_change) break;
  }
  const finalParams = bestParams ?? w;
  return {
    params: finalParams,
    lossCurve,
    validationCurve,
    validationLoss: validation ? best : null,
    score: validation ? best : (lossCurve[lossCurve.length - 1] ?? Infinity),
    epochs,
  };
}
