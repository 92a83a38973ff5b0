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
 * nearest(…): the same sums, but only each row's nearest centre index and its distance are stored
 * (per block: eight indices, then eight distances).
 * addRows(…): after nearest, each row added to its centre's coordinate sums (Lloyd's update), while
 * the rows are still in cache, in clusterSums' order.
 * candidates(…): k-means++'s trials: each trial's distances, their minimum with each row's current
 * D(x)², stored per trial, and each trial's potential (the minima summed in row order).
 * spread(…): Σ (x_ij − mean_j)² in row-major order, one chain (absoluteTolerance's order).
 * gather(…): a staged tile of a frame's columns into the layout, each column summed in row order.
 */
import type { WasmMemory } from "../../data/wasm-bytes.js";
import { ADD, compileModule, F64, f64Load, f64Store, F64X2_ADD, F64X2_MUL, F64X2_SUB, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, I32_SHL, i32c, instantiate, memoryModule, MUL, set, simd, SUB, tee, V128, v128Load, v128Store, zero } from "../../data/wasm-bytes.js";

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
    for (let r = 0; r < 4; r++) emit(get(5), get(16 + r), v128Store(64 + 16 * r));
    emit(get(5), i32c(128), I32_ADD, set(5));
  }
  emit(get(8), set(0)); // the next block starts where the last centre's sweep ended
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[4, I32], [nearest ? 17 : 6, V128]], code);
}

const [I32_LE_S, I32_TRUNC_F64_S, F64_ADD] = [[0x4c], [0xaa], [0xa0]];

// addRows. Params: 0 x, 1 blocks, 2 idx (each row's centre, as nearest stores it: 16 doubles per block), 3 sums, 4 d, 5 rows left
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
  emit(get(0), get(4), i32c(6), I32_SHL, I32_ADD, set(0), get(2), i32c(128), I32_ADD, set(2), get(5), i32c(8), I32_SUB, set(5));
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[3, I32]], code);
}

const [F64X2_MIN, I32_GE_S] = [0xf4, [0x4e]];
const BR_OUT = [0x0d, 1];

// candidates. Params: 0 x, 1 blocks, 2 C, 3 k (trials), 4 d, 5 out (trial t's block b at out + t·stride + 64·b), 6 closest
// (D(x)², 64 bytes per block), 7 pots (k doubles, added to), 8 rows left (from the first block), 9 stride (bytes).
// Locals: 10 cEnd, 11 cq, 12 xp, 13 jEnd, 14 op, 15 pp (i32); 16–19 acc, 20 cv, 21 t (v128); 22 p (f64).
// The distances are body()'s sums; then min(D(x)², d²) as Math.min, and the potential in row order, as the JavaScript loops.
function candidatesBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(2), get(3), get(4), I32_MUL, i32c(4), I32_SHL, I32_ADD, set(10)); // cEnd = C + 16·k·d
  emit(BLOCK_, get(1), I32_EQZ, BR_IF);
  emit(LOOP); // blocks of rows
  emit(get(2), set(11), get(5), set(14), get(7), set(15));
  emit(LOOP); // trials
  for (let a = 16; a <= 19; a++) emit(zero, set(a));
  emit(get(0), set(12), get(11), get(4), i32c(4), I32_SHL, I32_ADD, set(13));
  emit(LOOP);
  emit(get(11), v128Load(0), set(20));
  for (let r = 0; r < 4; r++) emit(get(16 + r), get(12), v128Load(16 * r), get(20), simd(F64X2_SUB), tee(21), get(21), simd(F64X2_MUL), simd(F64X2_ADD), set(16 + r));
  emit(get(12), i32c(64), I32_ADD, set(12));
  emit(get(11), i32c(16), I32_ADD, tee(11), get(13), I32_LT_U, BR_IF);
  emit(END);
  for (let r = 0; r < 4; r++) emit(get(14), get(6), v128Load(16 * r), get(16 + r), simd(F64X2_MIN), v128Store(16 * r));
  emit(get(15), f64Load(0), set(22), BLOCK_);
  for (let r = 0; r < BLOCK; r++) emit(get(8), i32c(r), I32_LE_S, BR_IF, get(22), get(14), f64Load(8 * r), ADD, set(22));
  emit(END, get(15), get(22), f64Store(0));
  emit(get(14), get(9), I32_ADD, set(14), get(15), i32c(8), I32_ADD, set(15));
  emit(get(11), get(10), I32_LT_U, BR_IF); // next trial
  emit(END);
  emit(get(12), set(0), get(5), i32c(64), I32_ADD, set(5), get(6), i32c(64), I32_ADD, set(6), get(8), i32c(8), I32_SUB, set(8));
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[6, I32], [6, V128], [1, F64]], code);
}

