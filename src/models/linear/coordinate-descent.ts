/**
 * Elastic-net coordinate descent, the algorithm of scikit-learn's
 * cd_fast.enet_coordinate_descent, on centred (and √w-scaled) columns:
 *   min ½‖y − Xβ‖² + λ1‖β‖₁ + ½λ2‖β‖²
 * Each coordinate is solved exactly by soft thresholding, which is what puts
 * irrelevant coefficients at exactly zero. A sweep whose largest change is below
 * tol·max|β| triggers the duality-gap check, and the run has converged when the
 * gap is below tol·‖y‖², scikit-learn's criterion.
 */
import { throwIfAborted } from "../contract.js";
import type { Rng } from "../../data/random.js";

export interface CoordinateDescentResult {
  coef: Float64Array<ArrayBuffer>;
  iterations: number;
  gap: number;
  converged: boolean;
}

export function enetCoordinateDescent(
  columns: readonly Float64Array[],
  y: Float64Array,
  l1: number,
  l2: number,
  options: { maxIter: number; tol: number; rng?: Rng; signal?: import("../contract.js").AbortFlag },
): CoordinateDescentResult {
  const p = columns.length;
  const n = y.length;
  const w = new Float64Array(p);
  const residual = Float64Array.from(y);
  const norms = columns.map((c) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += c[i] * c[i];
    return s;
  });
  let yy = 0;
  for (let i = 0; i < n; i++) yy += y[i] * y[i];
  const gapTol = options.tol * yy;
  let gap = Infinity;
  let iterations = 0;
  let converged = false;

  for (let sweep = 0; sweep < options.maxIter; sweep++) {
    throwIfAborted(options.signal);
    iterations = sweep + 1;
    let wMax = 0;
    let dwMax = 0;
    for (let f = 0; f < p; f++) {
      const j = options.rng ? options.rng.int(p) : f;
      if (norms[j] === 0) continue;
      const c = columns[j];
      const old = w[j];
      let rho = 0;
      for (let i = 0; i < n; i++) rho += c[i] * residual[i];
      rho += norms[j] * old;
      const next = Math.sign(rho) * Math.max(Math.abs(rho) - l1, 0) / (norms[j] + l2);
      const delta = next - old;
      if (delta !== 0) {
        for (let i = 0; i < n; i++) residual[i] -= delta * c[i];
        w[j] = next;
      }
      dwMax = Math.max(dwMax, Math.abs(delta));
      wMax = Math.max(wMax, Math.abs(next));
    }
    if (wMax === 0 || dwMax / wMax < options.tol || sweep === options.maxIter - 1) {
      gap = dualityGap(columns, y, residual, w, l1, l2);
      if (gap < gapTol) {
        converged = true;
        break;
      }
    }
  }
  return { coef: w, iterations, gap, converged };
}

function dualityGap(columns: readonly Float64Array[], y: Float64Array, residual: Float64Array, w: Float64Array, l1: number, l2: number): number {
  const n = y.length;
  let dualNorm = 0;
  let wNorm2 = 0;
  let l1Norm = 0;
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j];
    let xr = 0;
    for (let i = 0; i < n; i++) xr += c[i] * residual[i];
    dualNorm = Math.max(dualNorm, Math.abs(xr - l2 * w[j]));
    wNorm2 += w[j] * w[j];
    l1Norm += Math.abs(w[j]);
  }
  let rNorm2 = 0;
  let ry = 0;
  for (let i = 0; i < n; i++) {
    rNorm2 += residual[i] * residual[i];
    ry += residual[i] * y[i];
  }
  let constant = 1;
  let gap = rNorm2;
  if (dualNorm > l1) {
    constant = l1 / dualNorm;
    gap = 0.5 * (rNorm2 + rNorm2 * constant * constant);
  }
  return gap + l1 * l1Norm - constant * ry + 0.5 * l2 * (1 + constant * constant) * wNorm2;
}
