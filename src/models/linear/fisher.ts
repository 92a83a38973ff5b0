/**
 * The generalised eigenproblem behind LDA, S_b v = λ S_w v, solved by whitening
 * as scikit-learn's svd solver does: each feature is first divided by its scale s_a
 * (by default √S_w[a,a]), C = D⁻¹ S_w D⁻¹ = V Λ Vᵀ (ml-matrix EVD), and only the
 * directions with √λ > tol are kept, W = D⁻¹ V_r Λ_r^{−1/2} (a singular S_w —
 * constant or collinear features — loses those directions instead of being
 * inverted); the eigenvectors U of Wᵀ S_b W then give v = W U with vᵀ S_w v = 1.
 * The cut is taken after standardising because a relative cut on the raw S_w
 * drops real directions whenever feature scales differ by more than 1/tol
 * (breast cancer: areas ~10³, fractal dimensions ~10⁻³).
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { UnusableInputError } from "../contract.js";

export interface GeneralizedEigen {
  /** p × m row-major, columns sorted by decreasing eigenvalue, each with vᵀ S_w v = 1. */
  vectors: Float64Array<ArrayBuffer>;
  values: Float64Array<ArrayBuffer>;
  m: number;
  /** W Wᵀ, the pseudo-inverse of S_w on its kept subspace (p × p row-major). */
  withinPinv: Float64Array<ArrayBuffer>;
}

/** Entries below this fraction of the largest are numerically zero for the eigenproblem (see symmetricEigen). */
const NEGLIGIBLE = 1e-150;

export function symmetricEigen(a: Float64Array, p: number): { values: number[]; vectors: Matrix } {
  // ml-matrix's tql2 crashes (reads past its arrays) on a matrix with NaN or ±Infinity, which is what a
  // Gram or scatter matrix of values near ±1e154 and beyond overflows to: the input's fault, so a 422.
  for (let i = 0; i < p * p; i++) {
    if (!Number.isFinite(a[i])) throw new UnusableInputError("the inputs overflow double precision when squared (a Gram or scatter matrix is not finite); rescale them, e.g. with a scale step");
  }
  // tql2 also crashes when its intermediate products go subnormal (its convergence test never passes), as
  // they do for a Gram matrix of values near 1e-160 and below. Dividing by the largest entry (eigenvectors
  // unchanged, eigenvalues scaled back below) and flushing entries under 1e-150 of it — they move any
  // eigenvalue by less than 1e-150 of the largest, far under double precision's resolution, and the
  // product of two kept entries stays a normal number — leaves a matrix tql2 handles.
  let largest = 0;
  for (let i = 0; i < p * p; i++) largest = Math.max(largest, Math.abs(a[i]));
  const scale = largest > 0 ? largest : 1;
  const m = new Matrix(p, p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j < p; j++) {
      const v = (0.5 * (a[i * p + j] + a[j * p + i])) / scale;
      m.set(i, j, Math.abs(v) < NEGLIGIBLE ? 0 : v);
    }
  }
  const evd = new EigenvalueDecomposition(m, { assumeSymmetric: true });
  return { values: evd.realEigenvalues.map((v) => v * scale), vectors: evd.eigenvectorMatrix };
}

export function generalizedEigen(within: Float64Array, between: Float64Array, p: number, maxComponents: number, tol: number, scale?: Float64Array): GeneralizedEigen {
  const s = Float64Array.from({ length: p }, (_, a) => {
    const v = scale ? scale[a] : Math.sqrt(within[a * p + a]);
    return v > 0 && Number.isFinite(v) ? v : 1;
  });
  const standardized = new Float64Array(p * p);
  for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) standardized[a * p + b] = within[a * p + b] / (s[a] * s[b]);
  const { values: d, vectors: v } = symmetricEigen(standardized, p);
  const kept = d.map((x, i) => ({ x, i })).filter(({ x }) => x > 0 && Math.sqrt(x) > tol);
  const r = kept.length;
  const w = new Float64Array(p * r);
  kept.forEach(({ x, i }, c) => {
    const f = 1 / Math.sqrt(x);
    for (let a = 0; a < p; a++) w[a * r + c] = (v.get(a, i) * f) / s[a];
  });
  const withinPinv = new Float64Array(p * p);
  for (let a = 0; a < p; a++) {
    for (let b = 0; b < p; b++) {
      let s = 0;
      for (let c = 0; c < r; c++) s += w[a * r + c] * w[b * r + c];
      withinPinv[a * p + b] = s;
    }
  }
  // M = Wᵀ S_b W (r × r)
  const bw = new Float64Array(p * r);
  for (let a = 0; a < p; a++) {
    for (let c = 0; c < r; c++) {
      let s = 0;
      for (let b = 0; b < p; b++) s += between[a * p + b] * w[b * r + c];
      bw[a * r + c] = s;
    }
  }
  const mm = new Float64Array(r * r);
  for (let c1 = 0; c1 < r; c1++) {
    for (let c2 = 0; c2 < r; c2++) {
      let s = 0;
      for (let a = 0; a < p; a++) s += w[a * r + c1] * bw[a * r + c2];
      mm[c1 * r + c2] = s;
    }
  }
  const { values: lambda, vectors: u } = r > 0 ? symmetricEigen(mm, r) : { values: [], vectors: new Matrix(0, 0) };
  const order = lambda.map((x, i) => ({ x, i })).sort((a, b) => b.x - a.x);
  const m = Math.min(maxComponents, r);
  const vectors = new Float64Array(p * m);
  const values = new Float64Array(m);
  for (let k = 0; k < m; k++) {
    const { x, i } = order[k];
    values[k] = Math.max(0, x);
    for (let a = 0; a < p; a++) {
      let s = 0;
      for (let c = 0; c < r; c++) s += w[a * r + c] * u.get(c, i);
      vectors[a * m + k] = s;
    }
  }
  return { vectors, values, m, withinPinv };
}

