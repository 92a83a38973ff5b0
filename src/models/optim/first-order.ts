/**
 * Gradient descent and its adaptive relatives, full-batch or over mini-batches.
 * Seed 000/001: the plain rule, momentum, Nesterov, AdaGrad, RMSProp, Adam.
 * With an L1 term only plain gd is allowed, as proximal gradient descent (a
 * soft-threshold after each step), which is exact for that rule alone.
 */
import { shuffleInPlace } from "../../data/random.js";
import { throwIfAborted } from "../contract.js";
import { l1Value, normInf, pseudoGradient, type Objective } from "./objective.js";
import { createScheduledStepper } from "./steppers.js";
import { N_ITER_NO_CHANGE, type FirstOrderMethod, type MinimizeOptions, type MinimizeResult } from "./types.js";

export function firstOrder(objective: Objective, x0: Float64Array, options: MinimizeOptions & { method: FirstOrderMethod }): MinimizeResult {
  const size = objective.size;
  const maxIter = options.maxIter ?? 1000;
  const tol = options.tol ?? 1e-6;
  const eta0 = options.learningRate ?? 0.01;
  const schedule = options.schedule ?? "constant";
  const powerT = options.powerT ?? 0.5;
  const l1 = options.l1;
  if (l1 && options.method !== "gd") throw new Error(`an L1 penalty needs method gd or lbfgs, not ${options.method}`);

  const terms = objective.terms ?? 0;
  const batch = options.batchSize ?? null;
  const miniBatch = batch !== null && batch < terms;
  if (miniBatch && !objective.batchValueAndGradient) throw new Error("this objective has no mini-batch gradient");
  if (miniBatch && options.shuffle !== false && !options.rng) throw new Error("shuffled mini-batches need an rng");

  let updates = 0;
  let eta = eta0;
  const rate = (): number => (schedule === "invscaling" ? eta0 / Math.pow(updates + 1, powerT) : eta);
  const kind = options.method === "gd" ? "sgd" : options.method;
  const stepper = createScheduledStepper(kind, size, { ...options, learningRate: eta0 }, rate);

  const x = Float64Array.from(x0);
  const g = new Float64Array(size);
  const pg = new Float64Array(size);
  const order = new Int32Array(terms);
  for (let i = 0; i < terms; i++) order[i] = i;

  const step = (): void => {
    const lr = rate();
    stepper.step(x, g);
    updates++;
    if (l1) softThreshold(x, l1, lr);
  };
  const fullLoss = (): [number, number] => {
    const f = objective.valueAndGradient(x, g);
    if (!l1) return [f, normInf(g)];
    pseudoGradient(x, g, l1, pg);
    return [f + l1Value(x, l1), normInf(pg)];
  };

  let [loss, gradNorm] = fullLoss();
  let best = loss;
  let noChange = 0;
  let iterations = 0;
  let converged = gradNorm <= tol;
  while (!converged && iterations < maxIter) {
    throwIfAborted(options.signal);
    if (miniBatch) {
      if (options.shuffle !== false && options.rng) shuffleInPlace(order, options.rng);
      for (let start = 0; start < terms; start += batch) {
        objective.batchValueAndGradient!(x, g, order, start, Math.min(terms, start + batch));
        step();
      }
    } else {
      step();
    }
    iterations++;
    [loss, gradNorm] = fullLoss();
    options.onIteration?.(iterations, loss);
    if (!Number.isFinite(loss)) break;
    if (gradNorm <= tol) {
      converged = true;
      break;
    }
    // The plateau test (scikit-learn's SGD/MLP stopping rule) is what stops a
    // stochastic run, whose gradient never gets small with a constant rate.
    if (loss > best - tol * Math.max(1, Math.abs(best))) noChange++;
    else noChange = 0;
    if (loss < best) best = loss;
    if (noChange >= N_ITER_NO_CHANGE) {
      if (schedule === "adaptive") {
        eta /= 5;
        noChange = 0;
        if (eta < 1e-6 * eta0) {
          converged = miniBatch;
          break;
        }
      } else if (miniBatch) {
        converged = true;
        break;
      }
    }
  }
  return { x, iterations, loss, gradNorm, converged };
}

function softThreshold(x: Float64Array, l1: Float64Array, lr: number): void {
  for (let j = 0; j < x.length; j++) {
    const t = lr * l1[j];
    const v = x[j];
    x[j] = v > t ? v - t : v < -t ? v + t : 0;
  }
}
