/**
 * The Q matrices of libsvm's dual problems, served row by row through the cache.
 *   C-SVC: Q_ij = y_i y_j K(x_i, x_j) over l variables.
 *   ε-SVR: 2l variables (α then α*), Q_ij = s_i s_j K(x_[i mod l], x_[j mod l]) with s = +1 / −1;
 *          only the l distinct kernel rows are cached, and signed copies are handed out.
 * Positions are permuted by the solver's shrinking (swapIndex); `rows` maps a position to its data row.
 */
import { KernelRowCache } from "./kernel-cache.js";
import { KernelFunction, type KernelSpec, squaredNorms } from "./kernel.js";

export interface QMatrix {
  /** Diagonal Q_ii by position. */
  readonly QD: Float64Array;
  /** Row at position i, valid on [0, len). May be overwritten by the next-but-one call. */
  getQ(i: number, len: number): Float64Array;
  swapIndex(i: number, j: number): void;
}

export class SvcQ implements QMatrix {
  readonly QD: Float64Array;
  private readonly rows: Int32Array;
  private readonly y: Float64Array;
  private readonly sq: Float64Array;
  private readonly kernel: KernelFunction;
  private readonly cache: KernelRowCache;

  constructor(
    private readonly X: Float64Array,
    l: number,
    d: number,
    y: Int8Array,
    spec: KernelSpec,
    cacheBytes: number,
  ) {
    this.kernel = new KernelFunction(spec, d);
    this.sq = squaredNorms(X, l, d);
    this.rows = new Int32Array(l);
    this.y = new Float64Array(l);
    this.QD = new Float64Array(l);
    for (let i = 0; i < l; i++) {
      this.rows[i] = i;
      this.y[i] = y[i];
      this.QD[i] = this.kernel.value(X, i, this.sq[i], X, i, this.sq[i]);
    }
    this.cache = new KernelRowCache(l, cacheBytes);
  }

  getQ(i: number, len: number): Float64Array {
    const row = this.cache.get(i, len);
    const start = this.cache.start;
    if (start < len) this.kernel.fillRow(this.X, this.rows[i], this.sq, this.rows, start, len, row, this.y, this.y[i]);
    return row;
  }

  swapIndex(i: number, j: number): void {
    this.cache.swap(i, j);
    swap(this.rows, i, j);
    swap(this.y, i, j);
    swap(this.QD, i, j);
  }
}

export class SvrQ implements QMatrix {
  readonly QD: Float64Array;
  private readonly sign: Float64Array;
  private readonly index: Int32Array;
  private readonly identity: Int32Array;
  private readonly ones: Float64Array;
  private readonly sq: Float64Array;
  private readonly kernel: KernelFunction;
  private readonly cache: KernelRowCache;
  private readonly buffers: [Float64Array, Float64Array];
  private nextBuffer = 0;

  constructor(
    private readonly X: Float64Array,
    private readonly l: number,
    d: number,
    spec: KernelSpec,
    cacheBytes: number,
  ) {
    this.kernel = new KernelFunction(spec, d);
    this.sq = squaredNorms(X, l, d);
    this.sign = new Float64Array(2 * l);
    this.index = new Int32Array(2 * l);
    this.identity = new Int32Array(l);
    this.ones = new Float64Array(l).fill(1);
    this.QD = new Float64Array(2 * l);
    for (let k = 0; k < l; k++) {
      this.identity[k] = k;
      this.sign[k] = 1;
      this.sign[k + l] = -1;
      this.index[k] = k;
      this.index[k + l] = k;
      this.QD[k] = this.kernel.value(X, k, this.sq[k], X, k, this.sq[k]);
      this.QD[k + l] = this.QD[k];
    }
    this.cache = new KernelRowCache(l, cacheBytes);
    this.buffers = [new Float64Array(2 * l), new Float64Array(2 * l)];
  }

  getQ(i: number, len: number): Float64Array {
    const real = this.index[i];
    const data = this.cache.get(real, this.l);
    if (this.cache.start < this.l) this.kernel.fillRow(this.X, real, this.sq, this.identity, this.cache.start, this.l, data, this.ones, 1);
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
