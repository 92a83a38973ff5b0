/**
 * SMO for libsvm's dual form  min ½αᵀQα + pᵀα  s.t.  yᵀα = Δ, 0 ≤ α_i ≤ C_i,
 * a port of libsvm's Solver (Fan, Chen & Lin 2005): the working set is chosen by
 * second-order information (WSS3: i maximal violator, j maximising the objective
 * decrease), inactive bounded variables are shrunk away, and the full gradient is
 * rebuilt from G_bar before the final check so shrinking never changes the answer.
 *
 *   G_i     = (Qα + p)_i
 *   G_bar_i = Σ_{j at upper bound} C_j Q_ij   (lets the gradient of shrunk variables be rebuilt cheaply)
 */
import { throwIfAborted } from "../contract.js";
import type { QMatrix } from "./q-matrix.js";

const TAU = 1e-12;
const LOWER = 0;
const UPPER = 1;
const FREE = 2;

export interface SolverOptions {
  /** Stopping tolerance on the maximal KKT violation m(α) − M(α). */
  eps: number;
  shrinking: boolean;
  /** Iteration cap; null for libsvm's own max(10⁷, 100·l). */
  maxIter: number | null;
  signal?: import("../contract.js").AbortFlag;
  progress?: (fraction: number) => void;
}

export interface SolverResult {
  alpha: Float64Array;
  rho: number;
  objective: number;
  iterations: number;
  /** Final gradient by original index (for KKT checks). */
  gradient: Float64Array;
  /** Final maximal violation m(α) − M(α) over all variables. */
  gap: number;
  reachedMaxIter: boolean;
}

export function solveSmo(
  l: number,
  Q: QMatrix,
  pIn: Float64Array,
  yIn: Int8Array,
  alphaIn: Float64Array,
  CIn: Float64Array,
  options: SolverOptions,
): SolverResult {
  return new Solver(l, Q, pIn, yIn, alphaIn, CIn, options).solve();
}

class Solver {
  private readonly p: Float64Array;
  private readonly y: Int8Array;
  private readonly alpha: Float64Array;
  private readonly C: Float64Array;
  private readonly status: Uint8Array;
  private readonly activeSet: Int32Array;
  private readonly G: Float64Array;
  private readonly Gbar: Float64Array;
  private readonly QD: Float64Array;
  private activeSize: number;
  private unshrink = false;
  private outI = -1;
  private outJ = -1;
  private lastGap = Infinity;

  constructor(
    private readonly l: number,
    private readonly Q: QMatrix,
    pIn: Float64Array,
    yIn: Int8Array,
    alphaIn: Float64Array,
    CIn: Float64Array,
    private readonly options: SolverOptions,
  ) {
    this.p = Float64Array.from(pIn);
    this.y = Int8Array.from(yIn);
    this.alpha = Float64Array.from(alphaIn);
    this.C = Float64Array.from(CIn);
    this.QD = Q.QD;
    this.status = new Uint8Array(l);
    for (let i = 0; i < l; i++) this.updateStatus(i);
    this.activeSet = new Int32Array(l);
    for (let i = 0; i < l; i++) this.activeSet[i] = i;
    this.activeSize = l;
    this.G = Float64Array.from(this.p);
    this.Gbar = new Float64Array(l);
    for (let i = 0; i < l; i++) {
      if (this.status[i] === LOWER) continue;
      const Qi = Q.getQ(i, l);
      const ai = this.alpha[i];
      for (let j = 0; j < l; j++) this.G[j] += ai * Qi[j];
      if (this.status[i] === UPPER) for (let j = 0; j < l; j++) this.Gbar[j] += this.C[i] * Qi[j];
    }
  }

  private updateStatus(i: number): void {
    const a = this.alpha[i];
    this.status[i] = a >= this.C[i] ? UPPER : a <= 0 ? LOWER : FREE;
  }

