/**
 * The bookkeeping every line-search method shares (Newton, DFP, BFGS, L-BFGS,
 * OWL-QN): the current and candidate point and gradient, swapped rather than
 * copied when a step is accepted; the loss; the gradient norm that decides
 * convergence; the iteration count and the stall test. Each method keeps only
 * what makes it that method: how it picks a direction and updates its curvature.
 */
import { throwIfAborted } from "../contract.js";
import { normInf, stalled } from "./objective.js";
import type { MinimizeOptions, MinimizeResult } from "./types.js";

export class Descent {
  x: Float64Array;
  g: Float64Array;
  /** Where the line search writes its candidate point and gradient. */
  xNew: Float64Array;
  gNew: Float64Array;
  f = NaN;
  gradNorm = NaN;
  iterations = 0;
  converged = false;
  private readonly maxIter: number;
  private readonly tol: number;

  constructor(
    x0: Float64Array,
    private readonly options: MinimizeOptions,
  ) {
    const n = x0.length;
    this.x = Float64Array.from(x0);
    this.g = new Float64Array(n);
    this.xNew = new Float64Array(n);
    this.gNew = new Float64Array(n);
    this.maxIter = options.maxIter ?? 1000;
    this.tol = options.tol ?? 1e-6;
  }

  /** The loss and gradient norm at the starting point (the gradient already in `g`). */
  start(f: number, gradNorm = normInf(this.g)): void {
    this.f = f;
    this.gradNorm = gradNorm;
    this.converged = gradNorm <= this.tol;
  }

  /** Whether to take another step; throws if the job was aborted. */
  running(): boolean {
    if (this.converged || this.iterations >= this.maxIter) return false;
    throwIfAborted(this.options.signal);
    return true;
  }

  /** s = xNew − x and y = gNew − g, for the curvature updates. */
  differences(s: Float64Array, y: Float64Array): void {
    for (let i = 0; i < s.length; i++) {
      s[i] = this.xNew[i] - this.x[i];
      y[i] = this.gNew[i] - this.g[i];
    }
  }

  /**
   * Moves to the candidate (loss fNew) and tests convergence. `measure` gives the
   * gradient norm at the new point (default max |g_i|; OWL-QN measures its pseudo-gradient).
   */
  accept(fNew: number, measure: () => number = () => normInf(this.g)): void {
    this.iterations++;
    const previous = this.f;
    [this.x, this.xNew] = [this.xNew, this.x];
    [this.g, this.gNew] = [this.gNew, this.g];
    this.f = fNew;
    this.gradNorm = measure();
    this.options.onIteration?.(this.iterations, fNew);
    if (this.gradNorm <= this.tol || stalled(previous, fNew)) this.converged = true;
  }

  result(): MinimizeResult {
    return { x: this.x, iterations: this.iterations, loss: this.f, gradNorm: this.gradNorm, converged: this.converged };
  }
}