// spread. Params: 0 x, 1 blocks, 2 means (d doubles), 3 d, 4 rows left. Locals: 5 xr, 6 xp, 7 mp, 8 r, 9 coordinates left
// (i32); 10 total, 11 t (f64). Row after row, coordinate after coordinate: total += (x − mean)², one addition chain.
function spreadBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(BLOCK_, get(1), I32_EQZ, BR_IF);
  emit(LOOP); // blocks
  emit(get(0), set(5), i32c(0), set(8));
  emit(BLOCK_, LOOP); // rows of the block
  emit(get(8), get(4), I32_GE_S, BR_OUT);
  emit(get(5), set(6), get(2), set(7), get(3), set(9));
  emit(LOOP); // coordinates
  emit(get(6), f64Load(0), get(7), f64Load(0), SUB, set(11), get(10), get(11), get(11), MUL, ADD, set(10));
  emit(get(6), i32c(64), I32_ADD, set(6), get(7), i32c(8), I32_ADD, set(7));
  emit(get(9), i32c(1), I32_SUB, tee(9), BR_IF);
  emit(END);
  emit(get(5), i32c(8), I32_ADD, set(5), get(8), i32c(1), I32_ADD, tee(8), i32c(BLOCK), I32_LT_U, BR_IF);
  emit(END, END);
  emit(get(0), get(3), i32c(6), I32_SHL, I32_ADD, set(0), get(4), i32c(8), I32_SUB, set(4));
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END, get(10));
  return functionBody([[5, I32], [2, F64]], code);
}

// gather. Params: 0 stage (a tile of rows, column by column, `stride` bytes per column), 1 blocks, 2 out, 3 d, 4 stride,
// 5 sums (d doubles, added to). Locals: 6 columns left, 7 src, 8 sp (i32); 9 s (f64). Each block of eight rows into the
// kernel's layout, and each column's eight values added to its sum one after another (row order).
function gatherBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(BLOCK_, get(1), I32_EQZ, BR_IF);
  emit(LOOP); // blocks
  emit(get(0), set(7), get(5), set(8), get(3), set(6));
  emit(LOOP); // columns
  for (let r = 0; r < 4; r++) emit(get(2), get(7), v128Load(16 * r), v128Store(16 * r));
  emit(get(8), f64Load(0), set(9));
  for (let r = 0; r < BLOCK; r++) emit(get(9), get(7), f64Load(8 * r), ADD, set(9));
  emit(get(8), get(9), f64Store(0));
  emit(get(2), i32c(64), I32_ADD, set(2), get(7), get(4), I32_ADD, set(7), get(8), i32c(8), I32_ADD, set(8));
  emit(get(6), i32c(1), I32_SUB, tee(6), BR_IF);
  emit(END);
  emit(get(0), i32c(64), I32_ADD, set(0));
  emit(get(1), i32c(1), I32_SUB, tee(1), BR_IF);
  emit(END, END);
  return functionBody([[3, I32], [1, F64]], code);
}

