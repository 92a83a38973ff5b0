/**
 * What `minimize` needs from a loss. Models write one of these over their own
 * typed-array data; the optimisers never see rows or features.
 */
export interface Objective {
  /** Number of parameters. */
  readonly size: number;
  /** Loss at x; writes ∇loss(x) into grad. */
  valueAndGradient(x: Float64Array, grad: Float64Array): number;
  /** Row-major size × size Hessian at x (Newton's method only). */
  hessian?(x: Float64Array, out: Float64Array): void;
  /** Number of additive terms (rows), for mini-batch and stochastic methods. */
  readonly terms?: number;
  /**
   * Loss and gradient over the terms order[start], …, order[end − 1], scaled so that
   * a batch of every term equals valueAndGradient (a mean, with the penalty once per batch).
   */
  batchValueAndGradient?(x: Float64Array, grad: Float64Array, order: Int32Array, start: number, end: number): number;
}

export function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

export function normInf(a: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    const v = Math.abs(a[i]);
    if (v > m) m = v;
  }
  return m;
}

export function norm2(a: Float64Array): number {
  return Math.sqrt(dot(a, a));
}

/** Σ λ_j |x_j|. */
export function l1Value(x: Float64Array, l1: Float64Array): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += l1[i] * Math.abs(x[i]);
  return s;
}

/**
 * The minimum-norm subgradient of f + Σ λ_j|x_j| (OWL-QN's pseudo-gradient):
 * zero exactly where x_j = 0 and |g_j| ≤ λ_j, which is where the L1 optimum sits.
 */
export function pseudoGradient(x: Float64Array, g: Float64Array, l1: Float64Array, out: Float64Array): void {
  for (let j = 0; j < x.length; j++) {
    const lam = l1[j];
    if (x[j] > 0) out[j] = g[j] + lam;
    else if (x[j] < 0) out[j] = g[j] - lam;
    else if (g[j] + lam < 0) out[j] = g[j] + lam;
    else if (g[j] - lam > 0) out[j] = g[j] - lam;
    else out[j] = 0;
  }
}

/** Relative decrease small enough that further steps only move rounding noise (scipy's ftol as scikit-learn sets it). */
export const FTOL = 64 * Number.EPSILON;

export function stalled(previous: number, current: number): boolean {
  return previous - current <= FTOL * Math.max(Math.abs(previous), Math.abs(current), 1);
}