  solve(): SolverResult {
    const { l, Q, alpha, G, Gbar, C, y, QD, status } = this;
    const maxIter = this.options.maxIter ?? Math.max(10_000_000, l > 21_474_836 ? 2_147_483_647 : 100 * l);
    let counter = Math.min(l, 1000) + 1;
    let iter = 0;
    let firstGap = NaN;

    while (iter < maxIter) {
      if (--counter === 0) {
        counter = Math.min(l, 1000);
        if (this.options.shrinking) this.doShrinking();
        throwIfAborted(this.options.signal);
        this.reportProgress(firstGap);
      }
      if (this.selectWorkingSet()) {
        this.reconstructGradient();
        this.activeSize = l;
        if (this.selectWorkingSet()) break;
        counter = 1; // shrink again on the next iteration
      }
      if (Number.isNaN(firstGap)) firstGap = this.lastGap;
      if ((++iter & 63) === 0) throwIfAborted(this.options.signal); // the shrinking counter alone let a cancel wait 0.75 s at 20k rows

      const i = this.outI;
      const j = this.outJ;
      const active = this.activeSize;
      const Qi = Q.getQ(i, active);
      const Qj = Q.getQ(j, active);
      const Ci = C[i];
      const Cj = C[j];
      const oldAi = alpha[i];
      const oldAj = alpha[j];

      if (y[i] !== y[j]) {
        let quad = QD[i] + QD[j] + 2 * Qi[j];
        if (quad <= 0) quad = TAU;
        const delta = (-G[i] - G[j]) / quad;
        const diff = alpha[i] - alpha[j];
        alpha[i] += delta;
        alpha[j] += delta;
        if (diff > 0) {
          if (alpha[j] < 0) {
            alpha[j] = 0;
            alpha[i] = diff;
          }
        } else if (alpha[i] < 0) {
          alpha[i] = 0;
          alpha[j] = -diff;
        }
        if (diff > Ci - Cj) {
          if (alpha[i] > Ci) {
            alpha[i] = Ci;
            alpha[j] = Ci - diff;
          }
        } else if (alpha[j] > Cj) {
          alpha[j] = Cj;
          alpha[i] = Cj + diff;
        }
      } else {
        let quad = QD[i] + QD[j] - 2 * Qi[j];
        if (quad <= 0) quad = TAU;
        const delta = (G[i] - G[j]) / quad;
        const sum = alpha[i] + alpha[j];
        alpha[i] -= delta;
        alpha[j] += delta;
        if (sum > Ci) {
          if (alpha[i] > Ci) {
            alpha[i] = Ci;
            alpha[j] = sum - Ci;
          }
        } else if (alpha[j] < 0) {
          alpha[j] = 0;
          alpha[i] = sum;
        }
        if (sum > Cj) {
          if (alpha[j] > Cj) {
            alpha[j] = Cj;
            alpha[i] = sum - Cj;
          }
        } else if (alpha[i] < 0) {
          alpha[i] = 0;
          alpha[j] = sum;
        }
      }

      const dAi = alpha[i] - oldAi;
      const dAj = alpha[j] - oldAj;
      for (let k = 0; k < active; k++) G[k] += Qi[k] * dAi + Qj[k] * dAj;

      const wasUpperI = status[i] === UPPER;
      const wasUpperJ = status[j] === UPPER;
      this.updateStatus(i);
      this.updateStatus(j);
      if (wasUpperI !== (status[i] === UPPER)) {
        const row = Q.getQ(i, l);
        const s = wasUpperI ? -Ci : Ci;
        for (let k = 0; k < l; k++) Gbar[k] += s * row[k];
      }
      if (wasUpperJ !== (status[j] === UPPER)) {
        const row = Q.getQ(j, l);
        const s = wasUpperJ ? -Cj : Cj;
        for (let k = 0; k < l; k++) Gbar[k] += s * row[k];
      }
    }

    const reachedMaxIter = iter >= maxIter;
    if (this.activeSize < l) {
      this.reconstructGradient();
      this.activeSize = l;
    }
    const rho = this.calculateRho();
    let v = 0;
    for (let i = 0; i < l; i++) v += alpha[i] * (G[i] + this.p[i]);
    const out = new Float64Array(l);
    const grad = new Float64Array(l);
    for (let i = 0; i < l; i++) {
      out[this.activeSet[i]] = alpha[i];
      grad[this.activeSet[i]] = G[i];
    }
    return { alpha: out, rho, objective: v / 2, iterations: iter, gradient: grad, gap: this.violation(), reachedMaxIter };
  }

