/**
 * Squared Euclidean distances of every training row to a few centres, as a small WebAssembly
 * SIMD function (bytes written with the shared helpers of data/wasm-bytes.ts). The SIMD runs
 * across rows, not coordinates: rows are copied once into blocks of eight, interleaved by
 * coordinate (coordinate j of rows 8b … 8b + 7 side by side), so each lane sums its own row's
 * (x_j − c_j)² in coordinate order, one rounding per subtraction, product and sum, exactly
 * as the JavaScript loops (`squaredDistance`) do. The distances are therefore the same to the
 * last bit, and k-means' assignments, bounds and k-means++ choices do not change.
 *
 * dists(x, blocks, C, k, d, out): for each of `blocks` row blocks from byte x (d · 64 bytes
 * each) and each of the k centres at C (each coordinate stored twice, 16 bytes, d of them per
 * centre), the eight squared distances are stored at out, block by block, centre by centre.
 * nearest(…): the same sums, but only each row's nearest centre index is stored (eight per block).
 * addRows(…): after nearest, each row added to its centre's coordinate sums (Lloyd's update), while
 * the rows are still in cache, in clusterSums' order.
 */
import type { WasmMemory } from "../../data/wasm-bytes.js";
import { compileModule, f64Load, f64Store, F64X2_ADD, F64X2_MUL, F64X2_SUB, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, I32_SHL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, v128Store, zero } from "../../data/wasm-bytes.js";

/** Rows per block: four two-lane accumulators, four independent addition chains. */
export const BLOCK = 8;
const [BLOCK_, LOOP, END, BR_IF, I32_EQZ, I32_SUB] = [[0x02, 0x40], [0x03, 0x40], [0x0b], [0x0d, 0], [0x45], [0x6b]];

const [F64X2_LT, V128_OR, V128_BITSELECT] = [0x49, 0x50, 0x52];
const allOnes = simd(0x0c, ...new Array<number>(16).fill(0xff));
const f64x2One = simd(0x0c, ...[0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f]);

// Params: 0 x, 1 blocks, 2 C, 3 k, 4 d, 5 out. Locals: 6 cEnd, 7 cq, 8 xp, 9 jEnd (i32); 10–13 acc, 14 cv, 15 t,
// then for nearest: 16–19 best, 20–23 index, 24 the centre's index, 25 first-centre mask, 26 mask (v128).
function body(nearest: boolean): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(2), get(3), get(4), I32_MUL, i32c(4), I32_SHL, I32_ADD, set(6)); // cEnd = C + 16·k·d
  emit(BLOCK_, get(1), I32_EQZ, BR_IF);
  emit(LOOP); // blocks of rows
  emit(get(2), set(7));
  if (nearest) emit(zero, set(24), allOnes, set(25));
  emit(LOOP); // centres
  for (let a = 10; a <= 13; a++) emit(zero, set(a));
  emit(get(0), set(8), get(7), get(4), i32c(4), I32_SHL, I32_ADD, set(9));
  emit(LOOP); // coordinates: acc_r += (x_r − c)², x minus c as in squaredDistance
  emit(get(7), v128Load(0), set(14));
  for (let r = 0; r < 4; r++) emit(get(10 + r), get(8), v128Load(16 * r), get(14), simd(F64X2_SUB), tee(15), get(15), simd(F64X2_MUL), simd(F64X2_ADD), set(10 + r));
  emit(get(8), i32c(64), I32_ADD, set(8));
  emit(get(7), i32c(16), I32_ADD, tee(7), get(9), I32_LT_U, BR_IF);
  emit(END);
  if (nearest) {
    // As the JavaScript argmin: the first centre, then any strictly nearer one (ties keep the lower index).
    for (let r = 0; r < 4; r++) {
      emit(get(10 + r), get(16 + r), simd(F64X2_LT), get(25), simd(V128_OR), set(26));
      emit(get(10 + r), get(16 + r), get(26), simd(V128_BITSELECT), set(16 + r));
      emit(get(24), get(20 + r), get(26), simd(V128_BITSELECT), set(20 + r));
    }
    emit(get(24), f64x2One, simd(F64X2_ADD), set(24), zero, set(25));
  } else {
    for (let r = 0; r < 4; r++) emit(get(5), get(10 + r), v128Store(16 * r));
    emit(get(5), i32c(64), I32_ADD, set(5));
  }
  emit(get(7), get(6), I32_LT_U, BR_IF); // next centre (they are contiguous)
  emit(END);
  if (nearest) {
    for (let r = 0; r < 4; r++) emit(get(5), get(20 + r), v128Store(16 * r));
    emit(get(5), i32c(64), I32_ADD, set(5));
  }
  emit(get(8), set(0)); // the next block starts where the last centre's sweep ended
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[4, I32], [nearest ? 17 : 6, V128]], code);
}

