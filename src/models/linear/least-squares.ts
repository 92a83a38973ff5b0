/**
 * Weighted least squares min Σ w_i (y_i − b − x_iᵀβ)² (+ α‖β‖² for ridge) on the
 * centred, √w-scaled design, streamed through cache-sized blocks of rows.
 *
 * Well-conditioned designs (κ(X) < 1e5 once the columns are scaled to a common
 * size, estimated from the Cholesky factor of the small Gram matrix at O(p²)
 * cost, as LAPACK's dpocon does) take the fast path: normal equations by Cholesky, then steps
 * of iterative refinement on the true residual, which bring the error from
 * κ²·ε down to the rounding level of QR at about half its cost. Everything else — rank
 * deficiency (one-hot columns with an intercept, duplicated features), near
 * collinearity — goes the way LAPACK's gelsd (scikit-learn's LinearRegression)
 * does: Householder QR, then the SVD of the small R factor (ml-matrix) for the
 * minimum-norm solution with singular values below rcond·σ_max dropped. Nothing
 * singular is ever inverted.
 */
import { Matrix, SingularValueDecomposition } from "ml-matrix";
import { equilibratedCholesky } from "../optim/cholesky.js";
import { featureValues, type FeatureColumn } from "../../data/indicator-columns.js";
import { indicatorLeastSquares } from "./indicator-least-squares.js";
import { indicatorLayout } from "./indicators.js";

export interface LeastSquaresResult {
  coef: Float64Array<ArrayBuffer>;
  intercept: number;
  rank: number;
  /** Σ w_i r_i² at the solution (without the ridge term). */
  residualSumOfSquares: number;
  method: "normal_equations" | "qr_svd";
}

const BLOCK_ROWS = 1024;
/** κ(X)² below which the refined normal equations are as accurate as QR. */
const FAST_PATH_CONDITION = 1e10;

interface Problem {
  columns: readonly Float64Array[];
  y: Float64Array;
  n: number;
  p: number;
  sqrtW: Float64Array | null;
  xMean: Float64Array;
  yMean: number;
}

export function leastSquares(
  sources: readonly FeatureColumn[],
  y: Float64Array,
  n: number,
  options: { fitIntercept: boolean; weights?: Float64Array; rcond?: number; alpha?: number; /** Treat one-hot blocks as dense columns (tests compare the two). */ dense?: boolean },
): LeastSquaresResult {
  const p = sources.length;
  const w = options.weights;
  const alpha = options.alpha ?? 0;
  // One-hot blocks are solved from their non-zeros; the dense path is the fallback when that system is refused.
  const layout = options.dense ? null : indicatorLayout(sources, n);
  if (layout && layout.groups.length > 0) {
    const solved = indicatorLeastSquares(sources, y, n, layout, { fitIntercept: options.fitIntercept, weights: w, alpha, maxCondition: FAST_PATH_CONDITION });
    if (solved) return { ...solved, rank: p, method: "normal_equations" };
  }
  const columns = sources.map(featureValues);
  let total = n;
  if (w) {
    total = 0;
    for (let i = 0; i < n; i++) total += w[i];
  }
  const mean = (c: Float64Array): number => {
    if (!options.fitIntercept) return 0;
    let s = 0;
    if (w) for (let i = 0; i < n; i++) s += w[i] * c[i];
    else for (let i = 0; i < n; i++) s += c[i];
    return s / total;
  };
  const problem: Problem = {
    columns,
    y,
    n,
    p,
    sqrtW: w ? w.map(Math.sqrt) : null,
    xMean: Float64Array.from(columns, mean),
    yMean: mean(y),
  };
  const solved = normalEquations(problem, alpha) ?? qrSvd(problem, alpha, options.rcond);
  let intercept = 0;
  if (options.fitIntercept) {
    intercept = problem.yMean;
    for (let j = 0; j < p; j++) intercept -= problem.xMean[j] * solved.coef[j];
  }
  return { ...solved, intercept };
}

/** Copies rows start … start+len of the centred, √w-scaled [X | y] into a column-major block. */
function fillBlock(pr: Problem, block: Float64Array, stride: number, start: number, len: number): void {
  const m = pr.p + 1;
  for (let j = 0; j < m; j++) {
    const c = j < pr.p ? pr.columns[j] : pr.y;
    const shift = j < pr.p ? pr.xMean[j] : pr.yMean;
    const o = j * stride;
    const sw = pr.sqrtW;
    if (sw) for (let i = 0; i < len; i++) block[o + i] = (c[start + i] - shift) * sw[start + i];
    else for (let i = 0; i < len; i++) block[o + i] = c[start + i] - shift;
  }
}

