/**
 * The two O(n·k·d²) loops of EM with full or tied covariances (gmm-em.ts) as WebAssembly SIMD
 * functions (bytes written with data/wasm-bytes.ts), each doing the JavaScript loop's exact
 * operations in its order, so the results are the same to the last bit:
 *
 * maha(x, blocks, inv, mean, d, out, scratch): the E step's ‖L⁻¹(x − μ)‖² for every row. Rows are
 * laid out as for the k-means kernel (blocks of eight interleaved by coordinate, interleaveRows), so
 * each lane is one row: diff_q = x_q − μ_q, then for r = 0 … d − 1: y = Σ_{q ≤ r} L⁻¹[r][q]·diff_q
 * (q in order, from 0), m += y² — the JavaScript sums, row by row.
 *
 * scatter(x, groups, r, mean, d, acc, scratch, pairs): the M step's weighted scatter of one
 * component over groups of four rows, added into acc (row-major, a row stride of 2·pairs ≥ d). Here
 * the lanes are two neighbouring entries (a, b), (a, b + 1) of one covariance row, so each entry
 * gets the JavaScript loop's sum for the four rows of a group, in its order:
 * acc[a][b] += (r₁·δ₁[a]·δ₁[b] + r₂·δ₂[a]·δ₂[b]) + (r₃·δ₃[a]·δ₃[b] + r₄·δ₄[a]·δ₄[b]), δ = x − μ. Row a
 * gets entries b ≤ a (and, for even a, the upper entry a + 1 too, never read back).
 */
import type { WasmMemory } from "../../data/wasm-bytes.js";
import { compileModule, f64Load, f64Store, F64X2_ADD, F64X2_MUL, F64X2_SUB, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, I32_SHL, i32c, instantiate, MUL, memoryModule, set, simd, SUB, tee, V128, F64, v128Load, v128Store, zero } from "../../data/wasm-bytes.js";
import { BLOCK, interleaveRows, SIMD_MIN_ROWS } from "./simd-distances.js";

const [BLOCK_, LOOP, END, I32_EQZ, I32_SUB, I32_SHR_U, I32_AND, I32_LE_U] = [[0x02, 0x40], [0x03, 0x40], [0x0b], [0x45], [0x6b], [0x76], [0x71], [0x4d]];
const brIf = (depth: number) => [0x0d, depth];
const F64X2_SPLAT = 0x14;

// maha. Params: 0 x, 1 blocks, 2 inv, 3 mean, 4 d, 5 out, 6 scratch. Locals: 7 xp, 8 mp, 9 sp, 10 mEnd, 11 rowp,
// 12 qp, 13 qEnd, 14 len, 15 rows left (i32); 16 μ_j, 17–20 m, 21–24 y, 25 L⁻¹[r][q] (v128).
function mahaBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(3), get(4), i32c(3), I32_SHL, I32_ADD, set(10)); // mEnd = mean + 8d
  emit(BLOCK_, get(1), I32_EQZ, brIf(0));
  emit(LOOP); // blocks of eight rows
  emit(get(0), set(7), get(3), set(8), get(6), set(9));
  emit(LOOP); // diff_j = x_j − μ_j into scratch, interleaved as the rows
  emit(get(8), f64Load(0), simd(F64X2_SPLAT), set(16));
  for (let t = 0; t < 4; t++) emit(get(9), get(7), v128Load(16 * t), get(16), simd(F64X2_SUB), v128Store(16 * t));
  emit(get(7), i32c(64), I32_ADD, set(7), get(9), i32c(64), I32_ADD, set(9));
  emit(get(8), i32c(8), I32_ADD, tee(8), get(10), I32_LT_U, brIf(0));
  emit(END);
  for (let t = 0; t < 4; t++) emit(zero, set(17 + t));
  emit(get(2), set(11), i32c(8), set(14), get(4), set(15));
  emit(LOOP); // r: y = Σ_{q ≤ r} L⁻¹[r][q]·diff_q, m += y²
  for (let t = 0; t < 4; t++) emit(zero, set(21 + t));
  emit(get(11), set(12), get(11), get(14), I32_ADD, set(13), get(6), set(9));
  emit(LOOP);
  emit(get(12), f64Load(0), simd(F64X2_SPLAT), set(25));
  for (let t = 0; t < 4; t++) emit(get(21 + t), get(25), get(9), v128Load(16 * t), simd(F64X2_MUL), simd(F64X2_ADD), set(21 + t));
  emit(get(9), i32c(64), I32_ADD, set(9));
  emit(get(12), i32c(8), I32_ADD, tee(12), get(13), I32_LT_U, brIf(0));
  emit(END);
  for (let t = 0; t < 4; t++) emit(get(17 + t), get(21 + t), get(21 + t), simd(F64X2_MUL), simd(F64X2_ADD), set(17 + t));
  emit(get(11), get(4), i32c(3), I32_SHL, I32_ADD, set(11), get(14), i32c(8), I32_ADD, set(14));
  emit(get(15), i32c(1), I32_SUB, tee(15), brIf(0));
  emit(END);
  for (let t = 0; t < 4; t++) emit(get(5), get(17 + t), v128Store(16 * t));
  emit(get(5), i32c(64), I32_ADD, set(5), get(7), set(0)); // the diff sweep ended at the next block
  emit(get(1), i32c(1), I32_SUB, tee(1), brIf(0));
  emit(END, END);
  return functionBody([[9, I32], [10, V128]], code);
}

