/**
 * Naive Bayes' continuous numeric attributes: a Gaussian per class, or a Gaussian
 * kernel density estimate per class.
 *
 * Variance convention (param `variance`): "sample" divides the weighted sum of squares
 * by W − 1 (W the class's weight on the attribute; 0 when W ≤ 1), as the book does — it
 * is what makes SEEDS.md's p(密度 = 0.697 | 是) = 1.959; "population" divides by W, as
 * scikit-learn's GaussianNB. Either way epsilon = var_smoothing × the largest (population,
 * weighted) variance of any numeric attribute over all training rows is added, exactly
 * GaussianNB's rule (1 stands in for that variance when every attribute is constant).
 * Because epsilon ties the attributes' units together the model declares itself
 * scale-sensitive: a column in millimetres beside one in kilometres would swamp the latter.
 *
 * A class with no present value of an attribute gets the attribute's pooled (all-class)
 * Gaussian, so every class still has a factor and the scores stay comparable.
 *
 * KDE: scipy.stats.gaussian_kde in one dimension for unit weights: bandwidth h = factor ×
 * the class's sample standard deviation, Scott's factor n^(−1/5) or Silverman's (3n/4)^(−1/5).
 * Weights are frequency weights (n = Σw, variance over Σw − 1, kernels weighted), so a
 * weight of 2 is a duplicated row — scipy's n_eff = (Σw)²/Σw² is not; epsilon is added to h².
 */
import type { Coded } from "./coded.js";

export interface ContinuousFit {
  /** K × d (class-major): mean and variance (epsilon included) of each continuous attribute; 0 and 1 for others. */
  mean: Float64Array<ArrayBuffer>;
  var: Float64Array<ArrayBuffer>;
  /**
   * K × d: the sufficient statistics behind mean and var — class k's weight on attribute j (rows where it is
   * present) and its sum of squares about the class mean (no epsilon) — so partial_fit can merge new rows in
   * exactly (Chan et al.'s parallel update) instead of refitting; `mean` holds the class means where the weight is positive.
   */
  moment_w: Float64Array<ArrayBuffer>;
  moment_ss: Float64Array<ArrayBuffer>;
  /** KDE only: class k's sample of attribute j is kde_x/kde_w[kde_offset[j·K + k] ..]; h² in kde_h2 (K × d). */
  kde_offset: Int32Array<ArrayBuffer>;
  kde_x: Float64Array<ArrayBuffer>;
  kde_w: Float64Array<ArrayBuffer>;
  kde_h2: Float64Array<ArrayBuffer>;
}

export interface GaussianOptions {
  variance: "sample" | "population";
  varSmoothing: number;
}

/** Per class and continuous attribute: weight, mean and sum of squares about the mean (two passes, K × d class-major). */
export interface Moments {
  w: Float64Array<ArrayBuffer>;
  mean: Float64Array<ArrayBuffer>;
  ss: Float64Array<ArrayBuffer>;
}

export function classMoments(coded: Coded, y: Int32Array, w: Float64Array | undefined, K: number): Moments {
  const d = coded.values.length;
  const out: Moments = { w: new Float64Array(K * d), mean: new Float64Array(K * d), ss: new Float64Array(K * d) };
  // Rows grouped by class once (a counting sort), so each class's sums run in local
  // accumulators over its own rows instead of scattering into per-class cells row by row.
  const start = new Int32Array(K + 1);
  for (let i = 0; i < coded.n; i++) start[y[i] + 1]++;
  for (let k = 0; k < K; k++) start[k + 1] += start[k];
  const rows = new Int32Array(coded.n);
  const fill = start.slice(0, K);
  for (let i = 0; i < coded.n; i++) rows[fill[y[i]]++] = i;
  for (let j = 0; j < d; j++) {
    const x = coded.values[j];
    if (!x) continue;
    for (let k = 0; k < K; k++) {
      let sw = 0;
      let s = 0;
      for (let t = start[k]; t < start[k + 1]; t++) {
        const i = rows[t];
        const v = x[i];
        if (v !== v) continue;
        const wi = w ? w[i] : 1;
        sw += wi;
        s += wi * v;
      }
      // Second pass about the mean (not Σx² − n·μ², which loses digits when |μ| ≫ σ).
      const mu = sw > 0 ? s / sw : 0;
      let ss = 0;
      for (let t = start[k]; t < start[k + 1]; t++) {
        const i = rows[t];
        const v = x[i];
        if (v !== v) continue;
        const dv = v - mu;
        ss += (w ? w[i] : 1) * dv * dv;
      }
      out.w[k * d + j] = sw;
      out.mean[k * d + j] = mu;
      out.ss[k * d + j] = ss;
    }
  }
  return out;
}

/** Chan, Golub and LeVeque's pairwise update: the moments of two disjoint samples' union, cell by cell. */
export function mergeMoments(a: Moments, b: Moments): Moments {
  const n = a.w.length;
  const out: Moments = { w: new Float64Array(n), mean: new Float64Array(n), ss: new Float64Array(n) };
  for (let t = 0; t < n; t++) {
    const wa = a.w[t];
    const wb = b.w[t];
    const W = wa + wb;
    if (!(wb > 0)) {
      out.w[t] = wa;
      out.mean[t] = a.mean[t];
      out.ss[t] = a.ss[t];
      continue;
    }
    if (!(wa > 0)) {
      out.w[t] = wb;
      out.mean[t] = b.mean[t];
      out.ss[t] = b.ss[t];
      continue;
    }
    const delta = b.mean[t] - a.mean[t];
    out.w[t] = W;
    out.mean[t] = a.mean[t] + (delta * wb) / W;
    out.ss[t] = a.ss[t] + b.ss[t] + (delta * delta * wa * wb) / W;
  }
  return out;
}

