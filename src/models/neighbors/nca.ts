/**
 * Neighbourhood Components Analysis (seed 002, metric learning; Goldberger et al.
 * 2004): the linear map A (c × d) maximising the expected number of training rows
 * that a stochastic nearest neighbour classifies correctly in the space x ↦ Ax,
 *
 *   p_ij = exp(−‖Ax_i − Ax_j‖²) / Σ_{k≠i} exp(−‖Ax_i − Ax_k‖²),  p_ii = 0,
 *   f(A) = Σ_i Σ_{j: y_j = y_i} p_ij,
 *
 * by L-BFGS (src/models/optim) on −f. The gradient is scikit-learn's form:
 * ∇f = 2 Eᵀ W X with E = XAᵀ and W the symmetrised (masked p − p·p_i) matrix
 * whose diagonal makes its rows sum to zero. Each evaluation costs O(n²(c + 1) + ncd)
 * time and one n × n matrix: the step bounds n before it is called.
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import type { AbortFlag } from "../contract.js";
import { minimize, type Objective } from "../optim/minimize.js";

export interface NcaOptions {
  readonly components: number;
  readonly init: "identity" | "pca";
  readonly maxIter: number;
  readonly tol: number;
  readonly signal?: AbortFlag;
}

export interface NcaResult {
  /** c × d row-major. */
  readonly components: Float64Array<ArrayBuffer>;
  readonly iterations: number;
  readonly converged: boolean;
  /** f(A) / n: the expected leave-one-out accuracy of the stochastic neighbour at the end. */
  readonly score: number;
}

/** −f and −∇f at A for rows X (n × d, row-major) with class indices y. */
export function ncaObjective(X: Float64Array, n: number, d: number, y: Int32Array, c: number): Objective {
  const E = new Float64Array(n * c);
  const P = new Float64Array(n * n);
  const p = new Float64Array(n);
  const EtW = new Float64Array(c * n);
  return {
    size: c * d,
    valueAndGradient(A, grad) {
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < c; a++) {
          let s = 0;
          for (let j = 0; j < d; j++) s += X[i * d + j] * A[a * d + j];
          E[i * c + a] = s;
        }
      }
      let loss = 0;
      for (let i = 0; i < n; i++) {
        // Softmax of −distance over j ≠ i, shifted by the nearest for stability.
        let nearest = Infinity;
        for (let j = 0; j < n; j++) {
          if (j === i) continue;
          let s = 0;
          for (let a = 0; a < c; a++) {
            const t = E[i * c + a] - E[j * c + a];
            s += t * t;
          }
          P[i * n + j] = s;
          if (s < nearest) nearest = s;
        }
        let total = 0;
        for (let j = 0; j < n; j++) {
          if (j === i) {
            P[i * n + j] = 0;
            continue;
          }
          const e = Math.exp(nearest - P[i * n + j]);
          P[i * n + j] = e;
          total += e;
        }
        let same = 0;
        for (let j = 0; j < n; j++) {
          P[i * n + j] /= total;
          if (y[j] === y[i]) same += P[i * n + j];
        }
        p[i] = same;
        loss += same;
      }
      // W_ij = [y_i = y_j] p_ij − p_ij p_i, in place; then (W + Wᵀ) with the diagonal −Σ_i W_ij.
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) P[i * n + j] = (y[i] === y[j] ? P[i * n + j] : 0) - P[i * n + j] * p[i];
      const colSum = new Float64Array(n);
      for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) colSum[j] += P[i * n + j];
      for (let i = 0; i < n; i++) {
        for (let j = i + 1; j < n; j++) {
          const s = P[i * n + j] + P[j * n + i];
          P[i * n + j] = s;
          P[j * n + i] = s;
        }
        P[i * n + i] = -colSum[i];
      }
      // ∇f = 2 (Eᵀ W) X; returned negated, as is the loss.
      EtW.fill(0);
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < c; a++) {
          const e = E[i * c + a];
          if (e === 0) continue;
          for (let j = 0; j < n; j++) EtW[a * n + j] += e * P[i * n + j];
        }
      }
      grad.fill(0);
      for (let a = 0; a < c; a++) {
        for (let j = 0; j < n; j++) {
          const w = 2 * EtW[a * n + j];
          if (w === 0) continue;
          for (let k = 0; k < d; k++) grad[a * d + k] -= w * X[j * d + k];
        }
      }
      return -loss;
    },
  };
}