  private reportProgress(firstGap: number): void {
    const report = this.options.progress;
    if (!report || !(firstGap > this.options.eps) || !(this.lastGap > 0)) return;
    // The violation falls roughly geometrically: progress on a log scale from the first gap to eps.
    const f = Math.log(firstGap / this.lastGap) / Math.log(firstGap / this.options.eps);
    report(Math.min(0.99, Math.max(0, f)));
  }

  /** Maximal violation over every variable, with the full gradient (call with activeSize = l). */
  private violation(): number {
    let up = -Infinity;
    let low = -Infinity;
    for (let t = 0; t < this.l; t++) {
      const yG = -this.y[t] * this.G[t];
      const st = this.status[t];
      const inUp = this.y[t] === 1 ? st !== UPPER : st !== LOWER;
      const inLow = this.y[t] === 1 ? st !== LOWER : st !== UPPER;
      if (inUp && yG > up) up = yG;
      if (inLow && -yG > low) low = -yG;
    }
    return up + low;
  }

  /** Sets outI/outJ; true when already optimal within eps. */
  private selectWorkingSet(): boolean {
    const { y, G, QD, status } = this;
    const active = this.activeSize;
    let Gmax = -Infinity;
    let Gmax2 = -Infinity;
    let GmaxIdx = -1;
    let GminIdx = -1;
    let objDiffMin = Infinity;

    for (let t = 0; t < active; t++) {
      if (y[t] === 1) {
        if (status[t] !== UPPER && -G[t] >= Gmax) {
          Gmax = -G[t];
          GmaxIdx = t;
        }
      } else if (status[t] !== LOWER && G[t] >= Gmax) {
        Gmax = G[t];
        GmaxIdx = t;
      }
    }

    const i = GmaxIdx;
    const Qi = i !== -1 ? this.Q.getQ(i, active) : null;
    const yi = i !== -1 ? y[i] : 0;
    const QDi = i !== -1 ? QD[i] : 0;

    for (let j = 0; j < active; j++) {
      if (y[j] === 1) {
        if (status[j] !== LOWER) {
          const gradDiff = Gmax + G[j];
          if (G[j] >= Gmax2) Gmax2 = G[j];
          if (gradDiff > 0) {
            const quad = QDi + QD[j] - 2 * yi * (Qi as Float32Array)[j];
            const objDiff = -(gradDiff * gradDiff) / (quad > 0 ? quad : TAU);
            if (objDiff <= objDiffMin) {
              GminIdx = j;
              objDiffMin = objDiff;
            }
          }
        }
      } else if (status[j] !== UPPER) {
        const gradDiff = Gmax - G[j];
        if (-G[j] >= Gmax2) Gmax2 = -G[j];
        if (gradDiff > 0) {
          const quad = QDi + QD[j] + 2 * yi * (Qi as Float32Array)[j];
          const objDiff = -(gradDiff * gradDiff) / (quad > 0 ? quad : TAU);
          if (objDiff <= objDiffMin) {
            GminIdx = j;
            objDiffMin = objDiff;
          }
        }
      }
    }

    this.lastGap = Gmax + Gmax2;
    if (Gmax + Gmax2 < this.options.eps || GminIdx === -1) return true;
    this.outI = GmaxIdx;
    this.outJ = GminIdx;
    return false;
  }