function normalEquations(pr: Problem, alpha: number): Omit<LeastSquaresResult, "intercept"> | null {
  const { n, p } = pr;
  const m = p + 1;
  const gram = new Float64Array(m * m);
  const rows = Math.min(n, BLOCK_ROWS);
  const block = new Float64Array(rows * m);
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const len = Math.min(BLOCK_ROWS, n - start);
    fillBlock(pr, block, rows, start, len);
    accumulateGram(gram, m, block, rows, len);
  }
  const a = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) a[i * p + j] = a[j * p + i] = gram[i * m + j];
    a[i * p + i] += alpha;
  }
  // A Gram matrix that overflowed (values past ~1e154 squared) says nothing about the problem: QR, which
  // never squares the data, decides instead.
  if (!a.every(Number.isFinite)) return null;
  const factor = equilibratedCholesky(a, p);
  if (!factor || !(factor.condition <= FAST_PATH_CONDITION)) return null;

  const coef = new Float64Array(p);
  // Only the lower triangle is accumulated: Xᵀy is row p.
  for (let j = 0; j < p; j++) coef[j] = gram[p * m + j];
  factor.solve(coef);
  const residual = new Float64Array(n);
  const correction = new Float64Array(p);
  // Refine until the correction is at rounding level: once for most designs, a
  // second time near the κ limit.
  for (let step = 0; step < 3; step++) {
    residualAndGradient(pr, coef, alpha, residual, correction);
    factor.solve(correction);
    let change = 0;
    let size = 0;
    for (let j = 0; j < p; j++) {
      coef[j] += correction[j];
      change = Math.max(change, Math.abs(correction[j]));
      size = Math.max(size, Math.abs(coef[j]));
    }
    if (change <= 1e-13 * size) break;
  }
  // RSS = yᵀy − 2βᵀXᵀy + βᵀXᵀXβ from the Gram matrix: a diagnostic, so no extra pass.
  let rss = gram[p * m + p];
  for (let i = 0; i < p; i++) {
    rss -= 2 * coef[i] * gram[p * m + i];
    for (let j = 0; j < p; j++) rss += coef[i] * coef[j] * gram[Math.max(i, j) * m + Math.min(i, j)];
  }
  rss = Math.max(0, rss);
  return { coef, rank: p, residualSumOfSquares: rss, method: "normal_equations" };
}

/** Lower triangle of Σ over the block of col_a·col_b, two b columns per pass over a. */
function accumulateGram(gram: Float64Array, m: number, block: Float64Array, stride: number, len: number): void {
  for (let a = 0; a < m; a++) {
    const oa = a * stride;
    let b = 0;
    for (; b + 1 <= a; b += 2) {
      const ob = b * stride;
      const oc = ob + stride;
      let s1 = 0;
      let s2 = 0;
      for (let i = 0; i < len; i++) {
        const v = block[oa + i];
        s1 += v * block[ob + i];
        s2 += v * block[oc + i];
      }
      gram[a * m + b] += s1;
      gram[a * m + b + 1] += s2;
    }
    for (; b <= a; b++) {
      const ob = b * stride;
      let s = 0;
      for (let i = 0; i < len; i++) s += block[oa + i] * block[ob + i];
      gram[a * m + b] += s;
    }
  }
}

/**
 * r = √w ⊙ ((y − ȳ) − (X − x̄)β) over all rows, g = (X − x̄)ᵀ(√w ⊙ r) − αβ: the
 * negative gradient, whose solve against the Cholesky factor is the refinement step.
 * Returns Σ r².
 */
function residualAndGradient(pr: Problem, coef: Float64Array, alpha: number, r: Float64Array, g: Float64Array): number {
  const { n, p, columns, sqrtW, xMean } = pr;
  let offset = pr.yMean;
  for (let j = 0; j < p; j++) offset -= xMean[j] * coef[j];
  for (let i = 0; i < n; i++) r[i] = pr.y[i] - offset;
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    const b = coef[j];
    for (let i = 0; i < n; i++) r[i] -= b * c[i];
  }
  let rss = 0;
  if (sqrtW) {
    for (let i = 0; i < n; i++) {
      rss += sqrtW[i] * sqrtW[i] * r[i] * r[i];
      r[i] *= sqrtW[i] * sqrtW[i];
    }
  } else {
    for (let i = 0; i < n; i++) rss += r[i] * r[i];
  }
  // Σ_i w_i r_i (x_ij − x̄_j) = Σ_i w_i r_i x_ij − x̄_j Σ_i w_i r_i
  let rsum = 0;
  for (let i = 0; i < n; i++) rsum += r[i];
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    let s = 0;
    for (let i = 0; i < n; i++) s += r[i] * c[i];
    g[j] = s - xMean[j] * rsum - alpha * coef[j];
  }
  return rss;
}