const [I32_LE_S, I32_TRUNC_F64_S, F64_ADD] = [[0x4c], [0xaa], [0xa0]];

// addRows. Params: 0 x, 1 blocks, 2 idx (each row's centre, as nearest stores it), 3 sums, 4 d, 5 rows left
// (from the first block; lanes past it are padding). Locals: 6 xp, 7 sp, 8 coordinates left (i32).
// Row by row in row order, coordinate by coordinate, sums[c][j] += x_j: clusterSums' additions in its order.
function addRowsBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(BLOCK_, get(1), I32_EQZ, BR_IF);
  emit(LOOP);
  for (let r = 0; r < BLOCK; r++) {
    emit(BLOCK_, get(5), i32c(r), I32_LE_S, BR_IF);
    emit(get(3), get(2), f64Load(8 * r), I32_TRUNC_F64_S, get(4), I32_MUL, i32c(3), I32_SHL, I32_ADD, set(7));
    emit(get(0), set(6), get(4), set(8));
    emit(LOOP, get(7), get(7), f64Load(0), get(6), f64Load(8 * r), F64_ADD, f64Store(0));
    emit(get(7), i32c(8), I32_ADD, set(7), get(6), i32c(64), I32_ADD, set(6));
    emit(get(8), i32c(1), I32_SUB, tee(8), BR_IF, END);
    emit(END);
  }
  emit(get(0), get(4), i32c(6), I32_SHL, I32_ADD, set(0), get(2), i32c(64), I32_ADD, set(2), get(5), i32c(8), I32_SUB, set(5));
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[3, I32]], code);
}

function moduleBytes(): Uint8Array {
  return memoryModule(
    [[0x60, 6, I32, I32, I32, I32, I32, I32, 0]],
    [
      { name: "dists", type: 0, body: body(false) },
      { name: "nearest", type: 0, body: body(true) },
      { name: "addRows", type: 0, body: addRowsBody() },
    ],
  );
}

const MODULE = compileModule(moduleBytes());

/**
 * X (n × d, row-major) into rows as the kernels read it: blocks of BLOCK rows, coordinate j of the
 * block's rows side by side (row 8b + r, coordinate j at [b·d·8 + j·8 + r]); the last block padded with zeros.
 */
export function interleaveRows(X: Float64Array, n: number, d: number, rows: Float64Array): void {
  const blocks = Math.ceil(n / BLOCK);
  for (let b = 0; b < blocks; b++) {
    const o = b * d * BLOCK;
    const last = Math.min(BLOCK, n - b * BLOCK);
    for (let r = 0; r < last; r++) {
      const x = (b * BLOCK + r) * d;
      for (let j = 0; j < d; j++) rows[o + j * BLOCK + r] = X[x + j];
    }
    for (let r = last; r < BLOCK; r++) for (let j = 0; j < d; j++) rows[o + j * BLOCK + r] = 0;
  }
}

/** Below this many rows the JavaScript loops are kept (copying and a fresh memory would not pay). */
export const SIMD_MIN_ROWS = 2048;

/** The rows of one matrix, copied into a kernel's memory, ready for distances to up to maxK centres at a time. */
export class RowDistances {
  readonly blocks: number;
  /** Blocks per call: the output of one call stays small (about 64 KiB). */
  readonly chunk: number;
  private readonly memory: WasmMemory;
  private readonly dists: (x: number, blocks: number, C: number, k: number, d: number, out: number) => void;
  private readonly nearestOf: RowDistances["dists"];
  private readonly centreAt: number;
  private readonly outAt: number;

  private readonly addRowsOf: RowDistances["dists"];
  private readonly sumsAt: number;

  private constructor(
    readonly n: number,
    readonly d: number,
    readonly maxK: number,
    blocks: number,
    instance: { memory: WasmMemory; exports: Record<string, unknown> },
    centreAt: number,
    outAt: number,
    /** Whether its memory is the kept one (so the kernel may be kept for the next call on the same matrix). */
    readonly kept: boolean,
  ) {
    this.blocks = blocks;
    this.chunk = Math.max(1, Math.floor(65536 / (maxK * BLOCK * 8)));
    this.memory = instance.memory;
    this.dists = instance.exports.dists as RowDistances["dists"];
    this.nearestOf = instance.exports.nearest as RowDistances["dists"];
    this.addRowsOf = instance.exports.addRows as RowDistances["dists"];
    this.centreAt = centreAt;
    this.outAt = outAt;
    this.sumsAt = outAt + this.chunk * maxK * BLOCK * 8;
  }

