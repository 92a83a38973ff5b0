/**
 * Large Margin Nearest Neighbour (seed 002, metric learning; Weinberger & Saul 2009):
 * the linear map L (c × d) under which every row's `k` target neighbours (its k
 * nearest rows of the same class in the input space, fixed before optimising) are
 * pulled close, and every row of another class (an impostor) is pushed at least one
 * unit further away than each target neighbour:
 *
 *   ε(L) = (1 − μ) Σ_i Σ_{j⇝i} ‖L(x_i − x_j)‖²
 *        + μ Σ_i Σ_{j⇝i} Σ_{l: y_l ≠ y_i} [1 + ‖L(x_i − x_j)‖² − ‖L(x_i − x_l)‖²]_+ .
 *
 * Minimised by L-BFGS through src/models/optim with nca.ts's stopping rule, as
 * pylmnn (the scikit-learn-contrib implementation) does on the same hinge loss; the
 * hinge makes ε piecewise quadratic, and the gradient below is its (sub)gradient,
 * exact wherever no triple sits on its margin.
 *
 * Gradient: ∂‖Lv‖²/∂L = 2 L v vᵀ, so ∇ε = 2 L C with C = Σ w_il (x_i − x_l)(x_i − x_l)ᵀ
 * over the pairs' weights (1 − μ + μ·#active impostors for a target pair, −μ for an
 * active impostor pair). C is accumulated without an outer product per pair: with
 * u_i = Σ_l w_il, v_l = Σ_i w_il and z_i = Σ_l w_il x_l,
 * C = Σ_i (u_i + v_i) x_i x_iᵀ − Σ_i (x_i z_iᵀ + z_i x_iᵀ).
 * One evaluation: O(n²(c + k)) time for the distances and hinges, O(n(c + d) + d²)
 * memory (no n × n matrix); the step bounds n.
 */
import type { AbortFlag } from "../contract.js";
import { throwIfAborted } from "../contract.js";
import type { Objective } from "../optim/minimize.js";
import { lbfgsWithFtol, pcaInit } from "./nca.js";

export interface LmnnOptions {
  readonly components: number;
  /** Target neighbours per row (fewer where its class is smaller). */
  readonly neighbors: number;
  /** μ: the weight of the push (impostor) term, 1 − μ the pull's. */
  readonly pushWeight: number;
  readonly init: "identity" | "pca";
  readonly maxIter: number;
  readonly tol: number;
  readonly signal?: AbortFlag;
}

export interface LmnnResult {
  /** c × d row-major. */
  readonly components: Float64Array<ArrayBuffer>;
  readonly iterations: number;
  readonly converged: boolean;
  readonly loss: number;
  /** Active (row, target, impostor) triples at the end: margin violations left. */
  readonly impostors: number;
}

/**
 * Each row's k nearest same-class rows by Euclidean distance in the input space
 * (ties: lower row index), as a flat n × k list with −1 where the class has fewer
 * than k other rows. A plain per-class scan: done once per fit, O(n² d) at most, on
 * the n the step allows (the shared index in src/data/neighbors would need one per class).
 */
export function targetNeighbors(X: Float64Array, n: number, d: number, y: Int32Array, k: number): Int32Array {
  const out = new Int32Array(n * k).fill(-1);
  const byClass = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const rows = byClass.get(y[i]);
    if (rows) rows.push(i);
    else byClass.set(y[i], [i]);
  }
  const dist = new Float64Array(n);
  for (const rows of byClass.values()) {
    for (const i of rows) {
      for (const j of rows) {
        let s = 0;
        for (let a = 0; a < d; a++) {
          const t = X[i * d + a] - X[j * d + a];
          s += t * t;
        }
        dist[j] = s;
      }
      const others = rows.filter((j) => j !== i).sort((a, b) => dist[a] - dist[b] || a - b);
      for (let r = 0; r < Math.min(k, others.length); r++) out[i * k + r] = others[r];
    }
  }
  return out;
}

export interface LmnnObjective extends Objective {
  /** Active triples at the last evaluation. */
  active(): number;
}