function moduleBytes(): Uint8Array {
  return memoryModule(
    [
      [0x60, 6, I32, I32, I32, I32, I32, I32, 0],
      [0x60, 10, I32, I32, I32, I32, I32, I32, I32, I32, I32, I32, 0],
      [0x60, 5, I32, I32, I32, I32, I32, 1, F64],
    ],
    [
      { name: "dists", type: 0, body: body(false) },
      { name: "nearest", type: 0, body: body(true) },
      { name: "addRows", type: 0, body: addRowsBody() },
      { name: "candidates", type: 1, body: candidatesBody() },
      { name: "spread", type: 2, body: spreadBody() },
      { name: "gather", type: 0, body: gatherBody() },
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

type Kernel = (x: number, blocks: number, C: number, k: number, d: number, out: number) => void;

/**
 * The rows of one matrix, copied into a kernel's memory, ready for distances to up to maxK centres at a time (and,
 * when made with trials > 0, for k-means++'s trials: a row's current D(x)² and each trial's minima, over all rows).
 */
export class RowDistances {
  readonly blocks: number;
  /** Blocks per call: the output of one call stays small (about 64 KiB). */
  readonly chunk: number;
  private readonly memory: WasmMemory;
  private readonly dists: Kernel;
  private readonly nearestOf: Kernel;
  private readonly addRowsOf: Kernel;
  private readonly candidatesOf: (x: number, blocks: number, C: number, k: number, d: number, out: number, closest: number, pots: number, rowsLeft: number, stride: number) => void;
  private readonly spreadOf: (x: number, blocks: number, means: number, d: number, rowsLeft: number) => number;
  private readonly gatherOf: Kernel;
  private readonly layout: ReturnType<typeof layoutOf>;
  /** The rows as the kernels read them. */
  private readonly rows: Float64Array;
  /** Each column's values summed in row order, when the rows came from columns (interleaveColumns); else null. */
  columnSums: Float64Array | null = null;

  private constructor(
    readonly n: number,
    readonly d: number,
    readonly maxK: number,
    /** How many k-means++ trials one candidates call takes (0: none). */
    readonly trials: number,
    instance: { memory: WasmMemory; exports: Record<string, unknown> },
    /** Whether its memory is the kept one (so the kernel may be kept for the next call on the same matrix). */
    readonly kept: boolean,
  ) {
    this.layout = layoutOf(n, d, maxK, trials);
    this.blocks = this.layout.blocks;
    this.chunk = this.layout.chunk;
    this.memory = instance.memory;
    this.dists = instance.exports.dists as Kernel;
    this.nearestOf = instance.exports.nearest as Kernel;
    this.addRowsOf = instance.exports.addRows as Kernel;
    this.candidatesOf = instance.exports.candidates as RowDistances["candidatesOf"];
    this.spreadOf = instance.exports.spread as RowDistances["spreadOf"];
    this.gatherOf = instance.exports.gather as Kernel;
    this.rows = new Float64Array(this.memory.buffer, 0, this.blocks * d * BLOCK);
  }

  /** A kernel memory of the layout's size (the kept one when large enough), or null without WebAssembly SIMD, for small inputs, or beyond 2 GiB. */
  private static make(n: number, d: number, maxK: number, trials: number): RowDistances | null {
    if (!MODULE || n < SIMD_MIN_ROWS || d === 0 || maxK === 0) return null;
    current = null; // the memory is about to hold another matrix
    const bytes = layoutOf(n, d, maxK, trials).bytes;
    // One memory, reused while large enough: a fresh one per fit cost more (zeroed pages) than all its distances.
    // Kept between fits only up to KEEP_BYTES, so that a worker does not hold a large matrix's copy after its fit.
    let instance = scratch && scratch.bytes >= bytes ? scratch.instance : null;
    if (!instance) {
      scratch = null;
      instance = instantiate(MODULE, bytes);
      if (!instance) return null;
      if (bytes <= KEEP_BYTES) scratch = { instance, bytes: instance.memory.buffer.byteLength };
    }
    return new RowDistances(n, d, maxK, trials, instance, instance === scratch?.instance);
  }

  /** The kernel over X (n × d, row-major), or null (see make). */
  static create(X: Float64Array, n: number, d: number, maxK: number, trials = 0): RowDistances | null {
    const kernel = RowDistances.make(n, d, maxK, trials);
    if (kernel) interleaveRows(X, n, d, kernel.rows);
    return kernel;
  }

  /**
   * The kernel over a frame's columns (each n values), copied straight into its layout (no row-major copy in between),
   * with the columns' sums in row order (columnSums: NaN where a column has a missing value); or null (see make).
   */
  static fromColumns(columns: readonly Float64Array[], n: number, maxK: number, trials = 0): RowDistances | null {
    const kernel = RowDistances.make(n, columns.length, maxK, trials);
    if (!kernel) return null;
    kernel.gatherColumns(columns);
    return kernel;
  }

  /**
   * A tile of rows at a time: each column's part copied into the staging area (a plain copy), then the kernel's gather
   * interleaves the tile into blocks and adds each column's values to its sum in row order. The last block's padding
   * is staged as zeros: a sum that starts at +0 is never −0, so adding +0 leaves it unchanged.
   */
  private gatherColumns(columns: readonly Float64Array[]): void {
    const { n, d } = this;
    const { tileRows, stage, means } = this.layout;
    const staged = new Float64Array(this.memory.buffer, stage, tileRows * d);
    new Float64Array(this.memory.buffer, means, d).fill(0);
    for (let i0 = 0; i0 < n; i0 += tileRows) {
      const len = Math.min(tileRows, n - i0);
      const blocks = Math.ceil(len / BLOCK);
      for (let j = 0; j < d; j++) {
        staged.set(columns[j].subarray(i0, i0 + len), j * tileRows);
        staged.fill(0, j * tileRows + len, j * tileRows + blocks * BLOCK);
      }
      this.gatherOf(stage, blocks, i0 * d * 8, d, tileRows * 8, means);
    }
    this.columnSums = Float64Array.from(new Float64Array(this.memory.buffer, means, d));
  }

  /** Row i's coordinates into out[at …] (a new array by default). */
  row(i: number, out = new Float64Array(this.d), at = 0): Float64Array {
    const d = this.d;
    const o = Math.floor(i / BLOCK) * d * BLOCK + (i % BLOCK);
    for (let j = 0; j < d; j++) out[at + j] = this.rows[o + j * BLOCK];
    return out;
  }

  /** Sets the centres (k ≤ maxK rows of C from row `from`, row-major) for the calls that follow. */
  setCentres(C: Float64Array, k: number, from = 0): void {
    const d = this.d;
    const area = new Float64Array(this.memory.buffer, this.layout.centres, k * d * 2);
    for (let t = 0; t < k * d; t++) area[2 * t] = area[2 * t + 1] = C[from * d + t];
  }

  /**
   * Squared distances of the rows of blocks first … first + count − 1 (count ≤ chunk) to the k
   * centres set last: row 8b + r to centre c at [((b − first)·k + c)·8 + r] of the view returned.
   */
  run(first: number, count: number, k: number): Float64Array {
    this.dists(first * this.d * BLOCK * 8, count, this.layout.centres, k, this.d, this.layout.out);
    return new Float64Array(this.memory.buffer, this.layout.out, count * k * BLOCK);
  }

  /**
   * The nearest of the k centres set last (the first of the nearest on a tie: the same choice as
   * a JavaScript scan of the same distances) for the rows of blocks first … first + count − 1: row
   * 8b + r's centre index, as a double, at [(b − first)·16 + r] of the view returned, its squared
   * distance to that centre at [(b − first)·16 + 8 + r].
   */
  nearest(first: number, count: number, k: number): Float64Array {
    this.nearestOf(first * this.d * BLOCK * 8, count, this.layout.centres, k, this.d, this.layout.out);
    return new Float64Array(this.memory.buffer, this.layout.out, count * 2 * BLOCK);
  }

  /** The per-centre coordinate sums that addNearest adds to (k × d, row-major); zero them before a pass. */
  sums(k: number): Float64Array {
    return new Float64Array(this.memory.buffer, this.layout.sums, k * this.d);
  }

  /**
   * After nearest(first, count, k): adds each of those rows (below n) to the centre at its index in nearest's view (the
   * nearest, or one written over it), row after row, coordinate by coordinate — the additions of a JavaScript loop over
   * the rows in order, so the same sums to the last bit.
   */
  addNearest(first: number, count: number): void {
    this.addRowsOf(first * this.d * BLOCK * 8, count, this.layout.out, this.layout.sums, this.d, this.n - first * BLOCK);
  }

  /** Each row's current D(x)² for candidates (blocks · 8 entries; those past n are padding). */
  closest(): Float64Array {
    return new Float64Array(this.memory.buffer, this.layout.closest, this.blocks * BLOCK);
  }

  /**
   * k-means++'s trials, centres set last (count ≤ trials): for every row, min(closest, d(x, trial)²) (Math.min's
   * values) into trialValues(t), and each trial's potential, those minima summed in row order (returned).
   */
  candidates(count: number): Float64Array {
    const pots = new Float64Array(this.memory.buffer, this.layout.pots, count).fill(0);
    this.candidatesOf(0, this.blocks, this.layout.centres, count, this.d, this.layout.trialOut, this.layout.closest, this.layout.pots, this.n, this.blocks * BLOCK * 8);
    return pots;
  }

  /** Trial t's minima from the last candidates call (blocks · 8 entries). */
  trialValues(t: number): Float64Array {
    return new Float64Array(this.memory.buffer, this.layout.trialOut + t * this.blocks * BLOCK * 8, this.blocks * BLOCK);
  }

  /** Σ over rows, then coordinates, of (x_ij − means[j])², added in that order (absoluteTolerance's chain). */
  spread(means: Float64Array): number {
    new Float64Array(this.memory.buffer, this.layout.means, this.d).set(means);
    return this.spreadOf(0, this.blocks, this.layout.means, this.d, this.n);
  }
}

/** Byte offsets of a kernel memory's areas: rows | centres | out | sums | means | closest | trials' minima | potentials | stage. */
function layoutOf(n: number, d: number, maxK: number, trials: number) {
  const blocks = Math.ceil(n / BLOCK);
  const chunk = Math.max(1, Math.floor(65536 / (maxK * BLOCK * 8)));
  const centres = blocks * d * BLOCK * 8;
  // nearest stores 16 doubles per block (indices and distances): room for two centres' distances at least.
  const out = centres + maxK * d * 16;
  const sums = out + chunk * Math.max(maxK, 2) * BLOCK * 8;
  const means = sums + Math.ceil((maxK * d) / 2) * 16;
  const closest = means + Math.ceil(d / 2) * 16;
  const rowBytes = trials > 0 ? blocks * BLOCK * 8 : 0;
  const trialOut = closest + rowBytes;
  const pots = trialOut + trials * rowBytes;
  // fromColumns' staging area: a tile of rows (a multiple of the block, about 64 KiB), column by column.
  const stage = pots + Math.ceil(trials / 2) * 16;
  const tileRows = Math.max(BLOCK, Math.floor(8192 / d / BLOCK) * BLOCK);
  return { blocks, chunk, centres, out, sums, means, closest, trialOut, pots, stage, tileRows, bytes: stage + tileRows * d * 8 };
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

export function rowDistances(X: Float64Array, n: number, d: number, maxK: number, trials = 0): RowDistances | null {
  const hit = current;
  if (hit && hit.X === X && hit.n === n && hit.kernel.d === d && hit.kernel.maxK >= maxK && hit.kernel.trials >= trials) return hit.kernel;
  const kernel = RowDistances.create(X, n, d, maxK, trials);
  if (kernel?.kept) current = { X, n, kernel };
  return kernel;
}

/** Drops the reference to the last matrix (its copy stays in the kept memory until overwritten). */
export function forgetRows(): void {
  current = null;
}
