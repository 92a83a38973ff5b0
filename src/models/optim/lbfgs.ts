/**
 * Limited-memory BFGS (two-loop recursion, strong Wolfe line search). With an L1
 * term it becomes OWL-QN (Andrew & Gao 2007): the direction is built from the
 * pseudo-gradient, kept in the orthant it starts in, and the line search projects
 * back onto that orthant, so coefficients reach exact zeros.
 */
import { dot, l1Value, norm2, normInf, pseudoGradient, type Objective } from "./objective.js";
import { Descent } from "./descent.js";
import { strongWolfe } from "./line-search.js";
import type { MinimizeOptions, MinimizeResult } from "./types.js";

class History {
  private readonly s: Float64Array[] = [];
  private readonly y: Float64Array[] = [];
  private readonly rho: number[] = [];
  /** Per pair sᵀy and yᵀy, for γ = sᵀy / yᵀy without two more passes over the parameters. */
  private readonly sy: number[] = [];
  private readonly yy: number[] = [];
  private readonly alpha: Float64Array;

  constructor(private readonly memory: number) {
    this.alpha = new Float64Array(memory);
  }

  get length(): number {
    return this.s.length;
  }

  clear(): void {
    this.s.length = 0;
    this.y.length = 0;
    this.rho.length = 0;
    this.sy.length = 0;
    this.yy.length = 0;
  }

  /**
   * Keeps the pair only when sᵀy > 0, so the implied Hessian stays positive definite. sᵀy, sᵀs
   * and yᵀy are summed in one pass, each in index order on its own (the same doubles as three
   * dot products, three chains of adds in flight instead of one).
   */
  push(s: Float64Array, y: Float64Array): void {
    let sy = 0;
    let ss = 0;
    let yy = 0;
    for (let j = 0; j < s.length; j++) {
      const a = s[j];
      const b = y[j];
      sy += a * b;
      ss += a * a;
      yy += b * b;
    }
    if (!(sy > 1e-10 * Math.sqrt(ss) * Math.sqrt(yy))) return;
    if (this.s.length === this.memory) {
      const oldS = this.s.shift()!;
      const oldY = this.y.shift()!;
      this.rho.shift();
      this.sy.shift();
      this.yy.shift();
      oldS.set(s);
      oldY.set(y);
      this.s.push(oldS);
      this.y.push(oldY);
    } else {
      this.s.push(Float64Array.from(s));
      this.y.push(Float64Array.from(y));
    }
    this.rho.push(1 / sy);
    this.sy.push(sy);
    this.yy.push(yy);
  }

  /**
   * d ← −H·g by the two-loop recursion. Each update of d is fused with the dot product
   * the next step takes of it (the same products, summed in the same order: the same
   * doubles as separate dot and axpy passes), so d is walked 2k + 1 times, not 4k + 2 —
   * with 12 classes × 700 one-hot levels the loop is a sixth of a logistic fit. Returns dᵀg, summed
   * in the last pass (which has no other sum): the same double as dot(d, g).
   */
  direction(g: Float64Array, d: Float64Array): number {
    const k = this.s.length;
    const m = d.length;
    let slope = 0;
    if (k === 0) {
      for (let j = 0; j < m; j++) {
        const v = -g[j];
        d[j] = v;
        slope += v * g[j];
      }
      return slope;
    }
    const { s, y, rho, alpha } = this;
    const gamma = this.sy[k - 1] / this.yy[k - 1];
    let acc = 0;
    const first = s[k - 1];
    for (let j = 0; j < m; j++) {
      const v = -g[j];
      d[j] = v;
      acc += first[j] * v;
    }
    for (let i = k - 1; i >= 0; i--) {
      const a = rho[i] * acc;
      alpha[i] = a;
      const c = -a;
      const yi = y[i];
      acc = 0;
      if (i > 0) {
        const next = s[i - 1];
        for (let j = 0; j < m; j++) {
          const v = d[j] + c * yi[j];
          d[j] = v;
          acc += next[j] * v;
        }
      } else {
        // The last update, the scaling by γ and the second loop's first dot product.
        const next = y[0];
        for (let j = 0; j < m; j++) {
          const v = (d[j] + c * yi[j]) * gamma;
          d[j] = v;
          acc += next[j] * v;
        }
      }
    }
    for (let i = 0; i < k; i++) {
      const c = alpha[i] - rho[i] * acc;
      const si = s[i];
      if (i + 1 < k) {
        const next = y[i + 1];
        acc = 0;
        for (let j = 0; j < m; j++) {
          const v = d[j] + c * si[j];
          d[j] = v;
          acc += next[j] * v;
        }
      } else {
        for (let j = 0; j < m; j++) {
          const v = d[j] + c * si[j];
          d[j] = v;
          slope += v * g[j];
        }
      }
    }
    return slope;
  }
}

