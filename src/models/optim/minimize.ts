/**
 * One entry point for every optimiser a model may pick by name:
 * minimize(objective, x0, { method, maxIter, tol, … }) → { x, iterations, loss, gradNorm, converged }.
 * A run that stops at maxIter is returned as it is with converged: false; models
 * keep it and report the warning rather than failing.
 */
import { firstOrder } from "./first-order.js";
import { lbfgs } from "./lbfgs.js";
import { newton } from "./newton.js";
import type { Objective } from "./objective.js";
import { quasiNewton } from "./quasi-newton.js";
import type { FirstOrderMethod, MinimizeOptions, MinimizeResult } from "./types.js";

export type { Objective } from "./objective.js";
export * from "./types.js";

export function minimize(objective: Objective, x0: Float64Array, options: MinimizeOptions): MinimizeResult {
  if (x0.length !== objective.size) throw new Error(`x0 has ${x0.length} entries, the objective ${objective.size}`);
  switch (options.method) {
    case "newton":
      return newton(objective, x0, options);
    case "dfp":
    case "bfgs":
      return quasiNewton(objective, x0, { ...options, method: options.method });
    case "lbfgs":
      return lbfgs(objective, x0, options);
    default:
      return firstOrder(objective, x0, { ...options, method: options.method as FirstOrderMethod });
  }
}
