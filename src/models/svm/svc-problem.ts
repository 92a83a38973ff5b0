/**
 * The binary C-SVC dual, set up as libsvm sets it up so our solutions line up with
 * scikit-learn's SVC: rows grouped by class (class 0 first, each in input order),
 * class 0 as libsvm's +1, p = −1, per-row bounds C_i. The result is then turned to
 * our orientation, where f(x) > 0 means class 1 (as scikit-learn's public
 * decision_function does for two classes).
 */
import { SvcQ } from "./q-matrix.js";
import { solveSmo, type SolverOptions, type SolverResult } from "./smo-solver.js";
import type { KernelSpec } from "./kernel.js";

export interface SvcSolution {
  /** Row indices of the support vectors: class 0's then class 1's, each ascending. */
  support: Int32Array;
  /** Dual coefficients in our orientation (−y_libsvm·α: negative for class 0, positive for class 1). */
  coef: Float64Array;
  intercept: number;
  /** Support vectors of class 0 and class 1. */
  nSupport: [number, number];
  /** The raw dual solution by input row (α ≥ 0) and the solver's report, for KKT checks. */
  alpha: Float64Array;
  solver: SolverResult;
}

export interface SmoSettings {
  tol: number;
  shrinking: boolean;
  maxIter: number | null;
  cacheBytes: number;
  signal?: import("../contract.js").AbortFlag;
  progress?: (fraction: number) => void;
}

export function solveSvc(
  X: Float64Array,
  n: number,
  d: number,
  isClass1: Uint8Array,
  C: Float64Array,
  kernel: KernelSpec,
  settings: SmoSettings,
): SvcSolution {
  const order = new Int32Array(n);
  let k = 0;
  for (let i = 0; i < n; i++) if (!isClass1[i]) order[k++] = i;
  const n0 = k;
  for (let i = 0; i < n; i++) if (isClass1[i]) order[k++] = i;

  const Xo = new Float64Array(n * d);
  const y = new Int8Array(n);
  const Co = new Float64Array(n);
  const p = new Float64Array(n).fill(-1);
  for (let r = 0; r < n; r++) {
    const i = order[r];
    Xo.set(X.subarray(i * d, i * d + d), r * d);
    y[r] = r < n0 ? 1 : -1;
    Co[r] = C[i];
  }
  const options: SolverOptions = { eps: settings.tol, shrinking: settings.shrinking, maxIter: settings.maxIter, signal: settings.signal, progress: settings.progress };
  const Q = new SvcQ(Xo, n, d, y, kernel, settings.cacheBytes);
  const result = solveSmo(n, Q, p, y, new Float64Array(n), Co, options);

  const support: number[] = [];
  const coef: number[] = [];
  let nsv0 = 0;
  const alpha = new Float64Array(n);
  for (let r = 0; r < n; r++) {
    alpha[order[r]] = result.alpha[r];
    if (result.alpha[r] > 0) {
      support.push(order[r]);
      coef.push(-y[r] * result.alpha[r]);
      if (r < n0) nsv0++;
    }
  }
  const gradient = new Float64Array(n);
  for (let r = 0; r < n; r++) gradient[order[r]] = result.gradient[r];
  return {
    support: Int32Array.from(support),
    coef: Float64Array.from(coef),
    intercept: result.rho,
    nSupport: [nsv0, support.length - nsv0],
    alpha,
    solver: { ...result, alpha, gradient },
  };
}