export function lbfgs(objective: Objective, x0: Float64Array, options: MinimizeOptions): MinimizeResult {
  if (options.l1 && options.l1.some((v) => v > 0)) return owlqn(objective, x0, options, options.l1);
  const n = objective.size;
  const history = new History(options.memory ?? 10);
  const it = new Descent(x0, options);
  const d = new Float64Array(n);
  const s = new Float64Array(n);
  const y = new Float64Array(n);

  it.start(objective.valueAndGradient(it.x, it.g));
  while (it.running()) {
    const g = it.g;
    let slope = history.direction(g, d);
    if (!(slope < 0)) {
      history.clear();
      slope = history.direction(g, d);
    }
    const firstStep = history.length === 0;
    let ls = strongWolfe(objective, it.x, it.f, g, d, it.xNew, it.gNew, firstStep ? Math.min(1, 1 / Math.max(norm2(g), 1e-300)) : 1, undefined, undefined, undefined, slope);
    if (!ls.ok && !firstStep) {
      history.clear();
      history.direction(g, d);
      ls = strongWolfe(objective, it.x, it.f, g, d, it.xNew, it.gNew, Math.min(1, 1 / Math.max(norm2(g), 1e-300)));
    }
    if (!ls.ok) break;
    it.differences(s, y);
    history.push(s, y);
    it.accept(ls.f);
  }
  return it.result();
}

function owlqn(objective: Objective, x0: Float64Array, options: MinimizeOptions, l1: Float64Array): MinimizeResult {
  const n = objective.size;
  const history = new History(options.memory ?? 10);
  const it = new Descent(x0, options);
  const pg = new Float64Array(n);
  const d = new Float64Array(n);
  const orthant = new Float64Array(n);
  const s = new Float64Array(n);
  const y = new Float64Array(n);
  const pseudoNorm = (): number => {
    pseudoGradient(it.x, it.g, l1, pg);
    return normInf(pg);
  };

  it.start(objective.valueAndGradient(it.x, it.g) + l1Value(it.x, l1), pseudoNorm());
  while (it.running()) {
    const { x, xNew, gNew } = it;
    history.direction(pg, d);
    for (let i = 0; i < n; i++) {
      if (d[i] * pg[i] >= 0) d[i] = 0;
      orthant[i] = x[i] !== 0 ? Math.sign(x[i]) : -Math.sign(pg[i]);
    }
    let slope = dot(pg, d);
    if (!(slope < 0)) {
      history.clear();
      for (let i = 0; i < n; i++) d[i] = -pg[i];
      slope = dot(pg, d);
    }
    // Backtracking on the projected path; the sufficient-decrease test uses the
    // actual displacement, which differs from αd wherever a coordinate was clipped.
    let alpha = history.length === 0 ? Math.min(1, 1 / Math.max(norm2(pg), 1e-300)) : 1;
    let fNew = Infinity;
    let accepted = false;
    for (let k = 0; k < 60; k++) {
      for (let i = 0; i < n; i++) {
        const v = x[i] + alpha * d[i];
        xNew[i] = Math.sign(v) === orthant[i] ? v : 0;
      }
      fNew = objective.valueAndGradient(xNew, gNew) + l1Value(xNew, l1);
      let decrease = 0;
      for (let i = 0; i < n; i++) decrease += pg[i] * (xNew[i] - x[i]);
      if (fNew <= it.f + 1e-4 * decrease) {
        accepted = true;
        break;
      }
      alpha *= 0.5;
    }
    if (!accepted) break;
    it.differences(s, y);
    history.push(s, y);
    it.accept(fNew, pseudoNorm);
  }
  return it.result();
}