  private beShrunk(i: number, Gmax1: number, Gmax2: number): boolean {
    const st = this.status[i];
    if (st === UPPER) return this.y[i] === 1 ? -this.G[i] > Gmax1 : -this.G[i] > Gmax2;
    if (st === LOWER) return this.y[i] === 1 ? this.G[i] > Gmax2 : this.G[i] > Gmax1;
    return false;
  }

  private doShrinking(): void {
    const { y, G, status } = this;
    let Gmax1 = -Infinity; // max { −y_i G_i | i in I_up }
    let Gmax2 = -Infinity; // max {  y_i G_i | i in I_low }
    for (let i = 0; i < this.activeSize; i++) {
      if (y[i] === 1) {
        if (status[i] !== UPPER && -G[i] >= Gmax1) Gmax1 = -G[i];
        if (status[i] !== LOWER && G[i] >= Gmax2) Gmax2 = G[i];
      } else {
        if (status[i] !== UPPER && -G[i] >= Gmax2) Gmax2 = -G[i];
        if (status[i] !== LOWER && G[i] >= Gmax1) Gmax1 = G[i];
      }
    }
    if (!this.unshrink && Gmax1 + Gmax2 <= this.options.eps * 10) {
      // Close to the end: bring everything back once, so the final answer is over all variables.
      this.unshrink = true;
      this.reconstructGradient();
      this.activeSize = this.l;
    }
    for (let i = 0; i < this.activeSize; i++) {
      if (!this.beShrunk(i, Gmax1, Gmax2)) continue;
      this.activeSize--;
      while (this.activeSize > i) {
        if (!this.beShrunk(this.activeSize, Gmax1, Gmax2)) {
          this.swapIndex(i, this.activeSize);
          break;
        }
        this.activeSize--;
      }
    }
  }

  private reconstructGradient(): void {
    const { l, G, Gbar, p, alpha, status } = this;
    const active = this.activeSize;
    if (active === l) return;
    for (let j = active; j < l; j++) G[j] = Gbar[j] + p[j];
    let nrFree = 0;
    for (let j = 0; j < active; j++) if (status[j] === FREE) nrFree++;
    if (nrFree * l > 2 * active * (l - active)) {
      for (let i = active; i < l; i++) {
        const Qi = this.Q.getQ(i, active);
        let s = 0;
        for (let j = 0; j < active; j++) if (status[j] === FREE) s += alpha[j] * Qi[j];
        G[i] += s;
      }
    } else {
      for (let i = 0; i < active; i++) {
        if (status[i] !== FREE) continue;
        const Qi = this.Q.getQ(i, l);
        const ai = alpha[i];
        for (let j = active; j < l; j++) G[j] += ai * Qi[j];
      }
    }
  }

  private calculateRho(): number {
    const { y, G, status } = this;
    let nrFree = 0;
    let ub = Infinity;
    let lb = -Infinity;
    let sumFree = 0;
    for (let i = 0; i < this.activeSize; i++) {
      const yG = y[i] * G[i];
      if (status[i] === UPPER) {
        if (y[i] === -1) ub = Math.min(ub, yG);
        else lb = Math.max(lb, yG);
      } else if (status[i] === LOWER) {
        if (y[i] === 1) ub = Math.min(ub, yG);
        else lb = Math.max(lb, yG);
      } else {
        nrFree++;
        sumFree += yG;
      }
    }
    return nrFree > 0 ? sumFree / nrFree : (ub + lb) / 2;
  }

  private swapIndex(i: number, j: number): void {
    this.Q.swapIndex(i, j);
    swapIn(this.y, i, j);
    swapIn(this.G, i, j);
    swapIn(this.status, i, j);
    swapIn(this.alpha, i, j);
    swapIn(this.p, i, j);
    swapIn(this.activeSet, i, j);
    swapIn(this.Gbar, i, j);
    swapIn(this.C, i, j);
  }
}

function swapIn(a: Float64Array | Int32Array | Int8Array | Uint8Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
