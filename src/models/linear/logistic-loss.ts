/**
 * The negative log-likelihood of seed 002's logistic regression, as a mean over
 * rows with sample weights, plus ½ Σ λ_j v_j² on the feature coefficients, over a
 * standardised design z (features.ts).
 *
 * binaryLogisticLoss: parameters [v_1 … v_p, c], y ∈ {0, 1}, loss
 *   (1/Σw) Σ w_i [log(1 + e^{s_i}) − y_i s_i], s_i = z_iᵀv + c.
 * multinomialLoss: parameters K rows of [v_k1 … v_kp, c_k] (row-major), loss
 *   (1/Σw) Σ w_i [log Σ_k e^{s_ik} − s_{i,y_i}] (softmax; seed 002).
 */
import type { Objective } from "../optim/objective.js";
import { BLOCK, accumulateWeightedGram, symmetriseLower, addRidge } from "./blocks.js";
import type { LinearFeatures } from "./features.js";
import { createLogisticTerms } from "./simd-logistic.js";

interface LossOptions {
  fitIntercept: boolean;
  weights?: Float64Array;
  l2?: Float64Array;
}

function totalWeight(n: number, weights?: Float64Array): number {
  if (!weights) return n;
  let t = 0;
  for (let i = 0; i < n; i++) t += weights[i];
  return t;
}

function sigmoid(s: number): number {
  return s >= 0 ? 1 / (1 + Math.exp(-s)) : Math.exp(s) / (1 + Math.exp(s));
}

export function binaryLogisticLoss(features: LinearFeatures, y: Float64Array, options: LossOptions): Objective {
  const { fitIntercept, weights, l2 } = options;
  const { n, p } = features;
  const size = p + (fitIntercept ? 1 : 0);
  const total = totalWeight(n, weights);
  const s = new Float64Array(BLOCK);
  const prob = new Float64Array(BLOCK);
  const term = new Float64Array(BLOCK);
  const logisticTerms = createLogisticTerms(BLOCK);

  const accumulate = (x: Float64Array, g: Float64Array, order: Int32Array | null, start: number, end: number): number => {
    g.fill(0);
    const scoresOf = features.bind(x, 0, fitIntercept ? x[p] : 0, 0);
    let loss = 0;
    let wsum = 0;
    let gc = 0;
    for (let bs = start; bs < end; bs += BLOCK) {
      const len = Math.min(BLOCK, end - bs);
      scoresOf(order, bs, len, s);
      // One exponential per row serves both the loss and the probability (simd-logistic.ts).
      logisticTerms(s, len, prob, term);
      for (let i = 0; i < len; i++) {
        const row = order ? order[bs + i] : bs + i;
        const w = weights ? weights[row] : 1;
        loss += w * (term[i] - y[row] * s[i]);
        const r = w * (prob[i] - y[row]);
        wsum += w;
        s[i] = r;
        gc += r;
      }
      features.gradient(s, order, bs, len, g, 0);
    }
    if (fitIntercept) g[p] = gc;
    const scale = order ? (wsum > 0 ? 1 / wsum : 0) : 1 / total;
    for (let j = 0; j < size; j++) g[j] *= scale;
    loss *= scale;
    if (l2) loss += addRidge(x, g, l2);
    return loss;
  };

  return {
    size,
    terms: n,
    valueAndGradient: (x, g) => accumulate(x, g, null, 0, n),
    batchValueAndGradient: (x, g, order, start, end) => accumulate(x, g, order, start, end),
    hessian(x, h) {
      h.fill(0);
      const scoresOf = features.bind(x, 0, fitIntercept ? x[p] : 0, 0);
      const weightOf = (start: number, len: number, d: Float64Array): void => {
        scoresOf(null, start, len, d);
        for (let i = 0; i < len; i++) {
          const prob = sigmoid(d[i]);
          d[i] = (weights ? weights[start + i] : 1) * prob * (1 - prob);
        }
      };
      accumulateWeightedGram(features.dense(), n, p, fitIntercept, weightOf, h, size, 0, 0, false);
      symmetriseLower(h, size, 1 / total);
      if (l2) for (let j = 0; j < p; j++) h[j * size + j] += l2[j];
    },
  };
}