/** ε and ∇ε at L for rows X (n × d, row-major), labels y and the n × k target list. */
export function lmnnObjective(X: Float64Array, n: number, d: number, y: Int32Array, targets: Int32Array, k: number, c: number, mu: number, signal?: AbortFlag): LmnnObjective {
  const E = new Float64Array(n * c);
  const w = new Float64Array(n);
  const colWeight = new Float64Array(n);
  const rowWeight = new Float64Array(n);
  const Z = new Float64Array(n * d);
  const C = new Float64Array(d * d);
  const targetDist = new Float64Array(k);
  let active = 0;
  const sq = (i: number, l: number) => {
    let s = 0;
    for (let a = 0; a < c; a++) {
      const t = E[i * c + a] - E[l * c + a];
      s += t * t;
    }
    return s;
  };
  return {
    size: c * d,
    active: () => active,
    valueAndGradient(L, grad) {
      for (let i = 0; i < n; i++) {
        for (let a = 0; a < c; a++) {
          let s = 0;
          for (let j = 0; j < d; j++) s += X[i * d + j] * L[a * d + j];
          E[i * c + a] = s;
        }
      }
      let loss = 0;
      active = 0;
      colWeight.fill(0);
      rowWeight.fill(0);
      Z.fill(0);
      for (let i = 0; i < n; i++) {
        if (i % 256 === 0) throwIfAborted(signal);
        // w holds row i's pair weights w_il; only the target and active impostor entries are touched.
        for (let r = 0; r < k; r++) {
          const j = targets[i * k + r];
          if (j < 0) continue;
          targetDist[r] = sq(i, j);
          loss += (1 - mu) * targetDist[r];
          w[j] += 1 - mu;
        }
        for (let l = 0; l < n; l++) {
          if (y[l] === y[i]) continue;
          const dl = sq(i, l);
          for (let r = 0; r < k; r++) {
            const j = targets[i * k + r];
            if (j < 0) continue;
            const h = 1 + targetDist[r] - dl;
            if (h <= 0) continue;
            loss += mu * h;
            active++;
            w[j] += mu;
            w[l] -= mu;
          }
        }
        // Fold row i's weights into u_i, v_l, z_i, and clear them.
        const flush = (l: number) => {
          const wl = w[l];
          if (wl === 0) return;
          rowWeight[i] += wl;
          colWeight[l] += wl;
          for (let a = 0; a < d; a++) Z[i * d + a] += wl * X[l * d + a];
          w[l] = 0;
        };
        for (let r = 0; r < k; r++) if (targets[i * k + r] >= 0) flush(targets[i * k + r]);
        for (let l = 0; l < n; l++) if (y[l] !== y[i]) flush(l);
      }
      C.fill(0);
      for (let i = 0; i < n; i++) {
        const s = rowWeight[i] + colWeight[i];
        for (let a = 0; a < d; a++) {
          const xa = X[i * d + a];
          const za = Z[i * d + a];
          for (let b = 0; b < d; b++) C[a * d + b] += s * xa * X[i * d + b] - xa * Z[i * d + b] - za * X[i * d + b];
        }
      }
      for (let a = 0; a < c; a++) {
        for (let b = 0; b < d; b++) {
          let s = 0;
          for (let m = 0; m < d; m++) s += L[a * d + m] * C[m * d + b];
          grad[a * d + b] = 2 * s;
        }
      }
      return loss;
    },
  };
}

export function fitLmnn(X: Float64Array, n: number, d: number, y: Int32Array, options: LmnnOptions): LmnnResult {
  const c = options.components;
  const k = options.neighbors;
  let x0: Float64Array;
  if (options.init === "pca") x0 = pcaInit(X, n, d, c);
  else {
    x0 = new Float64Array(c * d);
    for (let a = 0; a < Math.min(c, d); a++) x0[a * d + a] = 1;
  }
  const targets = targetNeighbors(X, n, d, y, k);
  const objective = lmnnObjective(X, n, d, y, targets, k, c, options.pushWeight, options.signal);
  const r = lbfgsWithFtol(objective, x0, options);
  // Evaluate once more at the kept point, for its loss and its remaining impostors.
  const loss = objective.valueAndGradient(r.x, new Float64Array(c * d));
  return { components: r.x, iterations: r.iterations, converged: r.converged, loss, impostors: objective.active() };
}
