/**
 * Losses as scikit-learn's `_loss` module and LightGBM's `src/objective` see them:
 * only a baseline (the best constant raw score), gradients and hessians of the loss
 * in the raw score, and the loss itself for reporting and early stopping. Trees fit
 * the gradients; the grower turns sums into second-order leaf values.
 *
 * Raw scores are class-major: raw[k·n + i] is tree-output k of row i (one slice for
 * regression and binary log loss, one per class for the multinomial loss).
 */
export type LossName = "squared_error" | "absolute_error" | "huber" | "log_loss";

export interface LossData {
  /** Regression targets, or the class index of each row as a number. */
  readonly y: Float64Array;
  /** null: all rows weigh 1. */
  readonly w: Float64Array | null;
}

export interface Loss {
  readonly name: LossName;
  /** Raw outputs (and trees) per row and iteration: 1, or the number of classes for multinomial. */
  readonly outputs: number;
  baseline(d: LossData): Float64Array;
  /** Fills g and h (class-major like raw) for every row; returns value(d, raw), which the same pass computes almost for free. */
  gradients(d: LossData, raw: Float64Array, g: Float64Array, h: Float64Array): number;
  /** Weighted mean loss. */
  value(d: LossData, raw: Float64Array): number;
  /** absolute_error: leaf values become weighted medians of the residuals of their rows (scikit-learn's line search). */
  readonly medianLeaves?: boolean;
}

const EPS = 1e-15;

function totalWeight(d: LossData): number {
  if (!d.w) return d.y.length;
  let s = 0;
  for (let i = 0; i < d.w.length; i++) s += d.w[i];
  return s;
}

/** Weighted median (lower middle, as scikit-learn's `_weighted_percentile` at 50). */
export function weightedMedian(values: Float64Array, w: Float64Array | null): number {
  const n = values.length;
  if (n === 0) return 0;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => values[a] - values[b] || a - b);
  let total = 0;
  for (let i = 0; i < n; i++) total += w ? w[i] : 1;
  let acc = 0;
  for (const i of order) {
    acc += w ? w[i] : 1;
    if (acc >= total / 2) return values[i];
  }
  return values[order[n - 1]];
}

const squaredError: Loss = {
  name: "squared_error",
  outputs: 1,
  baseline: (d) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) s += (d.w ? d.w[i] : 1) * d.y[i];
    return Float64Array.of(s / totalWeight(d));
  },
  gradients: (d, raw, g, h) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) {
      const w = d.w ? d.w[i] : 1;
      const r = raw[i] - d.y[i];
      g[i] = w * r;
      h[i] = w;
      s += w * r * r;
    }
    return s / totalWeight(d);
  },
  value: (d, raw) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) s += (d.w ? d.w[i] : 1) * (raw[i] - d.y[i]) ** 2;
    return s / totalWeight(d);
  },
};

const absoluteError: Loss = {
  name: "absolute_error",
  outputs: 1,
  medianLeaves: true,
  baseline: (d) => Float64Array.of(weightedMedian(d.y, d.w)),
  gradients: (d, raw, g, h) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) {
      const w = d.w ? d.w[i] : 1;
      const r = raw[i] - d.y[i];
      g[i] = w * Math.sign(r);
      h[i] = w;
      s += w * Math.abs(r);
    }
    return s / totalWeight(d);
  },
  value: (d, raw) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) s += (d.w ? d.w[i] : 1) * Math.abs(raw[i] - d.y[i]);
    return s / totalWeight(d);
  },
};

/**
 * Huber with δ the `quantile` of the absolute residuals, recomputed at every
 * iteration (Friedman 2001, scikit-learn's GradientBoostingRegressor): squared
 * inside δ, linear outside, so a few wild targets pull the fit by at most δ each.
 */
function huber(quantile: number): Loss {
  let delta = 1;
  const residuals = (d: LossData, raw: Float64Array) => Float64Array.from(d.y, (y, i) => Math.abs(y - raw[i]));
  const quantileOf = (a: Float64Array) => {
    const s = Float64Array.from(a).sort();
    return s.length === 0 ? 0 : s[Math.min(s.length - 1, Math.floor(quantile * (s.length - 1)))];
  };
  return {
    name: "huber",
    outputs: 1,
    baseline: (d) => {
      const m = weightedMedian(d.y, d.w);
      delta = quantileOf(Float64Array.from(d.y, (y) => Math.abs(y - m)));
      return Float64Array.of(m);
    },
    gradients: (d, raw, g, h) => {
      delta = quantileOf(residuals(d, raw));
      for (let i = 0; i < d.y.length; i++) {
        const w = d.w ? d.w[i] : 1;
        const r = raw[i] - d.y[i];
        g[i] = w * (Math.abs(r) <= delta ? r : delta * Math.sign(r));
        h[i] = w;
      }
      return huberValue(d, raw);
    },
    value: (d, raw) => huberValue(d, raw),
  };
  function huberValue(d: LossData, raw: Float64Array): number {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) {
      const r = Math.abs(raw[i] - d.y[i]);
      s += (d.w ? d.w[i] : 1) * (r <= delta ? 0.5 * r * r : delta * (r - 0.5 * delta));
    }
    return s / totalWeight(d);
  }
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

