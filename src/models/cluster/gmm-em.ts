/**
 * EM for a Gaussian mixture, step for step as scikit-learn's GaussianMixture
 * (`_e_step`, `_m_step`, `_estimate_gaussian_parameters`), so the same start gives the
 * same log-likelihood. Covariances by type:
 *
 *   full       k matrices d × d          tied   one d × d matrix shared by all components
 *   diag       k × d variances           spherical   one variance per component
 *
 * The E step evaluates log N(x | μ, Σ) through the inverse of Σ's Cholesky factor L
 * (‖L⁻¹(x − μ)‖² and log|Σ| = 2 Σ log Lᵢᵢ), normalises in log space (log-sum-exp), and
 * returns the mean log-likelihood of the rows, the quantity `tol` watches. From 2,048 rows, full and
 * tied covariances run the E step's ‖L⁻¹(x − μ)‖² and the M step's scatter on WebAssembly SIMD
 * (simd-gaussian.ts: the same operations in the same order, so the same values to the last bit).
 */
import { UnusableInputError } from "../contract.js";
import { choleskyInPlace } from "../optim/cholesky.js";
import type { GaussianRows } from "./simd-gaussian.js";

export type CovarianceType = "full" | "tied" | "diag" | "spherical";

export interface GmmParameters {
  readonly type: CovarianceType;
  readonly k: number;
  readonly d: number;
  readonly weights: Float64Array<ArrayBuffer>;
  /** k × d. */
  readonly means: Float64Array<ArrayBuffer>;
  /** full: k·d·d; tied: d·d; diag: k·d; spherical: k. */
  readonly covariances: Float64Array<ArrayBuffer>;
}

export function covarianceLength(type: CovarianceType, k: number, d: number): number {
  return type === "full" ? k * d * d : type === "tied" ? d * d : type === "diag" ? k * d : k;
}

/** What the E step needs: per component either L⁻¹ (full, tied) or 1/σ per feature (diag, spherical), and log|Σ|/2. */
interface Factors {
  readonly inv: Float64Array;
  readonly halfLogDet: Float64Array;
}

const EPS = 2.220446049250313e-16;
const LOG_2PI = Math.log(2 * Math.PI);

function illDefined(c: number): UnusableInputError {
  return new UnusableInputError(
    `the covariance of component ${c} is not positive definite (a component collapsed onto too few distinct rows); increase reg_covar, lower n_components, or scale the inputs`,
  );
}

/** L⁻¹ of a d × d covariance (lower triangular, row-major), or null when it is not positive definite. */
function inverseFactor(cov: Float64Array, d: number): { inv: Float64Array; halfLogDet: number } | null {
  const L = Float64Array.from(cov);
  if (!choleskyInPlace(L, d)) return null;
  const inv = new Float64Array(d * d);
  let halfLogDet = 0;
  for (let i = 0; i < d; i++) halfLogDet += Math.log(L[i * d + i]);
  // Forward substitution, one column of the identity at a time.
  for (let c = 0; c < d; c++) {
    for (let i = c; i < d; i++) {
      let s = i === c ? 1 : 0;
      for (let t = c; t < i; t++) s -= L[i * d + t] * inv[t * d + c];
      inv[i * d + c] = s / L[i * d + i];
    }
  }
  return { inv, halfLogDet };
}

export function factorise(p: GmmParameters): Factors {
  const { k, d, type } = p;
  const halfLogDet = new Float64Array(k);
  if (type === "full" || type === "tied") {
    const blocks = type === "full" ? k : 1;
    const inv = new Float64Array(blocks * d * d);
    for (let b = 0; b < blocks; b++) {
      const f = inverseFactor(p.covariances.subarray(b * d * d, (b + 1) * d * d), d);
      if (!f) throw illDefined(b);
      inv.set(f.inv, b * d * d);
      if (type === "full") halfLogDet[b] = f.halfLogDet;
      else halfLogDet.fill(f.halfLogDet);
    }
    return { inv, halfLogDet };
  }
  const inv = new Float64Array(k * d);
  for (let c = 0; c < k; c++) {
    for (let j = 0; j < d; j++) {
      const v = type === "diag" ? p.covariances[c * d + j] : p.covariances[c];
      if (!(v > 0) || !Number.isFinite(v)) throw illDefined(c);
      inv[c * d + j] = 1 / Math.sqrt(v);
      halfLogDet[c] += 0.5 * Math.log(v);
    }
  }
  return { inv, halfLogDet };
}

/**
 * E step into resp (n × k, each row the membership probabilities). Returns the mean over
 * rows of log p(x) — scikit-learn's lower bound for a Gaussian mixture.
 *
 * `fixed` (semi-supervised EM, ../semi/semi-gmm.ts; the book's 13.2): a component per row
 * that the row belongs to (−1: free). Such a row's responsibilities are 1 for that component,
 * and it adds log α_c p(x | c) to the sum instead of log p(x) — the log-likelihood of
 * labelled and unlabelled data together (the book's (13.4)).
 *
 * `kernel` (the rows X in a SIMD kernel's memory, simd-gaussian.ts): full and tied covariances
 * take their ‖L⁻¹(x − μ)‖² from it — the same values to the last bit.
 */