function qrSvd(pr: Problem, alpha: number, rcond: number | undefined): Omit<LeastSquaresResult, "intercept"> {
  const { n, p } = pr;
  // Householder QR of [X | y] streamed through a block of rows (a sequential
  // TSQR): t holds the running triangular factor of everything seen so far.
  const m = p + 1;
  const t = new Float64Array(m * m);
  const rows = Math.min(n, BLOCK_ROWS);
  const block = new Float64Array(rows * m);
  for (let start = 0; start < n; start += BLOCK_ROWS) {
    const len = Math.min(BLOCK_ROWS, n - start);
    fillBlock(pr, block, rows, start, len);
    absorbBlock(t, m, block, rows, len);
  }
  if (alpha) {
    // Ridge as least squares on [X; √α I], [y; 0]: the penalty rows pass through
    // the same reflections, so α = 0 and rank deficiency need no special case.
    const ridge = new Float64Array(p * m);
    const root = Math.sqrt(alpha);
    for (let j = 0; j < p; j++) ridge[j * p + j] = root;
    absorbBlock(t, m, ridge, p, p);
  }
  const k = Math.min(n, p);
  const r = new Matrix(k, p);
  for (let i = 0; i < k; i++) for (let j = i; j < p; j++) r.set(i, j, t[i * m + j]);
  const qty = new Float64Array(k);
  for (let i = 0; i < k; i++) qty[i] = t[i * m + p];
  // Rows k…p of the last column of t: the part of y no column can reach.
  let residualSumOfSquares = 0;
  for (let i = k; i < m; i++) residualSumOfSquares += t[i * m + p] ** 2;

  const svd = new SingularValueDecomposition(r, { autoTranspose: true });
  const sigma = svd.diagonal;
  const u = svd.leftSingularVectors;
  const v = svd.rightSingularVectors;
  const sigmaMax = sigma.reduce((a, s) => Math.max(a, s), 0);
  const cutoff = (rcond ?? Number.EPSILON * Math.max(n, p)) * sigmaMax;
  const coef = new Float64Array(p);
  let rank = 0;
  let explained = 0;
  for (let s = 0; s < sigma.length; s++) {
    if (!(sigma[s] > cutoff)) continue;
    rank++;
    let uc = 0;
    for (let i = 0; i < k; i++) uc += u.get(i, s) * qty[i];
    explained += uc * uc;
    const f = uc / sigma[s];
    for (let j = 0; j < p; j++) coef[j] += f * v.get(j, s);
  }
  if (rank < k) {
    // Dropped directions leave part of Qᵀy unexplained: it belongs to the residual.
    let qq = 0;
    for (let i = 0; i < k; i++) qq += qty[i] * qty[i];
    residualSumOfSquares += Math.max(0, qq - explained);
  }
  if (alpha) {
    // The √α rows' share of the stacked residual is the penalty, not misfit.
    let penalty = 0;
    for (let j = 0; j < p; j++) penalty += alpha * coef[j] * coef[j];
    residualSumOfSquares = Math.max(0, residualSumOfSquares - penalty);
  }
  return { coef, rank, residualSumOfSquares, method: "qr_svd" };
}

/**
 * Triangularises [t; block] in place: t (m × m, row-major, upper triangular)
 * becomes the R factor of t stacked on the first `len` rows of `block`
 * (column-major, `stride` rows per column). Because t is triangular, the
 * reflector for column c touches only t's row c and the block's column c.
 */
function absorbBlock(t: Float64Array, m: number, block: Float64Array, stride: number, len: number): void {
  for (let c = 0; c < m; c++) {
    const o = c * stride;
    const tcc = t[c * m + c];
    let norm2 = tcc * tcc;
    for (let i = 0; i < len; i++) norm2 += block[o + i] * block[o + i];
    if (norm2 === tcc * tcc) continue;
    const norm = Math.sqrt(norm2);
    const alpha = tcc >= 0 ? -norm : norm;
    const v0 = tcc - alpha;
    const beta = 2 / (norm2 - tcc * tcc + v0 * v0);
    // Two target columns per pass: the reflector column is read half as often.
    let j = c + 1;
    for (; j + 1 < m; j += 2) {
      const oj = j * stride;
      const ok = oj + stride;
      let s1 = v0 * t[c * m + j];
      let s2 = v0 * t[c * m + j + 1];
      for (let i = 0; i < len; i++) {
        const v = block[o + i];
        s1 += v * block[oj + i];
        s2 += v * block[ok + i];
      }
      s1 *= beta;
      s2 *= beta;
      t[c * m + j] -= s1 * v0;
      t[c * m + j + 1] -= s2 * v0;
      for (let i = 0; i < len; i++) {
        const v = block[o + i];
        block[oj + i] -= s1 * v;
        block[ok + i] -= s2 * v;
      }
    }
    if (j < m) {
      const oj = j * stride;
      let s1 = v0 * t[c * m + j];
      for (let i = 0; i < len; i++) s1 += block[o + i] * block[oj + i];
      s1 *= beta;
      t[c * m + j] -= s1 * v0;
      for (let i = 0; i < len; i++) block[oj + i] -= s1 * block[o + i];
    }
    t[c * m + c] = alpha;
  }
}