  /** The kernel over X (n × d, row-major), or null without WebAssembly SIMD, for small inputs, or beyond 2 GiB. */
  static create(X: Float64Array, n: number, d: number, maxK: number): RowDistances | null {
    if (!MODULE || n < SIMD_MIN_ROWS || d === 0 || maxK === 0) return null;
    current = null; // the memory is about to hold another matrix
    const blocks = Math.ceil(n / BLOCK);
    const rowBytes = blocks * d * BLOCK * 8;
    const centreBytes = maxK * d * 16;
    const chunk = Math.max(1, Math.floor(65536 / (maxK * BLOCK * 8)));
    const outBytes = chunk * maxK * BLOCK * 8;
    const bytes = rowBytes + centreBytes + outBytes + maxK * d * 8;
    // One memory, reused while large enough: a fresh one per fit cost more (zeroed pages) than all its distances.
    // Kept between fits only up to KEEP_BYTES, so that a worker does not hold a large matrix's copy after its fit.
    let instance = scratch && scratch.bytes >= bytes ? scratch.instance : null;
    if (!instance) {
      scratch = null;
      instance = instantiate(MODULE, bytes);
      if (!instance) return null;
      if (bytes <= KEEP_BYTES) scratch = { instance, bytes: instance.memory.buffer.byteLength };
    }
    interleaveRows(X, n, d, new Float64Array(instance.memory.buffer, 0, blocks * d * BLOCK));
    return new RowDistances(n, d, maxK, blocks, instance, rowBytes, rowBytes + centreBytes, instance === scratch?.instance);
  }

  /** Sets the centres (k ≤ maxK rows of C from row `from`, row-major) for the calls that follow. */
  setCentres(C: Float64Array, k: number, from = 0): void {
    const d = this.d;
    const area = new Float64Array(this.memory.buffer, this.centreAt, k * d * 2);
    for (let t = 0; t < k * d; t++) area[2 * t] = area[2 * t + 1] = C[from * d + t];
  }

  /**
   * Squared distances of the rows of blocks first … first + count − 1 (count ≤ chunk) to the k
   * centres set last: row 8b + r to centre c at [((b − first)·k + c)·8 + r] of the view returned.
   */
  run(first: number, count: number, k: number): Float64Array {
    this.dists(first * this.d * BLOCK * 8, count, this.centreAt, k, this.d, this.outAt);
    return new Float64Array(this.memory.buffer, this.outAt, count * k * BLOCK);
  }

  /**
   * The nearest of the k centres set last (the first of the nearest on a tie: the same choice as
   * a JavaScript scan of the same distances) for the rows of blocks first … first + count − 1: row
   * 8b + r's centre index, as a double, at [(b − first)·8 + r] of the view returned.
   */
  nearest(first: number, count: number, k: number): Float64Array {
    this.nearestOf(first * this.d * BLOCK * 8, count, this.centreAt, k, this.d, this.outAt);
    return new Float64Array(this.memory.buffer, this.outAt, count * BLOCK);
  }

  /** The per-centre coordinate sums that addNearest adds to (k × d, row-major); zero them before a pass. */
  sums(k: number): Float64Array {
    return new Float64Array(this.memory.buffer, this.sumsAt, k * this.d);
  }

  /**
   * After nearest(first, count, k): adds each of those rows (below n) to its nearest centre's sums, row after row,
   * coordinate by coordinate — the additions of a JavaScript loop over the rows in order, so the same sums to the last bit.
   */
  addNearest(first: number, count: number): void {
    this.addRowsOf(first * this.d * BLOCK * 8, count, this.outAt, this.sumsAt, this.d, this.n - first * BLOCK);
  }
}

/** Largest kernel memory kept between fits (100,000 × 20 needs about 16 MiB). */
const KEEP_BYTES = 32 * 2 ** 20;

/** The kernel's memory, kept between fits (up to KEEP_BYTES). */
let scratch: { instance: { memory: WasmMemory; exports: Record<string, unknown> }; bytes: number } | null = null;

/**
 * The last matrix copied into the kept memory: k-means++ and then Lloyd on the same matrix share
 * the copy, and Lloyd lets it go at its end (forgetRows), so no training matrix stays referenced
 * after a fit (a WeakRef would keep every matrix alive until the end of the job). The memory holds
 * one matrix at a time, so a kernel made for another matrix is no longer valid. Matched by
 * identity: the callers (k-means++, Lloyd) pass training matrices nobody writes to.
 */
let current: { X: Float64Array; n: number; kernel: RowDistances } | null = null;

export function rowDistances(X: Float64Array, n: number, d: number, maxK: number): RowDistances | null {
  const hit = current;
  if (hit && hit.X === X && hit.n === n && hit.kernel.d === d && hit.kernel.maxK >= maxK) return hit.kernel;
  const kernel = RowDistances.create(X, n, d, maxK);
  if (kernel?.kept) current = { X, n, kernel };
  return kernel;
}

/** Drops the reference to the last matrix (its copy stays in the kept memory until overwritten). */
export function forgetRows(): void {
  current = null;
}