/**
 * The Gaussians from the moments: class means and variances, a class without weight on an attribute
 * taking its pooled Gaussian, and epsilon from the largest pooled population variance.
 */
export function gaussiansOf(m: Moments, continuous: readonly boolean[], K: number, opts: GaussianOptions): { mean: Float64Array<ArrayBuffer>; var: Float64Array<ArrayBuffer>; epsilon: number } {
  const d = continuous.length;
  const mean = Float64Array.from(m.mean);
  const variance = new Float64Array(K * d).fill(1);
  let maxVar = 0;
  const raw = new Float64Array(K * d);
  const pooledVar = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    if (!continuous[j]) continue;
    let totalW = 0;
    let totalS = 0;
    for (let k = 0; k < K; k++) {
      totalW += m.w[k * d + j];
      totalS += m.w[k * d + j] * m.mean[k * d + j];
    }
    const mu = totalW > 0 ? totalS / totalW : 0;
    // Pooled sum of squares = within-class sums + between-class term (exact, no third pass).
    let totalSS = 0;
    for (let k = 0; k < K; k++) totalSS += m.ss[k * d + j] + m.w[k * d + j] * (m.mean[k * d + j] - mu) ** 2;
    if (totalW > 0) maxVar = Math.max(maxVar, totalSS / totalW);
    const pooledDenom = opts.variance === "sample" ? totalW - 1 : totalW;
    pooledVar[j] = pooledDenom > 0 ? totalSS / pooledDenom : 0;
    for (let k = 0; k < K; k++) {
      const W = m.w[k * d + j];
      const denom = opts.variance === "sample" ? W - 1 : W;
      raw[k * d + j] = W > 0 ? (denom > 0 ? m.ss[k * d + j] / denom : 0) : NaN;
      if (!(W > 0)) mean[k * d + j] = mu;
    }
  }
  const epsilon = opts.varSmoothing * (maxVar > 0 ? maxVar : 1);
  for (let j = 0; j < d; j++) {
    if (!continuous[j]) continue;
    for (let k = 0; k < K; k++) {
      const r = raw[k * d + j];
      variance[k * d + j] = (r === r ? r : pooledVar[j]) + epsilon;
    }
  }
  return { mean, var: variance, epsilon };
}

export function fitContinuous(coded: Coded, y: Int32Array, w: Float64Array | undefined, K: number, opts: GaussianOptions & { kde: "scott" | "silverman" | null }): ContinuousFit {
  const moments = classMoments(coded, y, w, K);
  const { mean, var: variance, epsilon } = gaussiansOf(moments, coded.values.map((v) => v !== null), K, opts);
  const kde = opts.kde ? fitKde(coded, y, w, K, opts.kde, epsilon) : { kde_offset: new Int32Array(1), kde_x: new Float64Array(0), kde_w: new Float64Array(0), kde_h2: new Float64Array(0) };
  return { mean, var: variance, moment_w: moments.w, moment_ss: moments.ss, ...kde };
}

function fitKde(coded: Coded, y: Int32Array, w: Float64Array | undefined, K: number, rule: "scott" | "silverman", epsilon: number) {
  const d = coded.values.length;
  const sizes = new Int32Array(d * K);
  for (let j = 0; j < d; j++) {
    const x = coded.values[j];
    if (!x) continue;
    for (let i = 0; i < coded.n; i++) if (x[i] === x[i] && (w ? w[i] : 1) > 0) sizes[j * K + y[i]]++;
  }
  const kde_offset = new Int32Array(d * K + 1);
  for (let b = 0; b < d * K; b++) kde_offset[b + 1] = kde_offset[b] + sizes[b];
  const kde_x = new Float64Array(kde_offset[d * K]);
  const kde_w = new Float64Array(kde_offset[d * K]);
  const fill = kde_offset.slice(0, d * K);
  for (let j = 0; j < d; j++) {
    const x = coded.values[j];
    if (!x) continue;
    for (let i = 0; i < coded.n; i++) {
      const wi = w ? w[i] : 1;
      if (x[i] !== x[i] || !(wi > 0)) continue;
      const at = fill[j * K + y[i]]++;
      kde_x[at] = x[i];
      kde_w[at] = wi;
    }
  }
  const kde_h2 = new Float64Array(K * d).fill(1);
  for (let j = 0; j < d; j++) {
    if (!coded.values[j]) continue;
    for (let k = 0; k < K; k++) {
      const lo = kde_offset[j * K + k];
      const hi = kde_offset[j * K + k + 1];
      let sw = 0;
      let sx = 0;
      for (let t = lo; t < hi; t++) {
        sw += kde_w[t];
        sx += kde_w[t] * kde_x[t];
      }
      if (hi === lo) continue;
      const mu = sx / sw;
      let ss = 0;
      for (let t = lo; t < hi; t++) ss += kde_w[t] * (kde_x[t] - mu) ** 2;
      // Normalised weights: the density is a weighted mean of kernels.
      for (let t = lo; t < hi; t++) kde_w[t] /= sw;
      // Frequency weights (a weight of 2 is a duplicated row): n = Σw and the sample variance divides by Σw − 1.
      const sampleVar = sw > 1 ? ss / (sw - 1) : 0;
      const factor = rule === "scott" ? sw ** -0.2 : ((sw * 3) / 4) ** -0.2;
      kde_h2[k * d + j] = factor * factor * sampleVar + epsilon;
    }
  }
  return { kde_offset, kde_x, kde_w, kde_h2 };
}
