/**
 * Newton's method with an Armijo backtracking line search. Where the Hessian is
 * not positive definite (seed 001 ch. 5: the Newton direction may then not even
 * descend) a multiple of the identity is added until Cholesky succeeds
 * (Nocedal & Wright, Algorithm 3.3), moving the step towards steepest descent.
 */
import { choleskyInPlace, choleskySolveInPlace } from "./cholesky.js";
import type { Objective } from "./objective.js";
import { Descent } from "./descent.js";
import { backtracking } from "./line-search.js";
import type { MinimizeOptions, MinimizeResult } from "./types.js";

export function newton(objective: Objective, x0: Float64Array, options: MinimizeOptions): MinimizeResult {
  if (!objective.hessian) throw new Error("newton needs an objective with a Hessian");
  if (options.l1) throw new Error("an L1 penalty needs method gd or lbfgs, not newton");
  const n = objective.size;
  const it = new Descent(x0, options);
  const h = new Float64Array(n * n);
  const work = new Float64Array(n * n);
  const d = new Float64Array(n);

  it.start(objective.valueAndGradient(it.x, it.g));
  while (it.running()) {
    objective.hessian(it.x, h);
    if (!regularisedCholesky(h, work, n)) break;
    for (let i = 0; i < n; i++) d[i] = -it.g[i];
    choleskySolveInPlace(work, n, d);
    const ls = backtracking(objective, it.x, it.f, it.g, d, it.xNew, it.gNew, 1);
    if (!ls.ok) break;
    it.accept(ls.f);
  }
  return it.result();
}

/** Cholesky of H + τI into `out`, with the smallest τ of the doubling sequence that works. */
function regularisedCholesky(h: Float64Array, out: Float64Array, n: number): boolean {
  const beta = 1e-3;
  let minDiag = Infinity;
  let maxDiag = 0;
  for (let i = 0; i < n; i++) {
    minDiag = Math.min(minDiag, h[i * n + i]);
    maxDiag = Math.max(maxDiag, Math.abs(h[i * n + i]));
  }
  const scale = Math.max(maxDiag, 1e-12);
  let tau = minDiag > 0 ? 0 : -minDiag + beta * scale;
  for (let attempt = 0; attempt < 60; attempt++) {
    out.set(h);
    for (let i = 0; i < n; i++) out[i * n + i] += tau;
    if (choleskyInPlace(out, n)) return true;
    tau = Math.max(2 * tau, beta * scale);
  }
  return false;
}
