/**
 * DFP and BFGS with a dense inverse-Hessian approximation and a strong Wolfe
 * line search (seed 001 ch. 6). The first approximation is scaled by sᵀy/yᵀy
 * (Nocedal & Wright eq. 6.20) so the unit step is well sized from the start.
 */
import { dot, norm2, type Objective } from "./objective.js";
import { Descent } from "./descent.js";
import { strongWolfe } from "./line-search.js";
import type { MinimizeOptions, MinimizeResult } from "./types.js";

export function quasiNewton(objective: Objective, x0: Float64Array, options: MinimizeOptions & { method: "dfp" | "bfgs" }): MinimizeResult {
  if (options.l1) throw new Error(`an L1 penalty needs method gd or lbfgs, not ${options.method}`);
  const n = objective.size;
  const bfgs = options.method === "bfgs";
  const it = new Descent(x0, options);
  const hInv = new Float64Array(n * n);
  const d = new Float64Array(n);
  const s = new Float64Array(n);
  const y = new Float64Array(n);
  const hy = new Float64Array(n);
  let fresh = true;
  const reset = (): void => {
    hInv.fill(0);
    for (let i = 0; i < n; i++) hInv[i * n + i] = 1;
    fresh = true;
  };
  reset();

  it.start(objective.valueAndGradient(it.x, it.g));
  while (it.running()) {
    const g = it.g;
    multiply(hInv, g, d, n, -1);
    if (!(dot(d, g) < 0)) {
      reset();
      for (let i = 0; i < n; i++) d[i] = -g[i];
    }
    const alpha0 = fresh && it.iterations === 0 ? Math.min(1, 1 / Math.max(norm2(g), 1e-300)) : 1;
    let ls = strongWolfe(objective, it.x, it.f, g, d, it.xNew, it.gNew, alpha0);
    if (!ls.ok && !fresh) {
      // A stale approximation can point nearly uphill: retry once along −g.
      reset();
      for (let i = 0; i < n; i++) d[i] = -g[i];
      ls = strongWolfe(objective, it.x, it.f, g, d, it.xNew, it.gNew, Math.min(1, 1 / Math.max(norm2(g), 1e-300)));
    }
    if (!ls.ok) break;
    it.differences(s, y);
    const sy = dot(s, y);
    if (sy > 1e-10 * norm2(s) * norm2(y)) {
      if (fresh) {
        const gamma = sy / dot(y, y);
        for (let i = 0; i < n; i++) hInv[i * n + i] = gamma;
        fresh = false;
      }
      multiply(hInv, y, hy, n, 1);
      const yhy = dot(y, hy);
      if (bfgs) {
        const a = (sy + yhy) / (sy * sy);
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) hInv[i * n + j] += a * s[i] * s[j] - (hy[i] * s[j] + s[i] * hy[j]) / sy;
        }
      } else {
        for (let i = 0; i < n; i++) {
          for (let j = 0; j < n; j++) hInv[i * n + j] += (s[i] * s[j]) / sy - (hy[i] * hy[j]) / yhy;
        }
      }
    }
    it.accept(ls.f);
  }
  return it.result();
}

function multiply(m: Float64Array, v: Float64Array, out: Float64Array, n: number, sign: number): void {
  for (let i = 0; i < n; i++) {
    let acc = 0;
    for (let j = 0; j < n; j++) acc += m[i * n + j] * v[j];
    out[i] = sign * acc;
  }
}
