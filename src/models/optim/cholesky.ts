/**
 * In-place Cholesky of a small row-major SPD matrix. Hand-written rather than
 * ml-matrix's because Newton and ridge call it every iteration on typed arrays
 * and need "not positive definite" as an answer, not an exception.
 */
export function choleskyInPlace(a: Float64Array, n: number): boolean {
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= a[j * n + k] * a[j * n + k];
    if (!(d > 0) || !Number.isFinite(d)) return false;
    const l = Math.sqrt(d);
    a[j * n + j] = l;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= a[i * n + k] * a[j * n + k];
      a[i * n + j] = s / l;
    }
  }
  return true;
}

/** Solves (L Lᵀ) x = b in place in b, L the lower triangle left by choleskyInPlace. */
export function choleskySolveInPlace(l: Float64Array, n: number, b: Float64Array): void {
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * b[k];
    b[i] = s / l[i * n + i];
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = b[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * b[k];
    b[i] = s / l[i * n + i];
  }
}

/**
 * Hager's estimate of ‖A⁻¹‖₁ from A's Cholesky factor, with Higham's alternating
 * vector as a safeguard (the idea of LAPACK's dpocon): a lower bound that is
 * rarely off by more than a small factor, at a few O(n²) solves instead of the
 * O(n³) eigen-decomposition or SVD an exact condition number costs.
 */
export function inverseNorm1Estimate(l: Float64Array, n: number): number {
  const norm1 = (v: Float64Array): number => v.reduce((s, x) => s + Math.abs(x), 0);
  const x = new Float64Array(n).fill(1 / n);
  let estimate = 0;
  for (let iter = 0; iter < 5; iter++) {
    const y = Float64Array.from(x);
    choleskySolveInPlace(l, n, y);
    const size = norm1(y);
    if (iter > 0 && size <= estimate) break;
    estimate = size;
    const z = y.map((v) => (v >= 0 ? 1 : -1));
    choleskySolveInPlace(l, n, z);
    let best = 0;
    for (let j = 1; j < n; j++) if (Math.abs(z[j]) > Math.abs(z[best])) best = j;
    let zx = 0;
    for (let j = 0; j < n; j++) zx += z[j] * x[j];
    if (iter > 0 && Math.abs(z[best]) <= zx) break;
    x.fill(0);
    x[best] = 1;
  }
  const alt = Float64Array.from({ length: n }, (_, i) => (i % 2 ? -1 : 1) * (1 + (n > 1 ? i / (n - 1) : 0)));
  choleskySolveInPlace(l, n, alt);
  return Math.max(estimate, (2 * norm1(alt)) / (3 * n));
}

/** A solver for A x = b from the Cholesky factor of D A D, D = diag(A)^−½, with that matrix's estimated 1-norm condition number. */
export interface EquilibratedCholesky {
  /** Overwrites b with A⁻¹ b. */
  solve(b: Float64Array): void;
  /** Estimated κ₁ of the equilibrated matrix: scaling the unknowns does not change it. */
  condition: number;
}

/**
 * Cholesky of a symmetric positive-definite row-major matrix (read, not changed)
 * after symmetric diagonal scaling to a unit diagonal. The scaling removes the
 * part of the condition number that only reflects the units of the columns (a
 * column in dollars beside one in minutes), so the condition estimate measures
 * collinearity alone. Null when the matrix is not numerically positive definite.
 */
export function equilibratedCholesky(a: Float64Array, n: number): EquilibratedCholesky | null {
  const d = new Float64Array(n);
  for (let j = 0; j < n; j++) {
    const v = a[j * n + j];
    if (!(v > 0) || !Number.isFinite(v)) return null;
    d[j] = 1 / Math.sqrt(v);
  }
  const l = new Float64Array(n * n);
  let norm = 0;
  for (let i = 0; i < n; i++) {
    let row = 0;
    for (let j = 0; j < n; j++) {
      const v = a[i * n + j] * d[i] * d[j];
      l[i * n + j] = v;
      row += Math.abs(v);
    }
    norm = Math.max(norm, row);
  }
  if (!choleskyInPlace(l, n)) return null;
  return {
    condition: norm * inverseNorm1Estimate(l, n),
    solve(b) {
      for (let j = 0; j < n; j++) b[j] *= d[j];
      choleskySolveInPlace(l, n, b);
      for (let j = 0; j < n; j++) b[j] *= d[j];
    },
  };
}
