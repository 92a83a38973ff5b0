/**
 * The training rows as SMO's Q matrices read them: in the solver's position order
 * (shrinking swaps positions, and the rows move with them, so a kernel row reads the data
 * front to back: rows gathered through a permutation cost a cache miss each), with their
 * squared norms, and a kernel row computed in two passes — every dot product first (the
 * WebAssembly SIMD loop of `simd-dot-row.ts`, four rows a pass, or the JavaScript `dot`
 * where WebAssembly is unavailable), then the kernel's transform of each (for rbf, exp by
 * the same module's SIMD pass, then the signs in JavaScript).
 * CPU profiles of the 10,000 × 20 rbf benchmark fit (32.7 M kernel values): ≈ 45 ns a value
 * for one JavaScript pass over permuted rows, ≈ 18 ns with the SIMD dots and Math.exp, ≈ 10 ns
 * with the SIMD exp too.
 */
import { dot, KernelFunction, type KernelSpec } from "./kernel.js";
import { createDotRowKernel, type DotRowKernel } from "./simd-dot-row.js";

export class KernelRows {
  readonly kernel: KernelFunction;
  /** Squared norm of the row at each position. */
  readonly sq: Float64Array;
  /** Doubles a stored row takes (d rounded up to even for the SIMD loop, zero-padded). */
  private readonly stride: number;
  private readonly simd: DotRowKernel | null;
  /** The rows, row-major in position order (inside the WebAssembly memory when simd). */
  private readonly data: Float64Array;
  /** Dot products of the last fill, by position (inside the WebAssembly memory when simd). */
  private readonly dots: Float64Array;
  /** γ of an rbf kernel, whose exp the SIMD kernel computes too; null for the other kernels. */
  private readonly rbfGamma: number | null;

  constructor(
    X: Float64Array,
    private readonly l: number,
    private readonly d: number,
    spec: KernelSpec,
  ) {
    this.kernel = new KernelFunction(spec, d);
    this.stride = d + (d & 1);
    // Rows, then dots and squared norms with one double of padding each (the rbf pass reads pairs).
    const bytes = 8 * (l * this.stride + 2 * (l + 1));
    this.simd = d > 0 ? createDotRowKernel(bytes) : null;
    const buffer = this.simd ? this.simd.memory.buffer : new ArrayBuffer(bytes);
    this.data = new Float64Array(buffer, 0, l * this.stride);
    this.dots = new Float64Array(buffer, 8 * l * this.stride, l + 1);
    this.sq = new Float64Array(buffer, 8 * (l * this.stride + l + 1), l + 1);
    this.rbfGamma = spec.kind === "rbf" ? spec.gamma : null;
    for (let i = 0; i < l; i++) {
      let s = 0;
      for (let t = 0; t < d; t++) {
        const v = X[i * d + t];
        this.data[i * this.stride + t] = v;
        s += v * v;
      }
      this.sq[i] = s;
    }
  }

  /** K(x_i, x_i) for the row at position i. */
  diagonal(i: number): number {
    const o = i * this.stride;
    return this.kernel.transform(dot(this.data, o, this.data, o, this.d), this.sq[i], this.sq[i]);
  }

  /** out[j] = signA·sign[j]·K(x_a, x_j) for positions j in [start, end). */
  fill(a: number, start: number, end: number, out: Float32Array, sign: Float64Array, signA: number): void {
    if (start >= end) return;
    const { stride, dots } = this;
    const simd = this.simd;
    if (simd) simd.dots(8 * a * stride, 8 * start * stride, end - start, 8 * stride, dots.byteOffset + 8 * start);
    else for (let j = start; j < end; j++) dots[j] = dot(this.data, a * stride, this.data, j * stride, this.d);
    if (simd && this.rbfGamma !== null) {
      simd.rbf(dots.byteOffset + 8 * start, this.sq.byteOffset + 8 * start, end - start, this.sq[a], -this.rbfGamma);
      for (let j = start; j < end; j++) out[j] = signA * sign[j] * dots[j];
    } else this.kernel.transformRow(dots, this.sq, a, start, end, out, sign, signA);
  }

  /** Follows the solver swapping positions i and j. */
  swap(i: number, j: number): void {
    const { data, stride } = this;
    for (let t = 0, oi = i * stride, oj = j * stride; t < stride; t++) {
      const v = data[oi + t];
      data[oi + t] = data[oj + t];
      data[oj + t] = v;
    }
    const s = this.sq[i];
    this.sq[i] = this.sq[j];
    this.sq[j] = s;
  }
}
