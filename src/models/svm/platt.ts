/**
 * Platt scaling, P(positive | f) = 1 / (1 + exp(A·f + B)), fitted by the Newton
 * method with backtracking of Lin, Lin & Weng (2007) — the version libsvm uses,
 * with Platt's smoothed targets (N₊+1)/(N₊+2) and 1/(N₋+2) against overfitting.
 */
export interface Sigmoid {
  A: number;
  B: number;
}

export function fitSigmoid(decision: Float64Array, positive: Uint8Array): Sigmoid {
  const l = decision.length;
  let prior1 = 0;
  for (let i = 0; i < l; i++) prior1 += positive[i];
  const prior0 = l - prior1;
  const maxIter = 100;
  const minStep = 1e-10;
  const sigma = 1e-12; // keeps the Hessian strictly positive definite
  const eps = 1e-5;
  const hiTarget = (prior1 + 1) / (prior1 + 2);
  const loTarget = 1 / (prior0 + 2);
  const t = new Float64Array(l);
  for (let i = 0; i < l; i++) t[i] = positive[i] ? hiTarget : loTarget;

  let A = 0;
  let B = Math.log((prior0 + 1) / (prior1 + 1));
  let fval = objective(decision, t, A, B);

  for (let iter = 0; iter < maxIter; iter++) {
    let h11 = sigma;
    let h22 = sigma;
    let h21 = 0;
    let g1 = 0;
    let g2 = 0;
    for (let i = 0; i < l; i++) {
      const fApB = decision[i] * A + B;
      let p: number;
      let q: number;
      if (fApB >= 0) {
        const e = Math.exp(-fApB);
        p = e / (1 + e);
        q = 1 / (1 + e);
      } else {
        const e = Math.exp(fApB);
        p = 1 / (1 + e);
        q = e / (1 + e);
      }
      const d2 = p * q;
      h11 += decision[i] * decision[i] * d2;
      h22 += d2;
      h21 += decision[i] * d2;
      const d1 = t[i] - p;
      g1 += decision[i] * d1;
      g2 += d1;
    }
    if (Math.abs(g1) < eps && Math.abs(g2) < eps) break;

    const det = h11 * h22 - h21 * h21;
    const dA = -(h22 * g1 - h21 * g2) / det;
    const dB = -(-h21 * g1 + h11 * g2) / det;
    const gd = g1 * dA + g2 * dB;
    let step = 1;
    while (step >= minStep) {
      const newA = A + step * dA;
      const newB = B + step * dB;
      const newf = objective(decision, t, newA, newB);
      if (newf < fval + 0.0001 * step * gd) {
        A = newA;
        B = newB;
        fval = newf;
        break;
      }
      step /= 2;
    }
    if (step < minStep) break; // line search failed: keep the best point found
  }
  return { A, B };
}

function objective(decision: Float64Array, t: Float64Array, A: number, B: number): number {
  let f = 0;
  for (let i = 0; i < decision.length; i++) {
    const fApB = decision[i] * A + B;
    f += fApB >= 0 ? t[i] * fApB + Math.log1p(Math.exp(-fApB)) : (t[i] - 1) * fApB + Math.log1p(Math.exp(fApB));
  }
  return f;
}

export function sigmoidProbability(f: number, s: Sigmoid): number {
  const fApB = f * s.A + s.B;
  // Two forms so neither exp overflows nor 1 − p cancels.
  return fApB >= 0 ? Math.exp(-fApB) / (1 + Math.exp(-fApB)) : 1 / (1 + Math.exp(fApB));
}