export function eStep(X: Float64Array, n: number, p: GmmParameters, resp: Float64Array, factors: Factors = factorise(p), fixed?: Int32Array, kernel?: GaussianRows | null): number {
  const { k, d, type } = p;
  const { inv, halfLogDet } = factors;
  const logW = Float64Array.from(p.weights, (w) => Math.log(w));
  const diff = new Float64Array(d);
  const diff2 = new Float64Array(d);
  const diff3 = new Float64Array(d);
  const diff4 = new Float64Array(d);
  const triangular = type === "full" || type === "tied";
  const constant = d * LOG_2PI;
  // Log densities first; full and tied covariances take four rows per sweep, so each factor entry is loaded once for all four.
  let i = 0;
  if (triangular && kernel) {
    for (let c = 0; c < k; c++) {
      const m = kernel.mahalanobis(inv, type === "full" ? c * d * d : 0, p.means, c * d);
      for (let r = 0; r < n; r++) resp[r * k + c] = logW[c] - 0.5 * (constant + m[r]) - halfLogDet[c];
    }
    i = n;
  } else if (triangular) {
    for (; i + 3 < n; i += 4) {
      for (let c = 0; c < k; c++) {
        const mu = c * d;
        for (let j = 0; j < d; j++) {
          const m = p.means[mu + j];
          diff[j] = X[i * d + j] - m;
          diff2[j] = X[(i + 1) * d + j] - m;
          diff3[j] = X[(i + 2) * d + j] - m;
          diff4[j] = X[(i + 3) * d + j] - m;
        }
        const base = type === "full" ? c * d * d : 0;
        let m1 = 0;
        let m2 = 0;
        let m3 = 0;
        let m4 = 0;
        for (let r = 0; r < d; r++) {
          let y1 = 0;
          let y2 = 0;
          let y3 = 0;
          let y4 = 0;
          const off = base + r * d;
          for (let q = 0; q <= r; q++) {
            const u = inv[off + q];
            y1 += u * diff[q];
            y2 += u * diff2[q];
            y3 += u * diff3[q];
            y4 += u * diff4[q];
          }
          m1 += y1 * y1;
          m2 += y2 * y2;
          m3 += y3 * y3;
          m4 += y4 * y4;
        }
        resp[i * k + c] = logW[c] - 0.5 * (constant + m1) - halfLogDet[c];
        resp[(i + 1) * k + c] = logW[c] - 0.5 * (constant + m2) - halfLogDet[c];
        resp[(i + 2) * k + c] = logW[c] - 0.5 * (constant + m3) - halfLogDet[c];
        resp[(i + 3) * k + c] = logW[c] - 0.5 * (constant + m4) - halfLogDet[c];
      }
    }
  }
  for (; i < n; i++) {
    const row = i * d;
    for (let c = 0; c < k; c++) {
      const mu = c * d;
      for (let j = 0; j < d; j++) diff[j] = X[row + j] - p.means[mu + j];
      let maha = 0;
      if (triangular) {
        const base = type === "full" ? c * d * d : 0;
        for (let r = 0; r < d; r++) {
          let y = 0;
          const off = base + r * d;
          for (let q = 0; q <= r; q++) y += inv[off + q] * diff[q];
          maha += y * y;
        }
      } else {
        for (let j = 0; j < d; j++) {
          const y = diff[j] * inv[mu + j];
          maha += y * y;
        }
      }
      resp[i * k + c] = logW[c] - 0.5 * (constant + maha) - halfLogDet[c];
    }
  }
  // Then each row normalised in log space (log-sum-exp).
  let total = 0;
  for (let r = 0; r < n; r++) {
    const o = r * k;
    const own = fixed ? fixed[r] : -1;
    if (own >= 0) {
      total += resp[o + own];
      resp.fill(0, o, o + k);
      resp[o + own] = 1;
      continue;
    }
    let max = -Infinity;
    for (let c = 0; c < k; c++) if (resp[o + c] > max) max = resp[o + c];
    let sum = 0;
    for (let c = 0; c < k; c++) sum += Math.exp(resp[o + c] - max);
    const norm = max + Math.log(sum);
    total += norm;
    for (let c = 0; c < k; c++) resp[o + c] = Math.exp(resp[o + c] - norm);
  }
  return total / n;
}

/**
 * M step: weights, means and covariances (+ reg_covar on the diagonal) from the responsibilities.
 * `kernel` (as for eStep): the full and tied scatters' groups of four rows by it, the same sums to the last bit.
 */
