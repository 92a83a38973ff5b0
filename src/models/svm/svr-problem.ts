/**
 * ε-SVR dual in libsvm's 2l-variable form: α_i (target above the tube) and α*_i
 * (below) with p = (ε − y, ε + y), signs (+1, −1). The coefficient of row i is
 * α_i − α*_i and f(x) = Σ coef_i K(x_i, x) − ρ.
 */
import { SvrQ } from "./q-matrix.js";
import { solveSmo, type SolverResult } from "./smo-solver.js";
import type { KernelSpec } from "./kernel.js";
import type { SmoSettings } from "./svc-problem.js";

export interface SvrSolution {
  /** Rows with a nonzero coefficient, ascending. */
  support: Int32Array;
  coef: Float64Array;
  intercept: number;
  solver: SolverResult;
}

export function solveSvr(
  X: Float64Array,
  n: number,
  d: number,
  y: Float64Array,
  C: Float64Array,
  epsilon: number,
  kernel: KernelSpec,
  settings: SmoSettings,
): SvrSolution {
  const p = new Float64Array(2 * n);
  const signs = new Int8Array(2 * n);
  const C2 = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    p[i] = epsilon - y[i];
    p[i + n] = epsilon + y[i];
    signs[i] = 1;
    signs[i + n] = -1;
    C2[i] = C[i];
    C2[i + n] = C[i];
  }
  const Q = new SvrQ(X, n, d, kernel, settings.cacheBytes);
  const result = solveSmo(2 * n, Q, p, signs, new Float64Array(2 * n), C2, {
    eps: settings.tol,
    shrinking: settings.shrinking,
    maxIter: settings.maxIter,
    signal: settings.signal,
    progress: settings.progress,
  });
  const support: number[] = [];
  const coef: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = result.alpha[i] - result.alpha[i + n];
    if (c !== 0) {
      support.push(i);
      coef.push(c);
    }
  }
  return { support: Int32Array.from(support), coef: Float64Array.from(coef), intercept: -result.rho, solver: result };
}
