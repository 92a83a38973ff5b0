/**
 * The normal equations of a design with one-hot blocks (indicators.ts), built from
 * the non-zeros: unknowns [intercept | dense columns, centred | indicator levels,
 * raw]. The intercept column absorbs the centring the indicators skip, so the
 * problem is the one the dense path solves, and every entry of the matrix is a
 * weighted count or a sum over the rows of one level.
 *
 * The largest block's levels are mutually exclusive, so their part of the matrix
 * is diagonal (level weight + α) and is eliminated exactly; the dense Schur
 * complement left is the size of everything else (for a 550-level director column
 * beside a few numerics and small blocks, a couple of hundred instead of 750), and
 * is solved by an equilibrated Cholesky whose condition estimate decides, as on
 * the dense path, whether the answer can be trusted. Refinement on the true
 * residual follows; a refused system (rank deficiency: the indicators of a block
 * with no empty row plus an intercept, α = 0) returns null for the dense path.
 */
import { featureValues, type FeatureColumn } from "../../data/indicator-columns.js";
import { equilibratedCholesky } from "../optim/cholesky.js";
import type { Layout } from "./indicators.js";

export interface StructuredResult {
  coef: Float64Array<ArrayBuffer>;
  intercept: number;
  residualSumOfSquares: number;
}

