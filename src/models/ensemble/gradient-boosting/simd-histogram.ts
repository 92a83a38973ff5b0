/**
 * The histogram kernels of histogram.ts as WebAssembly (written out as bytes,
 * `data/wasm-bytes.ts`): a bin's [gradient, hessian] pair is one 128-bit SIMD add, against
 * the gradient/hessian pair of the row read as one 16-byte load from an interleaved array,
 * and no load is bounds-checked. Same layout as histogram.ts (feature f's bin b at
 * ((f · stride) + b) · 3 doubles: gradient, hessian, count) and the same sums in the same
 * order, so the histograms are bit-identical to the JavaScript kernels'.
 *
 * Everything a kernel reads lives in one WebAssembly memory laid out by the booster
 * (`SimdHistogramSpace`): the bin columns, the interleaved gradients, the row ids, and a
 * fixed number of histogram buffers; histograms the pool hands out beyond those are
 * ordinary arrays, built by the JavaScript kernels.
 *
 * Functions (byte addresses; F = 4 or 1 features a pass):
 *   rowsF(h_0..h_F-1, c_0..c_F-1, rows, end, gh): for the row ids at [rows, end): add the
 *     row's (g, h) to bin c_f[row] of the histogram at h_f, and 1 to its count;
 *   rootF(h_0..h_F-1, c_0..c_F-1, n, gh): the same for rows 0..n-1 in order, counts left alone;
 *   partition(col, table, rows, end, scratch): the grower's stable partition of the row ids at
 *     [rows, end) by table[col[row]] (1 = left), branch-free, through `scratch`; returns the
 *     address of the first right row;
 *   subtract(dst, src, n): the n doubles at dst minus those at src, in place (two a step).
 */
import { compileModule, f64Load, f64Store, F64X2_ADD, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, type WasmMemory } from "../../../data/wasm-bytes.js";

const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];
const I32_EQZ = [0x45];
const I32_SHL = [0x74];
const i32Load = [0x28, 2, 0];
const i32Store = [0x36, 2, 0];
const I32_SUB = [0x6b];
const I32_AND = [0x71];
const IF = [0x04, 0x40];
const F64_SUB = [0xa1];
const F64X2_SUB = 0xf1;
const i32Load8u = [0x2d, 0, 0];
const v128Store = simd(0x0b, 3, 0);
const F64_ADD = [0xa0];
const f64One = [0x44, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f];
const BIN_BYTES = 24;

/** Adds v (local) to the bin of feature q for row r (local); a: scratch address local. */
function addRow(q: number, F: number, r: number, a: number, v: number, count: boolean): number[] {
  const code = [...get(q), ...get(F + q), ...get(r), ...I32_ADD, ...i32Load8u, ...i32c(BIN_BYTES), ...I32_MUL, ...I32_ADD, ...tee(a)];
  code.push(...get(a), ...v128Load(0), ...get(v), ...simd(F64X2_ADD), ...v128Store);
  if (count) code.push(...get(a), ...get(a), ...f64Load(16), ...f64One, ...F64_ADD, ...f64Store(16));
  return code;
}

function rowsBody(F: number): number[] {
  const [rows, end, gh, r, a, v] = [2 * F, 2 * F + 1, 2 * F + 2, 2 * F + 3, 2 * F + 4, 2 * F + 5];
  const code = [...BLOCK, ...get(rows), ...get(end), ...I32_LT_U, ...I32_EQZ, ...brIf(0), ...LOOP];
  code.push(...get(rows), ...i32Load, ...set(r));
  code.push(...get(gh), ...get(r), ...i32c(4), ...I32_SHL, ...I32_ADD, ...v128Load(0), ...set(v));
  for (let q = 0; q < F; q++) code.push(...addRow(q, F, r, a, v, true));
  code.push(...get(rows), ...i32c(4), ...I32_ADD, ...tee(rows), ...get(end), ...I32_LT_U, ...brIf(0), ...END, ...END);
  return functionBody([[2, I32], [1, V128]], code);
}

function rootBody(F: number): number[] {
  const [n, gh, r, a, v] = [2 * F, 2 * F + 1, 2 * F + 2, 2 * F + 3, 2 * F + 4];
  const code = [...BLOCK, ...get(n), ...I32_EQZ, ...brIf(0), ...i32c(0), ...set(r), ...LOOP];
  code.push(...get(gh), ...v128Load(0), ...set(v), ...get(gh), ...i32c(16), ...I32_ADD, ...set(gh));
  for (let q = 0; q < F; q++) code.push(...addRow(q, F, r, a, v, false));
  code.push(...get(r), ...i32c(1), ...I32_ADD, ...tee(r), ...get(n), ...I32_LT_U, ...brIf(0), ...END, ...END);
  return functionBody([[2, I32], [1, V128]], code);
}