export function mStep(X: Float64Array, n: number, d: number, resp: Float64Array, k: number, type: CovarianceType, regCovar: number, kernel?: GaussianRows | null): GmmParameters {
  const nk = new Float64Array(k);
  const means = new Float64Array(k * d);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < k; c++) {
      const r = resp[i * k + c];
      nk[c] += r;
      if (r === 0) continue;
      for (let j = 0; j < d; j++) means[c * d + j] += r * X[i * d + j];
    }
  }
  // scikit-learn adds 10·eps so that an empty component divides by something.
  for (let c = 0; c < k; c++) nk[c] += 10 * EPS;
  for (let c = 0; c < k; c++) for (let j = 0; j < d; j++) means[c * d + j] /= nk[c];
  const covariances = new Float64Array(covarianceLength(type, k, d));
  if (type === "full" || type === "tied") {
    const diff = new Float64Array(d);
    const diff2 = new Float64Array(d);
    const diff3 = new Float64Array(d);
    const diff4 = new Float64Array(d);
    for (let c = 0; c < k; c++) {
      // Tied: Σ_c of the scatter about each component's mean, over the total weight (scikit-learn's X'X − Σ nk μμ', here in the stabler centred form).
      const base = type === "full" ? c * d * d : 0;
      // Four rows per sweep: each covariance entry is read and written once for all four (a quarter of the hot loop's memory traffic).
      let i = kernel ? kernel.scatter(resp, k, c, means, c * d, covariances, base) : 0;
      for (; i + 3 < n; i += 4) {
        const r = resp[i * k + c];
        const r2 = resp[(i + 1) * k + c];
        const r3 = resp[(i + 2) * k + c];
        const r4 = resp[(i + 3) * k + c];
        for (let j = 0; j < d; j++) {
          const m = means[c * d + j];
          diff[j] = X[i * d + j] - m;
          diff2[j] = X[(i + 1) * d + j] - m;
          diff3[j] = X[(i + 2) * d + j] - m;
          diff4[j] = X[(i + 3) * d + j] - m;
        }
        for (let a = 0; a < d; a++) {
          const ra = r * diff[a];
          const ra2 = r2 * diff2[a];
          const ra3 = r3 * diff3[a];
          const ra4 = r4 * diff4[a];
          const off = base + a * d;
          for (let b = 0; b <= a; b++) covariances[off + b] += ra * diff[b] + ra2 * diff2[b] + (ra3 * diff3[b] + ra4 * diff4[b]);
        }
      }
      for (; i < n; i++) {
        const r = resp[i * k + c];
        for (let j = 0; j < d; j++) diff[j] = X[i * d + j] - means[c * d + j];
        for (let a = 0; a < d; a++) {
          const ra = r * diff[a];
          const off = base + a * d;
          for (let b = 0; b <= a; b++) covariances[off + b] += ra * diff[b];
        }
      }
      if (type === "full") scaleSymmetric(covariances, base, d, nk[c], regCovar);
    }
    if (type === "tied") scaleSymmetric(covariances, 0, d, nk.reduce((a, b) => a + b, 0), regCovar);
  } else {
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) {
        const r = resp[i * k + c];
        if (r === 0) continue;
        for (let j = 0; j < d; j++) {
          const t = X[i * d + j] - means[c * d + j];
          if (type === "diag") covariances[c * d + j] += r * t * t;
          else covariances[c] += r * t * t;
        }
      }
    }
    for (let c = 0; c < k; c++) {
      if (type === "diag") for (let j = 0; j < d; j++) covariances[c * d + j] = covariances[c * d + j] / nk[c] + regCovar;
      else covariances[c] = covariances[c] / nk[c] / d + regCovar;
    }
  }
  const total = nk.reduce((a, b) => a + b, 0);
  const weights = Float64Array.from(nk, (v) => v / total);
  return { type, k, d, weights, means, covariances };
}

/** The lower triangle accumulated at base, divided by w, regularised and mirrored to the upper one. */
function scaleSymmetric(M: Float64Array, base: number, d: number, w: number, reg: number): void {
  for (let a = 0; a < d; a++) {
    for (let b = 0; b <= a; b++) {
      const v = M[base + a * d + b] / w + (a === b ? reg : 0);
      M[base + a * d + b] = v;
      M[base + b * d + a] = v;
    }
  }
}

/** Initial parameters: uniform weights, the given means, variance·I in the shape of the covariance type (the book's start). */
export function startAtMeans(means: Float64Array<ArrayBuffer>, k: number, d: number, type: CovarianceType, variance: number): GmmParameters {
  const covariances = new Float64Array(covarianceLength(type, k, d));
  if (type === "full" || type === "tied") {
    for (let b = 0; b < (type === "full" ? k : 1); b++) for (let j = 0; j < d; j++) covariances[b * d * d + j * d + j] = variance;
  } else {
    covariances.fill(variance);
  }
  return { type, k, d, weights: new Float64Array(k).fill(1 / k), means, covariances };
}