// scatter. Params: 0 x, 1 groups, 2 r, 3 mean, 4 d, 5 acc, 6 scratch, 7 pairs. Locals (i32): 8 g, 9 xp, 10 mp, 11 sp,
// 12 spEnd, 13 rowA, 14 ap, 15 qp, 16 cp, 17 cp1, 18 acc row bytes, 19 rp; (f64) 20–23 r_t; (v128) 24–27 r_t·δ_t[a],
// 28–31 r_t·δ_t[a + 1], 32–35 δ_t[b, b + 1].
// scratch: coordinate pair p (b = 2p, 2p + 1) at 64p: δ₁[b, b+1], δ₂[b, b+1], δ₃[b, b+1], δ₄[b, b+1].
function scatterBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(BLOCK_, get(1), I32_EQZ, brIf(0));
  emit(get(7), i32c(4), I32_SHL, set(18), get(6), get(7), i32c(6), I32_SHL, I32_ADD, set(12));
  emit(LOOP); // groups of four rows: rows 4g … 4g + 3 are lanes 4(g & 1) … of block g >> 1
  emit(get(0), get(8), i32c(1), I32_SHR_U, get(4), i32c(6), I32_SHL, I32_MUL, I32_ADD, get(8), i32c(1), I32_AND, i32c(5), I32_SHL, I32_ADD, set(9));
  emit(get(2), get(8), i32c(5), I32_SHL, I32_ADD, set(19));
  for (let t = 0; t < 4; t++) emit(get(19), f64Load(8 * t), set(20 + t));
  emit(get(3), set(10), get(6), set(11));
  emit(LOOP); // δ_t[j] = x_t[j] − μ[j], two coordinates at a time
  for (let h = 0; h < 2; h++) for (let t = 0; t < 4; t++) emit(get(11), get(9), f64Load(64 * h + 8 * t), get(10), f64Load(8 * h), SUB, f64Store(16 * t + 8 * h));
  emit(get(9), i32c(128), I32_ADD, set(9), get(10), i32c(16), I32_ADD, set(10));
  emit(get(11), i32c(64), I32_ADD, tee(11), get(12), I32_LT_U, brIf(0));
  emit(END);
  emit(get(5), set(13), get(6), set(14));
  emit(LOOP); // rows a = 2s and 2s + 1 of acc, s = (ap − scratch) / 64
  for (let t = 0; t < 4; t++) {
    emit(get(20 + t), get(14), f64Load(16 * t), MUL, simd(F64X2_SPLAT), set(24 + t));
    emit(get(20 + t), get(14), f64Load(16 * t + 8), MUL, simd(F64X2_SPLAT), set(28 + t));
  }
  emit(get(6), set(15), get(13), set(16));
  emit(LOOP); // pairs p = 0 … s: entries b = 2p, 2p + 1
  for (let t = 0; t < 4; t++) emit(get(15), v128Load(16 * t), set(32 + t));
  const terms = (ra: number) => [get(ra), get(32), simd(F64X2_MUL), get(ra + 1), get(33), simd(F64X2_MUL), simd(F64X2_ADD), get(ra + 2), get(34), simd(F64X2_MUL), get(ra + 3), get(35), simd(F64X2_MUL), simd(F64X2_ADD), simd(F64X2_ADD)];
  emit(get(16), get(16), v128Load(0), ...terms(24), simd(F64X2_ADD), v128Store(0));
  emit(get(16), get(18), I32_ADD, tee(17), get(17), v128Load(0), ...terms(28), simd(F64X2_ADD), v128Store(0));
  emit(get(16), i32c(16), I32_ADD, set(16));
  emit(get(15), i32c(64), I32_ADD, tee(15), get(14), I32_LE_U, brIf(0));
  emit(END);
  emit(get(13), get(18), i32c(1), I32_SHL, I32_ADD, set(13));
  emit(get(14), i32c(64), I32_ADD, tee(14), get(12), I32_LT_U, brIf(0));
  emit(END);
  emit(get(8), i32c(1), I32_ADD, tee(8), get(1), I32_LT_U, brIf(0));
  emit(END, END);
  return functionBody([[12, I32], [4, F64], [12, V128]], code);
}

