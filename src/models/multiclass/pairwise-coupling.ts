/**
 * Class probabilities from pairwise ones (Wu, Lin & Weng 2004, method 2 — libsvm's
 * multiclass_probability): minimise Σ_i Σ_{j≠i} (r_ji p_i − r_ij p_j)² over the
 * simplex by its fixed-point iteration. r[i·k + j] = P(class i | class i or j).
 * Buffers are the caller's so a predict loop allocates once, not per row.
 */
export class PairwiseCoupling {
  private readonly Q: Float64Array;
  private readonly Qp: Float64Array;

  constructor(private readonly k: number) {
    this.Q = new Float64Array(k * k);
    this.Qp = new Float64Array(k);
  }

  /** Writes the k probabilities into out[offset … offset + k). */
  solve(r: Float64Array, out: Float64Array, offset: number): void {
    const { k, Q, Qp } = this;
    const maxIter = Math.max(100, k);
    const eps = 0.005 / k;
    for (let t = 0; t < k; t++) {
      out[offset + t] = 1 / k;
      Q[t * k + t] = 0;
      for (let j = 0; j < t; j++) {
        Q[t * k + t] += r[j * k + t] * r[j * k + t];
        Q[t * k + j] = Q[j * k + t];
      }
      for (let j = t + 1; j < k; j++) {
        Q[t * k + t] += r[j * k + t] * r[j * k + t];
        Q[t * k + j] = -r[j * k + t] * r[t * k + j];
      }
    }
    for (let iter = 0; iter < maxIter; iter++) {
      // Recomputed every round, for accuracy, before the stopping test.
      let pQp = 0;
      for (let t = 0; t < k; t++) {
        let s = 0;
        for (let j = 0; j < k; j++) s += Q[t * k + j] * out[offset + j];
        Qp[t] = s;
        pQp += out[offset + t] * s;
      }
      let maxError = 0;
      for (let t = 0; t < k; t++) maxError = Math.max(maxError, Math.abs(Qp[t] - pQp));
      if (maxError < eps) break;
      for (let t = 0; t < k; t++) {
        const diff = (-Qp[t] + pQp) / Q[t * k + t];
        out[offset + t] += diff;
        pQp = (pQp + diff * (diff * Q[t * k + t] + 2 * Qp[t])) / (1 + diff) / (1 + diff);
        for (let j = 0; j < k; j++) {
          Qp[j] = (Qp[j] + diff * Q[t * k + j]) / (1 + diff);
          out[offset + j] /= 1 + diff;
        }
      }
    }
  }
}