export function multinomialLoss(features: LinearFeatures, y: Int32Array, classes: number, options: LossOptions): Objective {
  const { fitIntercept, weights, l2 } = options;
  const { n, p } = features;
  const K = classes;
  const q = p + (fitIntercept ? 1 : 0);
  const size = K * q;
  const total = totalWeight(n, weights);
  // A block's scores, then probabilities, then residuals, row-major: row i's K classes at i·K.
  const view = features.classes(K, q, fitIntercept);
  const scores = view.block;
  /** Binds every class's parameters in x for the softmaxBlock calls that follow. */
  const bindClasses = (x: Float64Array): void => view.bind(x);

  /** Scores of the block's rows for every class (parameters bound by bindClasses), then each row's softmax in place; returns Σ w_i·(−log p_{i,y_i}). */
  const softmaxBlock = (order: Int32Array | null, bs: number, len: number): number => {
    view.scores(order, bs, len);
    let loss = 0;
    for (let i = 0, o = 0; i < len; i++, o += K) {
      const row = order ? order[bs + i] : bs + i;
      let max = -Infinity;
      for (let k = o; k < o + K; k++) if (scores[k] > max) max = scores[k];
      const sy = scores[o + y[row]];
      let sum = 0;
      for (let k = o; k < o + K; k++) {
        const e = Math.exp(scores[k] - max);
        scores[k] = e;
        sum += e;
      }
      for (let k = o; k < o + K; k++) scores[k] /= sum;
      loss += (weights ? weights[row] : 1) * (max + Math.log(sum) - sy);
    }
    return loss;
  };

  const accumulate = (x: Float64Array, g: Float64Array, order: Int32Array | null, start: number, end: number): number => {
    g.fill(0);
    bindClasses(x);
    let loss = 0;
    let wsum = 0;
    for (let bs = start; bs < end; bs += BLOCK) {
      const len = Math.min(BLOCK, end - bs);
      loss += softmaxBlock(order, bs, len);
      // Residuals w_i (p_ik − [y_i = k]) replace the probabilities in place. Unweighted, p − 0 and
      // 1·(p − δ) are p and p − δ exactly, so only the true class's entry changes.
      if (weights) {
        for (let i = 0, o = 0; i < len; i++, o += K) {
          const row = order ? order[bs + i] : bs + i;
          const w = weights[row];
          const yk = o + y[row];
          wsum += w;
          for (let k = o; k < o + K; k++) scores[k] = w * (scores[k] - (k === yk ? 1 : 0));
        }
      } else {
        for (let i = 0, o = 0; i < len; i++, o += K) scores[o + y[order ? order[bs + i] : bs + i]] -= 1;
        wsum += len;
      }
      view.gradient(order, bs, len, g);
      if (fitIntercept) for (let k = 0; k < K; k++) g[k * q + p] += view.sums[k];
    }
    view.finish(g);
    const scale = order ? (wsum > 0 ? 1 / wsum : 0) : 1 / total;
    for (let j = 0; j < size; j++) g[j] *= scale;
    loss *= scale;
    if (l2) for (let k = 0; k < K; k++) loss += addRidge(x, g, l2, k * q);
    return loss;
  };

  return {
    size,
    terms: n,
    valueAndGradient: (x, g) => accumulate(x, g, null, 0, n),
    batchValueAndGradient: (x, g, order, start, end) => accumulate(x, g, order, start, end),
    hessian(x, h) {
      // H[(k,a),(l,b)] = mean_i w_i p_ik (δ_kl − p_il) z_ia z_ib, the intercept as a column of ones.
      h.fill(0);
      const prob = new Float64Array(n * classes);
      bindClasses(x);
      for (let bs = 0; bs < n; bs += BLOCK) {
        const len = Math.min(BLOCK, n - bs);
        softmaxBlock(null, bs, len);
        prob.set(scores.subarray(0, len * K), bs * K);
      }
      for (let k = 0; k < classes; k++) {
        for (let l = 0; l <= k; l++) {
          const weightOf = (start: number, len: number, d: Float64Array): void => {
            for (let i = 0; i < len; i++) {
              const o = (start + i) * classes;
              d[i] = (weights ? weights[start + i] : 1) * prob[o + k] * ((k === l ? 1 : 0) - prob[o + l]);
            }
          };
          accumulateWeightedGram(features.dense(), n, p, fitIntercept, weightOf, h, size, k * q, l * q, k !== l);
        }
      }
      symmetriseLower(h, size, 1 / total);
      if (l2) for (let k = 0; k < classes; k++) for (let j = 0; j < p; j++) h[(k * q + j) * size + k * q + j] += l2[j];
    },
  };
}