/** The top-c principal directions of X (rows of the result), scikit-learn's init "pca" up to signs. */
export function pcaInit(X: Float64Array, n: number, d: number, c: number): Float64Array {
  const mean = new Float64Array(d);
  for (let i = 0; i < n; i++) for (let j = 0; j < d; j++) mean[j] += X[i * d + j] / n;
  const cov = Matrix.zeros(d, d);
  for (let i = 0; i < n; i++) {
    for (let a = 0; a < d; a++) {
      const va = X[i * d + a] - mean[a];
      for (let b = a; b < d; b++) cov.set(a, b, cov.get(a, b) + va * (X[i * d + b] - mean[b]));
    }
  }
  for (let a = 0; a < d; a++) for (let b = 0; b < a; b++) cov.set(a, b, cov.get(b, a));
  const evd = new EigenvalueDecomposition(cov, { assumeSymmetric: true });
  const values = evd.realEigenvalues;
  const order = values.map((_, i) => i).sort((a, b) => values[b] - values[a] || a - b);
  const V = evd.eigenvectorMatrix;
  const out = new Float64Array(c * d);
  for (let a = 0; a < c; a++) for (let j = 0; j < d; j++) out[a * d + j] = V.get(j, order[a]);
  return out;
}

/** Thrown from inside the optimiser to stop it once scipy's ftol test passes. */
class Converged extends Error {}

/**
 * Stopping as scikit-learn's NCA stops: it hands `tol` to scipy's L-BFGS-B, which ends
 * when the gradient's largest entry is ≤ tol (our optimiser's own test) or when an
 * iteration lowers the objective by at most tol · max(|f_k|, |f_k+1|, 1) (ftol). The
 * second test is applied here: the optimiser reports each iteration's objective, the
 * next evaluation then stops it, and the best point evaluated so far is kept.
 * (Shared with lmnn.ts, which stops the same way.)
 */
export function lbfgsWithFtol(inner: Objective, x0: Float64Array, options: { maxIter: number; tol: number; signal?: AbortFlag }): { x: Float64Array<ArrayBuffer>; loss: number; iterations: number; converged: boolean } {
  const best = Float64Array.from(x0);
  let bestLoss = Infinity;
  let previous = Infinity;
  let stop = false;
  let iterations = 0;
  const objective: Objective = {
    size: inner.size,
    valueAndGradient(x, grad) {
      if (stop) throw new Converged();
      const loss = inner.valueAndGradient(x, grad);
      if (previous === Infinity) previous = loss; // f_0, for the first iteration's test
      if (loss < bestLoss) {
        bestLoss = loss;
        best.set(x);
      }
      return loss;
    },
  };
  const onIteration = (iteration: number, loss: number) => {
    iterations = iteration;
    if (previous - loss <= options.tol * Math.max(Math.abs(previous), Math.abs(loss), 1)) stop = true;
    previous = loss;
  };
  try {
    const result = minimize(objective, x0, { method: "lbfgs", maxIter: options.maxIter, tol: options.tol, signal: options.signal, onIteration });
    return { x: Float64Array.from(result.x), loss: result.loss, iterations: result.iterations, converged: result.converged };
  } catch (e) {
    if (!(e instanceof Converged)) throw e;
    return { x: best, loss: bestLoss, iterations, converged: true };
  }
}

export function fitNca(X: Float64Array, n: number, d: number, y: Int32Array, options: NcaOptions): NcaResult {
  const c = options.components;
  let x0: Float64Array;
  if (options.init === "pca") {
    x0 = pcaInit(X, n, d, c);
  } else {
    x0 = new Float64Array(c * d);
    for (let a = 0; a < Math.min(c, d); a++) x0[a * d + a] = 1;
  }
  const r = lbfgsWithFtol(ncaObjective(X, n, d, y, c), x0, options);
  return { components: r.x, iterations: r.iterations, converged: r.converged, score: -r.loss / n };
}
