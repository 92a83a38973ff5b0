/**
 * Kernels as libsvm defines them: linear x·z, poly (γ x·z + coef0)^degree,
 * rbf exp(−γ‖x−z‖²), sigmoid tanh(γ x·z + coef0). Every kernel is a function of
 * x·z and the two squared norms, so rows are filled by one dot-product loop and a
 * per-kernel transform chosen once per row (not per element).
 */
export type KernelKind = "linear" | "poly" | "rbf" | "sigmoid";

/** A kernel with its γ resolved to a number (see resolveGamma). */
export interface KernelSpec {
  kind: KernelKind;
  gamma: number;
  degree: number;
  coef0: number;
}

export type GammaSpec = { kind: "scale" } | { kind: "auto" } | { kind: "value"; value: number };

/** scikit-learn's rules: "scale" = 1/(d·Var(X)) over all cells (1 when X is constant), "auto" = 1/d. */
export function resolveGamma(gamma: GammaSpec, X: Float64Array, d: number): number {
  if (gamma.kind === "value") return gamma.value;
  if (d === 0) return 1;
  if (gamma.kind === "auto") return 1 / d;
  const m = X.length;
  let mean = 0;
  for (let i = 0; i < m; i++) mean += X[i];
  mean /= m;
  let v = 0;
  for (let i = 0; i < m; i++) v += (X[i] - mean) * (X[i] - mean);
  v /= m;
  return v === 0 ? 1 : 1 / (d * v);
}

export function squaredNorms(X: Float64Array, n: number, d: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    const o = i * d;
    for (let t = 0; t < d; t++) s += X[o + t] * X[o + t];
    out[i] = s;
  }
  return out;
}

function powi(base: number, times: number): number {
  // libsvm's powi: exact repeated squaring, so integer degrees match it bit for bit.
  let tmp = base;
  let ret = 1;
  for (let t = times; t > 0; t = Math.floor(t / 2)) {
    if (t % 2 === 1) ret *= tmp;
    tmp *= tmp;
  }
  return ret;
}

/**
 * K between rows of two row-major matrices A (nA × d) and B (nB × d), with their
 * squared norms (only rbf reads them).
 */
export class KernelFunction {
  constructor(
    readonly spec: KernelSpec,
    private readonly d: number,
  ) {}

  value(A: Float64Array, a: number, sqA: number, B: Float64Array, b: number, sqB: number): number {
    return this.transform(dot(A, a * this.d, B, b * this.d, this.d), sqA, sqB);
  }

  transform(dot: number, sqA: number, sqB: number): number {
    const s = this.spec;
    switch (s.kind) {
      case "linear":
        return dot;
      case "poly":
        return powi(s.gamma * dot + s.coef0, s.degree);
      case "rbf":
        return Math.exp(-s.gamma * (sqA + sqB - 2 * dot));
      case "sigmoid":
        return Math.tanh(s.gamma * dot + s.coef0);
    }
  }

  /**
   * out[j] = signA·sign[j]·K(x_a, x_j) for j in [start, end), from the dot products
   * dots[j] = x_a·x_j and the squared norms (kernel-rows.ts computes the dots): one loop per
   * kernel rather than a branch per element.
   */
  transformRow(dots: Float64Array, sq: Float64Array, a: number, start: number, end: number, out: Float32Array, sign: Float64Array, signA: number): void {
    const { kind, gamma, coef0, degree } = this.spec;
    if (kind === "rbf") {
      const sqa = sq[a];
      for (let j = start; j < end; j++) out[j] = signA * sign[j] * Math.exp(-gamma * (sqa + sq[j] - 2 * dots[j]));
    } else if (kind === "linear") {
      for (let j = start; j < end; j++) out[j] = signA * sign[j] * dots[j];
    } else if (kind === "poly") {
      for (let j = start; j < end; j++) out[j] = signA * sign[j] * powi(gamma * dots[j] + coef0, degree);
    } else {
      for (let j = start; j < end; j++) out[j] = signA * sign[j] * Math.tanh(gamma * dots[j] + coef0);
    }
  }
}

/**
 * x·z over d entries from offsets oa, ob. Four accumulators: a single running sum is
 * bound by the latency of each add, four independent ones are not (about 3× faster).
 */
export function dot(A: Float64Array, oa: number, B: Float64Array, ob: number, d: number): number {
  let s0 = 0;
  let s1 = 0;
  let s2 = 0;
  let s3 = 0;
  let t = 0;
  for (; t + 3 < d; t += 4) {
    s0 += A[oa + t] * B[ob + t];
    s1 += A[oa + t + 1] * B[ob + t + 1];
    s2 += A[oa + t + 2] * B[ob + t + 2];
    s3 += A[oa + t + 3] * B[ob + t + 3];
  }
  for (; t < d; t++) s0 += A[oa + t] * B[ob + t];
  return s0 + s1 + (s2 + s3);
}
