/**
 * The Q matrices of libsvm's dual problems, served row by row through the cache.
 *   C-SVC: Q_ij = y_i y_j K(x_i, x_j) over l variables.
 *   ε-SVR: 2l variables (α then α*), Q_ij = s_i s_j K(x_[i mod l], x_[j mod l]) with s = +1 / −1;
 *          only the l distinct kernel rows are cached, and signed copies are handed out.
 * Positions are permuted by the solver's shrinking (swapIndex); SvcQ's rows move with them (kernel-rows.ts).
 * Rows are Float32, as libsvm's Qfloat: half the memory and memory traffic of doubles, and
 * libsvm's own rounding of Q (the solver's sums and its gradient stay in doubles).
 */
import { KernelRowCache } from "./kernel-cache.js";
import type { KernelSpec } from "./kernel.js";
import { KernelRows } from "./kernel-rows.js";

export interface QMatrix {
  /** Diagonal Q_ii by position. */
  readonly QD: Float64Array;
  /** Row at position i, valid on [0, len). May be overwritten by the next-but-one call. */
  getQ(i: number, len: number): Float32Array;
  swapIndex(i: number, j: number): void;
}

export class SvcQ implements QMatrix {
  readonly QD: Float64Array;
  private readonly y: Float64Array;
  private readonly rows: KernelRows;
  private readonly cache: KernelRowCache;

  constructor(X: Float64Array, l: number, d: number, y: Int8Array, spec: KernelSpec, cacheBytes: number) {
    this.rows = new KernelRows(X, l, d, spec);
    this.y = new Float64Array(l);
    this.QD = new Float64Array(l);
    for (let i = 0; i < l; i++) {
      this.y[i] = y[i];
      this.QD[i] = this.rows.diagonal(i);
    }
    this.cache = new KernelRowCache(l, cacheBytes);
  }

  getQ(i: number, len: number): Float32Array {
    const row = this.cache.get(i, len);
    this.rows.fill(i, this.cache.start, len, row, this.y, this.y[i]);
    return row;
  }

  swapIndex(i: number, j: number): void {
    this.cache.swap(i, j);
    this.rows.swap(i, j);
    swap(this.y, i, j);
    swap(this.QD, i, j);
  }
}

export class SvrQ implements QMatrix {
  readonly QD: Float64Array;
  private readonly sign: Float64Array;
  private readonly index: Int32Array;
  private readonly ones: Float64Array;
  private readonly rows: KernelRows;
  private readonly cache: KernelRowCache;
  private readonly buffers: [Float32Array, Float32Array];
  private nextBuffer = 0;

  constructor(
    X: Float64Array,
    private readonly l: number,
    d: number,
    spec: KernelSpec,
    cacheBytes: number,
  ) {
    // The l data rows never move: positions index them through `index`.
    this.rows = new KernelRows(X, l, d, spec);
    this.sign = new Float64Array(2 * l);
    this.index = new Int32Array(2 * l);
    this.ones = new Float64Array(l).fill(1);
    this.QD = new Float64Array(2 * l);
    for (let k = 0; k < l; k++) {
      this.sign[k] = 1;
      this.sign[k + l] = -1;
      this.index[k] = k;
      this.index[k + l] = k;
      this.QD[k] = this.rows.diagonal(k);
      this.QD[k + l] = this.QD[k];
    }
    this.cache = new KernelRowCache(l, cacheBytes);
    this.buffers = [new Float32Array(2 * l), new Float32Array(2 * l)];
  }

  getQ(i: number, len: number): Float32Array {
    const real = this.index[i];
    const data = this.cache.get(real, this.l);
    this.rows.fill(real, this.cache.start, this.l, data, this.ones, 1);
    // Two alternating buffers: the solver holds Q_i while asking for Q_j.
    const buf = this.buffers[this.nextBuffer];
    this.nextBuffer = 1 - this.nextBuffer;
    const si = this.sign[i];
    const sign = this.sign;
    const index = this.index;
    for (let j = 0; j < len; j++) buf[j] = si * sign[j] * data[index[j]];
    return buf;
  }

  swapIndex(i: number, j: number): void {
    swap(this.sign, i, j);
    swap(this.index, i, j);
    swap(this.QD, i, j);
  }
}

function swap(a: Float64Array | Int32Array, i: number, j: number): void {
  const t = a[i];
  a[i] = a[j];
  a[j] = t;
}