export function indicatorLeastSquares(
  columns: readonly FeatureColumn[],
  y: Float64Array,
  n: number,
  layout: Layout,
  options: { fitIntercept: boolean; weights?: Float64Array; alpha: number; maxCondition: number },
): StructuredResult | null {
  const { fitIntercept, weights: w, alpha } = options;
  const p = columns.length;
  const { dense } = layout;
  const bigAt = layout.groups.reduce((best, g, i, all) => (g.columns.length > all[best].columns.length ? i : best), 0);
  const big = layout.groups[bigAt];
  const others = layout.groups.filter((_, i) => i !== bigAt);
  const g = big.columns.length;
  const d = dense.length;
  const i0 = fitIntercept ? 1 : 0;
  // Position of each design column among the unknowns left after eliminating `big`.
  const restOf = new Int32Array(p).fill(-1);
  dense.forEach((j, a) => (restOf[j] = i0 + a));
  let r = i0 + d;
  for (const group of others) for (const j of group.columns) restOf[j] = r++;

  let total = n;
  if (w) {
    total = 0;
    for (let i = 0; i < n; i++) total += w[i];
  }
  const mean = (c: Float64Array): number => {
    if (!fitIntercept) return 0;
    let s = 0;
    if (w) for (let i = 0; i < n; i++) s += w[i] * c[i];
    else for (let i = 0; i < n; i++) s += c[i];
    return s / total;
  };
  const means = Float64Array.from(dense, (j) => mean(featureValues(columns[j])));
  const xc = Array.from(dense, (j, a) => featureValues(columns[j]).map((v) => v - means[a]));
  const yMean = mean(y);
  const yc = y.map((v) => v - yMean);

  const R = new Float64Array(r * r);
  // Level-major (row k holds level k's entries against the other unknowns), so each level's updates read one contiguous row.
  const B = new Float64Array(g * r);
  const D = new Float64Array(g);
  const rhsR = new Float64Array(r);
  const rhsB = new Float64Array(g);
  const wx = new Float64Array(n);
  for (let a = 0; a < d; a++) {
    const ca = xc[a];
    for (let i = 0; i < n; i++) wx[i] = (w ? w[i] : 1) * ca[i];
    for (let b = 0; b <= a; b++) {
      const cb = xc[b];
      let s = 0;
      for (let i = 0; i < n; i++) s += wx[i] * cb[i];
      R[(i0 + a) * r + i0 + b] = s;
    }
    let sy = 0;
    let s0 = 0;
    for (let i = 0; i < n; i++) {
      sy += wx[i] * yc[i];
      s0 += wx[i];
    }
    rhsR[i0 + a] = sy;
    if (fitIntercept) R[(i0 + a) * r] = s0;
  }
  const present = new Int32Array(others.length);
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    if (wi === 0) continue;
    const wy = wi * yc[i];
    if (fitIntercept) {
      R[0] += wi;
      rhsR[0] += wy;
    }
    let m = 0;
    for (const group of others) {
      const k = group.codes[i];
      if (k >= 0) present[m++] = restOf[group.columns[k]];
    }
    for (let u = 0; u < m; u++) {
      const t = present[u];
      if (fitIntercept) R[t * r] += wi;
      for (let a = 0; a < d; a++) R[t * r + i0 + a] += wi * xc[a][i];
      for (let v = 0; v < m; v++) if (present[v] <= t) R[t * r + present[v]] += wi;
      rhsR[t] += wy;
    }
    const k = big.codes[i];
    if (k >= 0) {
      D[k] += wi;
      rhsB[k] += wy;
      if (fitIntercept) B[k * r] += wi;
      for (let a = 0; a < d; a++) B[k * r + i0 + a] += wi * xc[a][i];
      for (let u = 0; u < m; u++) B[k * r + present[u]] += wi;
    }
  }
  for (let t = i0; t < r; t++) R[t * r + t] += alpha;
  for (let k = 0; k < g; k++) {
    D[k] += alpha;
    if (!(D[k] > 0)) return null;
  }
  // Schur complement R − Bᵀ D⁻¹ B, lower triangle, then mirrored. A level meets only the
  // intercept, the dense columns and the levels it shares rows with: its update is over those.
  const nonzero = new Int32Array(r);
  for (let k = 0; k < g; k++) {
    const row = k * r;
    let count = 0;
    for (let a = 0; a < r; a++) if (B[row + a] !== 0) nonzero[count++] = a;
    const inv = 1 / D[k];
    for (let u = 0; u < count; u++) {
      const a = nonzero[u];
      const f = B[row + a] * inv;
      for (let v = 0; v <= u; v++) R[a * r + nonzero[v]] -= f * B[row + nonzero[v]];
    }
  }
  for (let a = 0; a < r; a++) for (let b = 0; b < a; b++) R[b * r + a] = R[a * r + b];
  if (!R.every(Number.isFinite)) return null;
  const factor = r > 0 ? equilibratedCholesky(R, r) : { condition: 1, solve: () => {} };
  if (!factor || !(factor.condition <= options.maxCondition)) return null;

  /** Overwrites (tR, tB) with the solution of the full system for right-hand side (tR, tB). */
  const solve = (tR: Float64Array, tB: Float64Array): void => {
    for (let k = 0; k < g; k++) {
      const f = tB[k] / D[k];
      if (f === 0) continue;
      for (let a = 0; a < r; a++) tR[a] -= B[k * r + a] * f;
    }
    factor.solve(tR);
    for (let k = 0; k < g; k++) {
      let s = tB[k];
      for (let a = 0; a < r; a++) s -= B[k * r + a] * tR[a];
      tB[k] = s / D[k];
    }
  };

  const thetaR = Float64Array.from(rhsR);
  const thetaB = Float64Array.from(rhsB);
  solve(thetaR, thetaB);
  const residual = new Float64Array(n);
  const fillResidual = (): number => {
    let rss = 0;
    for (let i = 0; i < n; i++) {
      let s = yc[i] - (fitIntercept ? thetaR[0] : 0);
      for (let a = 0; a < d; a++) s -= xc[a][i] * thetaR[i0 + a];
      for (const group of others) {
        const k = group.codes[i];
        if (k >= 0) s -= thetaR[restOf[group.columns[k]]];
      }
      const k = big.codes[i];
      if (k >= 0) s -= thetaB[k];
      residual[i] = s;
      rss += (w ? w[i] : 1) * s * s;
    }
    return rss;
  };
  const gR = new Float64Array(r);
  const gB = new Float64Array(g);
  for (let step = 0; step < 3; step++) {
    fillResidual();
    // The negative gradient of ½(objective): Xᵀ W res − α θ, in the same coordinates.
    gR.fill(0);
    gB.fill(0);
    for (let i = 0; i < n; i++) {
      const wr = (w ? w[i] : 1) * residual[i];
      if (fitIntercept) gR[0] += wr;
      for (let a = 0; a < d; a++) gR[i0 + a] += wr * xc[a][i];
      for (const group of others) {
        const k = group.codes[i];
        if (k >= 0) gR[restOf[group.columns[k]]] += wr;
      }
      const k = big.codes[i];
      if (k >= 0) gB[k] += wr;
    }
    for (let t = i0; t < r; t++) gR[t] -= alpha * thetaR[t];
    for (let k = 0; k < g; k++) gB[k] -= alpha * thetaB[k];
    solve(gR, gB);
    let change = 0;
    let size = 0;
    for (let t = 0; t < r; t++) {
      thetaR[t] += gR[t];
      change = Math.max(change, Math.abs(gR[t]));
      size = Math.max(size, Math.abs(thetaR[t]));
    }
    for (let k = 0; k < g; k++) {
      thetaB[k] += gB[k];
      change = Math.max(change, Math.abs(gB[k]));
      size = Math.max(size, Math.abs(thetaB[k]));
    }
    if (change <= 1e-13 * size) break;
  }
  const residualSumOfSquares = fillResidual();

  const coef = new Float64Array(p);
  for (let j = 0; j < p; j++) if (restOf[j] >= 0) coef[j] = thetaR[restOf[j]];
  big.columns.forEach((j, k) => (coef[j] = thetaB[k]));
  let intercept = 0;
  if (fitIntercept) {
    intercept = yMean + thetaR[0];
    dense.forEach((j, a) => (intercept -= means[a] * coef[j]));
  }
  return { coef, intercept, residualSumOfSquares };
}
