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
 *   rootF(h_0..h_F-1, c_0..c_F-1, n, gh): the same for rows 0..n-1 in order, counts left alone.
 */
import { compileModule, F64X2_ADD, f64Load, f64Store, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, i32c, instantiate, name, section, set, simd, tee, V128, v128Load, type WasmMemory } from "../../../data/wasm-bytes.js";

const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];
const I32_EQZ = [0x45];
const I32_SHL = [0x74];
const i32Load = [0x28, 2, 0];
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

function moduleBytes(): Uint8Array {
  const fn = (params: number) => [0x60, params, ...new Array<number>(params).fill(I32), 0];
  // Types: rows4 (11 params), rows1 (5), root4 (10), root1 (4).
  const type = section(1, [4, ...fn(11), ...fn(5), ...fn(10), ...fn(4)]);
  const imports = section(2, [1, ...name("m"), ...name("mem"), 0x02, 0x00, 1]);
  const functions = section(3, [4, 0, 1, 2, 3]);
  const exports = section(7, [4, ...name("rows4"), 0x00, 0, ...name("rows1"), 0x00, 1, ...name("root4"), 0x00, 2, ...name("root1"), 0x00, 3]);
  const code = section(10, [4, ...rowsBody(4), ...rowsBody(1), ...rootBody(4), ...rootBody(1)]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...functions, ...exports, ...code]);
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
  readonly histograms: Float64Array[];
  readonly rows4: Kernel;
  readonly rows1: Kernel;
  readonly root4: Kernel;
  readonly root1: Kernel;
}

/** The space for n rows × d features and `slots` histograms of `histogramLength` doubles; null without WebAssembly SIMD or beyond 2 GiB. */
export function createSimdHistogramSpace(n: number, d: number, histogramLength: number, slots: number): SimdHistogramSpace | null {
  if (!MODULE) return null;
  const col = (n + 15) & ~15;
  const binBytes = d * col;
  const ghAt = binBytes;
  const rowsAt = ghAt + 16 * n;
  const histAt = (rowsAt + 4 * n + 15) & ~15;
  const instance = instantiate(MODULE, histAt + slots * histogramLength * 8);
  if (!instance) return null;
  const buffer = instance.memory.buffer;
  const e = instance.exports;
  return {
    memory: instance.memory,
    bins: Array.from({ length: d }, (_, f) => new Uint8Array(buffer, f * col, n)),
    gh: new Float64Array(buffer, ghAt, 2 * n),
    rows: new Int32Array(buffer, rowsAt, n),
    histograms: Array.from({ length: slots }, (_, s) => new Float64Array(buffer, histAt + s * histogramLength * 8, histogramLength)),
    rows4: e.rows4 as Kernel,
    rows1: e.rows1 as Kernel,
    root4: e.root4 as Kernel,
    root1: e.root1 as Kernel,
  };
}