const MODULE = compileModule(
  memoryModule(
    [
      [0x60, 7, I32, I32, I32, I32, I32, I32, I32, 0],
      [0x60, 8, I32, I32, I32, I32, I32, I32, I32, I32, 0],
    ],
    [
      { name: "maha", type: 0, body: mahaBody() },
      { name: "scatter", type: 1, body: scatterBody() },
    ],
  ),
);

type Kernel = (...args: number[]) => void;
const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

/** One training matrix in a kernel's memory for the E and M steps of one fit (from SIMD_MIN_ROWS rows). */
export class GaussianRows {
  private readonly blocks: number;
  private readonly pairs: number;
  private readonly maha: Kernel;
  private readonly scatterOf: Kernel;

  private constructor(
    readonly n: number,
    readonly d: number,
    private readonly memory: WasmMemory,
    exports: Record<string, unknown>,
    private readonly at: { out: number; r: number; inv: number; mean: number; scratch: number; acc: number },
  ) {
    this.blocks = Math.ceil(n / BLOCK);
    this.pairs = Math.ceil(d / 2);
    this.maha = exports.maha as Kernel;
    this.scatterOf = exports.scatter as Kernel;
  }

  /** The kernels over X (n × d, row-major), or null without WebAssembly SIMD, below SIMD_MIN_ROWS rows, or beyond 2 GiB. */
  static create(X: Float64Array, n: number, d: number): GaussianRows | null {
    if (!MODULE || n < SIMD_MIN_ROWS || d === 0) return null;
    const blocks = Math.ceil(n / BLOCK);
    const pairs = Math.ceil(d / 2);
    // The scatter's last pair reads coordinate d of an odd d: past the last block's rows (128 bytes of slack), into the padded mean.
    const rowBytes = blocks * d * BLOCK * 8 + 128;
    const out = rowBytes;
    const r = out + blocks * BLOCK * 8;
    const inv = r + blocks * BLOCK * 8;
    const mean = inv + align(d * d * 8);
    const scratch = mean + pairs * 16;
    const acc = scratch + Math.max(d * BLOCK * 8, pairs * 64);
    const instance = instantiate(MODULE, acc + 4 * pairs * pairs * 8);
    if (!instance) return null;
    interleaveRows(X, n, d, new Float64Array(instance.memory.buffer, 0, blocks * d * BLOCK));
    return new GaussianRows(n, d, instance.memory, instance.exports, { out, r, inv, mean, scratch, acc });
  }

  private setMean(means: Float64Array, at: number): void {
    const m = new Float64Array(this.memory.buffer, this.at.mean, this.pairs * 2);
    m.set(means.subarray(at, at + this.d));
  }

  /** ‖L⁻¹(x − μ)‖² of every row (the first n entries of the view): L⁻¹ the d × d block of inv at invAt, μ the d means at meanAt. */
  mahalanobis(inv: Float64Array, invAt: number, means: Float64Array, meanAt: number): Float64Array {
    const d = this.d;
    new Float64Array(this.memory.buffer, this.at.inv, d * d).set(inv.subarray(invAt, invAt + d * d));
    this.setMean(means, meanAt);
    this.maha(0, this.blocks, this.at.inv, this.at.mean, d, this.at.out, this.at.scratch);
    return new Float64Array(this.memory.buffer, this.at.out, this.n);
  }

  /**
   * Adds component c's weighted scatter Σ_i resp[i][c]·(x_i − μ)(x_i − μ)ᵀ of the rows 0 … 4⌊n/4⌋ − 1,
   * four at a time, to the lower triangle of the d × d block of cov at base (the JavaScript loop's sums,
   * in its order). Returns the rows done: the caller adds the rest, one at a time.
   */
  scatter(resp: Float64Array, k: number, c: number, means: Float64Array, meanAt: number, cov: Float64Array, base: number): number {
    const { n, d } = this;
    const stride = 2 * this.pairs;
    const r = new Float64Array(this.memory.buffer, this.at.r, n);
    for (let i = 0; i < n; i++) r[i] = resp[i * k + c];
    this.setMean(means, meanAt);
    const acc = new Float64Array(this.memory.buffer, this.at.acc, stride * stride);
    for (let a = 0; a < d; a++) for (let b = 0; b <= a; b++) acc[a * stride + b] = cov[base + a * d + b];
    const groups = Math.floor(n / 4);
    this.scatterOf(0, groups, this.at.r, this.at.mean, d, this.at.acc, this.at.scratch, this.pairs);
    for (let a = 0; a < d; a++) for (let b = 0; b <= a; b++) cov[base + a * d + b] = acc[a * stride + b];
    return groups * 4;
  }
}