export interface ClassStatistics {
  counts: Float64Array;
  /** K × p row-major. */
  means: Float64Array<ArrayBuffer>;
  /** Σ_k Σ_{x∈k} (x − μ_k)(x − μ_k)ᵀ, p × p. */
  scatter: Float64Array;
  /** The same sum for each class alone. */
  classScatter: Float64Array[];
}

export function classStatistics(columns: readonly Float64Array[], n: number, y: Int32Array, classes: number): ClassStatistics {
  const p = columns.length;
  const counts = new Float64Array(classes);
  for (let i = 0; i < n; i++) counts[y[i]]++;
  const means = new Float64Array(classes * p);
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    for (let i = 0; i < n; i++) means[y[i] * p + j] += c[i];
  }
  for (let k = 0; k < classes; k++) for (let j = 0; j < p; j++) means[k * p + j] /= Math.max(counts[k], 1);
  const classScatter = Array.from({ length: classes }, () => new Float64Array(p * p));
  for (let a = 0; a < p; a++) {
    const ca = columns[a];
    for (let b = 0; b <= a; b++) {
      const cb = columns[b];
      for (let i = 0; i < n; i++) {
        const k = y[i];
        classScatter[k][a * p + b] += (ca[i] - means[k * p + a]) * (cb[i] - means[k * p + b]);
      }
    }
  }
  const scatter = new Float64Array(p * p);
  for (const sk of classScatter) {
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < a; b++) sk[b * p + a] = sk[a * p + b];
    }
    for (let i = 0; i < p * p; i++) scatter[i] += sk[i];
  }
  return { counts, means, scatter, classScatter };
}

export interface FisherResult {
  /** p × m row-major, unit-length columns. */
  directions: Float64Array<ArrayBuffer>;
  eigenvalues: Float64Array<ArrayBuffer>;
  m: number;
}

/**
 * The watermelon book's Fisher discriminant: eigenvectors of S_w⁻¹S_b with
 * S_b = (μ0 − μ1)(μ0 − μ1)ᵀ for two classes (eq. 3.34) and
 * S_b = Σ_k m_k (μ_k − μ)(μ_k − μ)ᵀ for more (eq. 3.43).
 * within "scatter": S_w = Σ_k Σ_{x∈k} (x − μ_k)(x − μ_k)ᵀ (the book);
 * within "covariance": S_w = Σ_k that class's covariance divided by m_k − 1 (seed 004's slide).
 * Directions have unit length with their largest-magnitude component positive.
 */
export function fisherDiscriminant(
  columns: readonly Float64Array[],
  n: number,
  y: Int32Array,
  classes: number,
  within: "scatter" | "covariance" = "scatter",
  tol = 1e-4,
  stats: ClassStatistics = classStatistics(columns, n, y, classes),
): FisherResult {
  const p = columns.length;
  let sw = stats.scatter;
  if (within === "covariance") {
    sw = new Float64Array(p * p);
    stats.classScatter.forEach((sk, k) => {
      const div = Math.max(stats.counts[k] - 1, 1);
      for (let i = 0; i < p * p; i++) sw[i] += sk[i] / div;
    });
  }
  const sb = betweenScatter(stats, classes, p, n);
  const g = generalizedEigen(sw, sb, p, Math.min(classes - 1, p), tol);
  const directions = new Float64Array(p * g.m);
  for (let k = 0; k < g.m; k++) {
    let norm = 0;
    let big = 0;
    for (let a = 0; a < p; a++) {
      const v = g.vectors[a * g.m + k];
      norm += v * v;
      if (Math.abs(v) > Math.abs(big)) big = v;
    }
    const f = (big < 0 ? -1 : 1) / Math.sqrt(norm);
    for (let a = 0; a < p; a++) directions[a * g.m + k] = g.vectors[a * g.m + k] * f;
  }
  return { directions, eigenvalues: g.values, m: g.m };
}

function betweenScatter(stats: ClassStatistics, classes: number, p: number, n: number): Float64Array {
  const sb = new Float64Array(p * p);
  const { means, counts } = stats;
  if (classes === 2) {
    for (let a = 0; a < p; a++) for (let b = 0; b < p; b++) sb[a * p + b] = (means[a] - means[p + a]) * (means[b] - means[p + b]);
    return sb;
  }
  const mu = new Float64Array(p);
  for (let k = 0; k < classes; k++) for (let a = 0; a < p; a++) mu[a] += (counts[k] * means[k * p + a]) / n;
  for (let k = 0; k < classes; k++) {
    for (let a = 0; a < p; a++) {
      for (let b = 0; b < p; b++) sb[a * p + b] += counts[k] * (means[k * p + a] - mu[a]) * (means[k * p + b] - mu[b]);
    }
  }
  return sb;
}