// Params: 0 col, 1 table, 2 rows, 3 end, 4 scratch. Locals: 5 l (next left slot), 6 s (next scratch slot), 7 row, 8 left.
function partitionBody(): number[] {
  const code = [...get(2), ...set(5), ...get(4), ...set(6)];
  code.push(...BLOCK, ...get(2), ...get(3), ...I32_LT_U, ...I32_EQZ, ...brIf(0), ...LOOP);
  code.push(...get(2), ...i32Load, ...set(7));
  code.push(...get(1), ...get(0), ...get(7), ...I32_ADD, ...i32Load8u, ...I32_ADD, ...i32Load8u, ...set(8));
  code.push(...get(5), ...get(7), ...i32Store, ...get(6), ...get(7), ...i32Store);
  code.push(...get(5), ...get(8), ...i32c(2), ...I32_SHL, ...I32_ADD, ...set(5));
  code.push(...get(6), ...i32c(4), ...I32_ADD, ...get(8), ...i32c(2), ...I32_SHL, ...I32_SUB, ...set(6));
  code.push(...get(2), ...i32c(4), ...I32_ADD, ...tee(2), ...get(3), ...I32_LT_U, ...brIf(0), ...END, ...END);
  // The right rows after the left ones: memory.copy(l, scratch, s − scratch).
  code.push(...get(5), ...get(4), ...get(6), ...get(4), ...I32_SUB, 0xfc, 10, 0, 0, ...get(5));
  return functionBody([[4, I32]], code);
}

// Params: 0 dst, 1 src, 2 n. Locals: 3 pairsEnd.
function subtractBody(): number[] {
  const code = [...get(0), ...get(2), ...i32c(-2), ...I32_AND, ...i32c(3), ...I32_SHL, ...I32_ADD, ...set(3)];
  code.push(...BLOCK, ...get(0), ...get(3), ...I32_LT_U, ...I32_EQZ, ...brIf(0), ...LOOP);
  code.push(...get(0), ...get(0), ...v128Load(0), ...get(1), ...v128Load(0), ...simd(F64X2_SUB), ...v128Store);
  code.push(...get(1), ...i32c(16), ...I32_ADD, ...set(1));
  code.push(...get(0), ...i32c(16), ...I32_ADD, ...tee(0), ...get(3), ...I32_LT_U, ...brIf(0), ...END, ...END);
  // An odd last double.
  code.push(...get(2), ...i32c(1), ...I32_AND, ...IF, ...get(0), ...get(0), ...f64Load(0), ...get(1), ...f64Load(0), ...F64_SUB, ...f64Store(0), ...END);
  return functionBody([[1, I32]], code);
}

function moduleBytes(): Uint8Array {
  const fn = (params: number) => [0x60, params, ...new Array<number>(params).fill(I32), 0];
  // Types: rows4 (11 params), rows1 (5), root4 (10), root1 (4), partition (5 params, an i32 result), subtract (3).
  return memoryModule(
    [fn(11), fn(5), fn(10), fn(4), [0x60, 5, I32, I32, I32, I32, I32, 1, I32], fn(3)],
    [
      { name: "rows4", type: 0, body: rowsBody(4) },
      { name: "rows1", type: 1, body: rowsBody(1) },
      { name: "root4", type: 2, body: rootBody(4) },
      { name: "root1", type: 3, body: rootBody(1) },
      { name: "partition", type: 4, body: partitionBody() },
      { name: "subtract", type: 5, body: subtractBody() },
    ],
  );
}

const MODULE = compileModule(moduleBytes());

type Kernel = (...addresses: number[]) => void;

/**
 * One fit's WebAssembly memory: bin columns, interleaved gradients (g, h of row i at
 * 16·i), the grower's row ids, and `slots` histogram buffers. The booster fills `bins`,
 * `gh` and `rows` through these views; the pool hands out `histograms` first.
 */
export interface SimdHistogramSpace {
  readonly memory: WasmMemory;
  readonly bins: Uint8Array[];
  readonly gh: Float64Array;
  readonly rows: Int32Array;
  /** The partition's scratch (n row ids) and its bin → side table (256 bytes). */
  readonly scratch: Int32Array;
  readonly table: Uint8Array;
  readonly histograms: Float64Array[];
  readonly rows4: Kernel;
  readonly rows1: Kernel;
  readonly root4: Kernel;
  readonly root1: Kernel;
  readonly partition: (col: number, table: number, rows: number, end: number, scratch: number) => number;
  readonly subtract: (dst: number, src: number, n: number) => void;
}

/** The space for n rows × d features and `slots` histograms of `histogramLength` doubles; null without WebAssembly SIMD or beyond 2 GiB. */
export function createSimdHistogramSpace(n: number, d: number, histogramLength: number, slots: number): SimdHistogramSpace | null {
  if (!MODULE) return null;
  const col = (n + 15) & ~15;
  const binBytes = d * col;
  const ghAt = binBytes;
  const rowsAt = ghAt + 16 * n;
  const scratchAt = rowsAt + 4 * n;
  const tableAt = scratchAt + 4 * n;
  const histAt = (tableAt + 256 + 15) & ~15;
  const instance = instantiate(MODULE, histAt + slots * histogramLength * 8);
  if (!instance) return null;
  const buffer = instance.memory.buffer;
  const e = instance.exports;
  return {
    memory: instance.memory,
    bins: Array.from({ length: d }, (_, f) => new Uint8Array(buffer, f * col, n)),
    gh: new Float64Array(buffer, ghAt, 2 * n),
    rows: new Int32Array(buffer, rowsAt, n),
    scratch: new Int32Array(buffer, scratchAt, n),
    table: new Uint8Array(buffer, tableAt, 256),
    histograms: Array.from({ length: slots }, (_, s) => new Float64Array(buffer, histAt + s * histogramLength * 8, histogramLength)),
    rows4: e.rows4 as Kernel,
    rows1: e.rows1 as Kernel,
    root4: e.root4 as Kernel,
    root1: e.root1 as Kernel,
    partition: e.partition as SimdHistogramSpace["partition"],
    subtract: e.subtract as SimdHistogramSpace["subtract"],
  };
}
