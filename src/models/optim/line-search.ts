/**
 * Line searches along a descent direction d from x. Both leave the accepted point
 * and its gradient in xNew / gNew so the caller does not evaluate it twice.
 */
import { dot, type Objective } from "./objective.js";

export interface LineSearchResult {
  ok: boolean;
  alpha: number;
  /** Loss at xNew. */
  f: number;
}

/** Armijo backtracking: halve α from alpha0 until f(x + αd) ≤ f0 + c1·α·∇f0ᵀd. */
export function backtracking(
  objective: Objective,
  x: Float64Array,
  f0: number,
  g0: Float64Array,
  d: Float64Array,
  xNew: Float64Array,
  gNew: Float64Array,
  alpha0 = 1,
  c1 = 1e-4,
  maxEvaluations = 60,
): LineSearchResult {
  const slope = dot(g0, d);
  if (!(slope < 0)) return { ok: false, alpha: 0, f: f0 };
  let alpha = alpha0;
  for (let k = 0; k < maxEvaluations; k++) {
    for (let i = 0; i < x.length; i++) xNew[i] = x[i] + alpha * d[i];
    const f = objective.valueAndGradient(xNew, gNew);
    if (f <= f0 + c1 * alpha * slope) return { ok: true, alpha, f };
    alpha *= 0.5;
  }
  return { ok: false, alpha: 0, f: f0 };
}

/**
 * Strong Wolfe conditions (Nocedal & Wright, Algorithms 3.5 and 3.6, cubic
 * interpolation in the zoom). The curvature condition guarantees sᵀy > 0, which
 * keeps the BFGS, DFP and L-BFGS updates positive definite.
 */
export function strongWolfe(
  objective: Objective,
  x: Float64Array,
  f0: number,
  g0: Float64Array,
  d: Float64Array,
  xNew: Float64Array,
  gNew: Float64Array,
  alpha0 = 1,
  c1 = 1e-4,
  c2 = 0.9,
  maxEvaluations = 40,
  /** g0ᵀd when the caller already has it (the same double as dot(g0, d)). */
  slope0 = dot(g0, d),
): LineSearchResult {
  if (!(slope0 < 0)) return { ok: false, alpha: 0, f: f0 };
  let evaluations = 0;
  let lastAlpha = NaN;
  const phi = (alpha: number): [number, number] => {
    evaluations++;
    lastAlpha = alpha;
    for (let i = 0; i < x.length; i++) xNew[i] = x[i] + alpha * d[i];
    const f = objective.valueAndGradient(xNew, gNew);
    return [f, dot(gNew, d)];
  };
  const armijo = (alpha: number, f: number): boolean => f <= f0 + c1 * alpha * slope0;
  const curvature = (slope: number): boolean => Math.abs(slope) <= -c2 * slope0;

  const zoom = (lo: number, hi: number, fLo: number, fHi: number, dLo: number, dHi: number): LineSearchResult => {
    while (evaluations < maxEvaluations) {
      const alpha = interpolate(lo, hi, fLo, fHi, dLo, dHi);
      const [f, slope] = phi(alpha);
      if (!Number.isFinite(f) || !armijo(alpha, f) || f >= fLo) {
        hi = alpha;
        fHi = f;
        dHi = slope;
      } else {
        if (curvature(slope)) return { ok: true, alpha, f };
        if (slope * (hi - lo) >= 0) {
          hi = lo;
          fHi = fLo;
          dHi = dLo;
        }
        lo = alpha;
        fLo = f;
        dLo = slope;
      }
      if (Math.abs(hi - lo) <= 1e-14 * Math.max(1, Math.abs(lo))) break;
    }
    // Out of budget: a step with sufficient decrease is still progress.
    if (lo > 0 && fLo < f0) {
      if (lastAlpha !== lo) phi(lo);
      return { ok: true, alpha: lo, f: fLo };
    }
    return { ok: false, alpha: 0, f: f0 };
  };

  let prevAlpha = 0;
  let prevF = f0;
  let prevSlope = slope0;
  let alpha = alpha0;
  for (let i = 0; evaluations < maxEvaluations; i++) {
    const [f, slope] = phi(alpha);
    if (!Number.isFinite(f)) {
      // Overshot into overflow: shrink towards the last good point.
      return zoom(prevAlpha, alpha, prevF, Infinity, prevSlope, NaN);
    }
    if (!armijo(alpha, f) || (i > 0 && f >= prevF)) return zoom(prevAlpha, alpha, prevF, f, prevSlope, slope);
    if (curvature(slope)) return { ok: true, alpha, f };
    if (slope >= 0) return zoom(alpha, prevAlpha, f, prevF, slope, prevSlope);
    prevAlpha = alpha;
    prevF = f;
    prevSlope = slope;
    alpha *= 2;
  }
  // Budget spent while still expanding: keep the last step that decreased the loss.
  if (prevAlpha > 0 && prevF < f0) return { ok: true, alpha: prevAlpha, f: phi(prevAlpha)[0] };
  return { ok: false, alpha: 0, f: f0 };
}

/** Minimiser of the cubic through both ends, kept well inside the bracket; bisection when it is not usable. */
function interpolate(lo: number, hi: number, fLo: number, fHi: number, dLo: number, dHi: number): number {
  const width = hi - lo;
  const mid = lo + 0.5 * width;
  if (!Number.isFinite(fHi) || !Number.isFinite(dHi)) return mid;
  const d1 = dLo + dHi - (3 * (fLo - fHi)) / (lo - hi);
  const disc = d1 * d1 - dLo * dHi;
  if (!(disc >= 0)) return mid;
  const d2 = Math.sign(width) * Math.sqrt(disc);
  const alpha = hi - (hi - lo) * ((dHi + d2 - d1) / (dHi - dLo + 2 * d2));
  const a = Math.min(lo, hi);
  const b = Math.max(lo, hi);
  const margin = 0.1 * (b - a);
  if (!Number.isFinite(alpha) || alpha < a + margin || alpha > b - margin) return mid;
  return alpha;
}