const binaryLogLoss: Loss = {
  name: "log_loss",
  outputs: 1,
  baseline: (d) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) s += (d.w ? d.w[i] : 1) * d.y[i];
    const p = Math.min(1 - EPS, Math.max(EPS, s / totalWeight(d)));
    return Float64Array.of(Math.log(p / (1 - p)));
  },
  gradients: (d, raw, g, h) => {
    let s = 0;
    for (let i = 0; i < d.y.length; i++) {
      const w = d.w ? d.w[i] : 1;
      const x = raw[i];
      // One exp serves the probability and the loss: e = e^-|x|, σ(x) and log(1 + e^x) from it.
      const e = Math.exp(-Math.abs(x));
      const p = x >= 0 ? 1 / (1 + e) : e / (1 + e);
      g[i] = w * (p - d.y[i]);
      h[i] = w * p * (1 - p);
      s += w * (Math.max(x, 0) + Math.log1p(e) - d.y[i] * x);
    }
    return s / totalWeight(d);
  },
  value: (d, raw) => {
    let s = 0;
    // log(1 + e^x) − y·x, written to stay finite for large |x|.
    for (let i = 0; i < d.y.length; i++) {
      const x = raw[i];
      s += (d.w ? d.w[i] : 1) * (Math.max(x, 0) + Math.log1p(Math.exp(-Math.abs(x))) - d.y[i] * x);
    }
    return s / totalWeight(d);
  },
};

/** Softmax of row i's K raw scores into p (max subtracted first, so exp never overflows). */
function softmaxRow(raw: Float64Array, n: number, K: number, i: number, p: Float64Array): void {
  let max = -Infinity;
  for (let k = 0; k < K; k++) max = Math.max(max, raw[k * n + i]);
  let sum = 0;
  for (let k = 0; k < K; k++) sum += p[k] = Math.exp(raw[k * n + i] - max);
  for (let k = 0; k < K; k++) p[k] /= sum;
}

function multinomial(K: number): Loss {
  const p = new Float64Array(K);
  return {
    name: "log_loss",
    outputs: K,
    baseline: (d) => {
      const prior = new Float64Array(K);
      for (let i = 0; i < d.y.length; i++) prior[d.y[i]] += d.w ? d.w[i] : 1;
      const total = totalWeight(d);
      return prior.map((c) => Math.log(Math.max(EPS, c / total)));
    },
    gradients: (d, raw, g, h) => {
      const n = d.y.length;
      let s = 0;
      for (let i = 0; i < n; i++) {
        const w = d.w ? d.w[i] : 1;
        softmaxRow(raw, n, K, i, p);
        for (let k = 0; k < K; k++) {
          g[k * n + i] = w * (p[k] - (d.y[i] === k ? 1 : 0));
          h[k * n + i] = w * p[k] * (1 - p[k]);
        }
        s -= w * Math.log(Math.max(EPS, p[d.y[i]]));
      }
      return s / totalWeight(d);
    },
    value: (d, raw) => {
      const n = d.y.length;
      let s = 0;
      for (let i = 0; i < n; i++) {
        softmaxRow(raw, n, K, i, p);
        s -= (d.w ? d.w[i] : 1) * Math.log(Math.max(EPS, p[d.y[i]]));
      }
      return s / totalWeight(d);
    },
  };
}

/** The loss for a fit: `classes` is the number of classes (0 for regression). */
export function makeLoss(name: LossName, classes: number, huberQuantile: number): Loss {
  if (name === "log_loss") return classes > 2 ? multinomial(classes) : binaryLogLoss;
  if (name === "huber") return huber(huberQuantile);
  return name === "absolute_error" ? absoluteError : squaredError;
}

/** Raw scores (class-major, K per row) → probabilities, row-major n × classes. */
export function rawToProba(raw: Float64Array, n: number, K: number, out: Float64Array): void {
  if (K === 1) {
    for (let i = 0; i < n; i++) {
      const p1 = sigmoid(raw[i]);
      out[2 * i] = 1 - p1;
      out[2 * i + 1] = p1;
    }
    return;
  }
  const p = new Float64Array(K);
  for (let i = 0; i < n; i++) {
    softmaxRow(raw, n, K, i, p);
    out.set(p, i * K);
  }
}
