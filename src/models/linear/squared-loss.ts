/**
 * (1/(2Σw)) Σ w_i (z_iᵀv + c − y_i)² + ½ Σ_j λ_j v_j² over a standardised design z (features.ts),
 * parameters [v_1 … v_p, c] (c only with an intercept). The mean form keeps the
 * gradient tolerance independent of the number of rows.
 */
import type { Objective } from "../optim/objective.js";
import { BLOCK, accumulateWeightedGram, symmetriseLower, addRidge } from "./blocks.js";
import type { LinearFeatures } from "./features.js";

export function squaredLoss(
  features: LinearFeatures,
  y: Float64Array,
  options: { fitIntercept: boolean; weights?: Float64Array; l2?: Float64Array },
): Objective {
  const { fitIntercept, weights, l2 } = options;
  const { n, p } = features;
  const size = p + (fitIntercept ? 1 : 0);
  let total = n;
  if (weights) {
    total = 0;
    for (let i = 0; i < n; i++) total += weights[i];
  }
  const s = new Float64Array(BLOCK);

  const accumulate = (x: Float64Array, g: Float64Array, order: Int32Array | null, start: number, end: number): number => {
    g.fill(0);
    const scoresOf = features.bind(x, 0, fitIntercept ? x[p] : 0, 0);
    let loss = 0;
    let wsum = 0;
    let gc = 0;
    for (let bs = start; bs < end; bs += BLOCK) {
      const len = Math.min(BLOCK, end - bs);
      scoresOf(order, bs, len, s);
      for (let i = 0; i < len; i++) {
        const row = order ? order[bs + i] : bs + i;
        const w = weights ? weights[row] : 1;
        const r = s[i] - y[row];
        wsum += w;
        loss += w * r * r;
        s[i] = w * r;
        gc += w * r;
      }
      features.gradient(s, order, bs, len, g, 0);
    }
    if (fitIntercept) g[p] = gc;
    const scale = order ? (wsum > 0 ? 1 / wsum : 0) : 1 / total;
    for (let j = 0; j < size; j++) g[j] *= scale;
    loss *= 0.5 * scale;
    if (l2) loss += addRidge(x, g, l2);
    return loss;
  };

  return {
    size,
    terms: n,
    valueAndGradient: (x, g) => accumulate(x, g, null, 0, n),
    batchValueAndGradient: (x, g, order, start, end) => accumulate(x, g, order, start, end),
    hessian(_x, h) {
      h.fill(0);
      const weightOf = (start: number, len: number, d: Float64Array): void => {
        for (let i = 0; i < len; i++) d[i] = weights ? weights[start + i] : 1;
      };
      accumulateWeightedGram(features.dense(), n, p, fitIntercept, weightOf, h, size, 0, 0, false);
      symmetriseLower(h, size, 1 / total);
      if (l2) for (let j = 0; j < p; j++) h[j * size + j] += l2[j];
    },
  };
}
