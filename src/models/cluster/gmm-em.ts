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
 * returns the mean log-likelihood of the rows, the quantity `tol` watches.
 */
import { UnusableInputError } from "../contract.js";
import { choleskyInPlace } from "../optim/cholesky.js";

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
 */
export function eStep(X: Float64Array, n: number, p: GmmParameters, resp: Float64Array, factors: Factors = factorise(p)): number {
  const { k, d, type } = p;
  const { inv, halfLogDet } = factors;
  const logW = Float64Array.from(p.weights, (w) => Math.log(w));
  const diff = new Float64Array(d);
  const triangular = type === "full" || type === "tied";
  let total = 0;
  for (let i = 0; i < n; i++) {
    const row = i * d;
    let max = -Infinity;
    for (let c = 0; c < k; c++) {
      const mu = c * d;
      for (let j = 0; j < d; j++) diff[j] = X[row + j] - p.means[mu + j];
      let maha = 0;
      if (triangular) {
        const base = type === "full" ? c * d * d : 0;
        for (let r = 0; r < d; r++) {
          let y = 0;
          const off = base + r * d;
          for (let s = 0; s <= r; s++) y += inv[off + s] * diff[s];
          maha += y * y;
        }
      } else {
        for (let j = 0; j < d; j++) {
          const y = diff[j] * inv[mu + j];
          maha += y * y;
        }
      }
      const lp = logW[c] - 0.5 * (d * LOG_2PI + maha) - halfLogDet[c];
      resp[i * k + c] = lp;
      if (lp > max) max = lp;
    }
    let s = 0;
    for (let c = 0; c < k; c++) s += Math.exp(resp[i * k + c] - max);
    const norm = max + Math.log(s);
    total += norm;
    for (let c = 0; c < k; c++) resp[i * k + c] = Math.exp(resp[i * k + c] - norm);
  }
  return total / n;
}

/** M step: weights, means and covariances (+ reg_covar on the diagonal) from the responsibilities. */
export function mStep(X: Float64Array, n: number, d: number, resp: Float64Array, k: number, type: CovarianceType, regCovar: number): GmmParameters {
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
    for (let c = 0; c < k; c++) {
      // Tied: Σ_c of the scatter about each component's mean, over the total weight (scikit-learn's X'X − Σ nk μμ', here in the stabler centred form).
      const base = type === "full" ? c * d * d : 0;
      for (let i = 0; i < n; i++) {
        const r = resp[i * k + c];
        if (r === 0) continue;
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
