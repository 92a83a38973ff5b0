/**
 * Dot products of one row against a run of rows, the inner loop of every kernel row SMO
 * computes, as a small WebAssembly function using 128-bit SIMD (two doubles per
 * instruction, no bounds check per load), written out as bytes (`data/wasm-bytes.ts`).
 * Four rows a pass share each load of the query row, and their four accumulators keep the
 * adds independent. Measured on 10,000 × 20: ≈ 5 ns a dot product against ≈ 20 ns for the
 * JavaScript loop. It sums coordinate pairs separately (lane 0: even coordinates, lane 1:
 * odd ones) and adds the two at the end, so the value differs from the sequential sum in
 * the last bits only.
 *
 * dots(q, x, rows, rowBytes, out): for each of `rows` rows starting at byte x, rowBytes
 * apart (an even number of doubles, zero-padded), out[r] = q · x_r as a double at out + 8r.
 *
 * rbf(dots, sq, count, sqa, negGamma): dots[j] ← exp(negGamma · (sqa + sq[j] − 2·dots[j])) in
 * place, two at a time (both arrays need one double of padding past `count`), for rows that
 * end up as Float32 (the cache's): the exponent is clamped to [−200, 0] — exp(−200) is 0 in
 * Float32 already, and an rbf exponent is never above 0 but by rounding — and exp is
 * e^r·2^k with k = round(x/ln 2), r = x − k·ln 2 (Cody–Waite, fdlibm's two-part ln 2) and
 * the degree-11 Taylor polynomial of e^r (relative error below 1e-14, against Float32's
 * 6e-8 rounding step). ≈ 6 ns a value against ≈ 13 ns for Math.exp in a JavaScript loop
 * (CPU profiles of the benchmark fit); Horner's chain of dependent steps bounds it.
 */
import { compileModule, F64, f64Store, F64X2_ADD, F64X2_EXTRACT, F64X2_MUL, functionBody, get, I32, I32_ADD, I32_GE_U, I32_LT_U, I32_MUL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, type WasmMemory, zero } from "../../data/wasm-bytes.js";

const I32_AND = [0x71];
const I32_SHL = [0x74];
const I32_EQZ = [0x45];
const ADD = [0xa0];
const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];

// Params: 0 q, 1 x, 2 rows, 3 rowBytes, 4 out. Locals: 5 end4, 6 end, 7 j, 8–10 x1–x3 (i32); 11–14 a0–a3, 15 qv (v128).
function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const hsum = (a: number) => [...get(a), ...simd(F64X2_EXTRACT, 0), ...get(a), ...simd(F64X2_EXTRACT, 1), ...ADD];
  emit(get(2), get(3), I32_MUL, get(1), I32_ADD, set(6)); // end = x + rows·rowBytes
  emit(get(2), i32c(-4), I32_AND, get(3), I32_MUL, get(1), I32_ADD, set(5)); // end4: the last whole group of four
  emit(BLOCK, get(1), get(5), I32_GE_U, brIf(0));
  emit(LOOP); // groups of four rows
  for (let a = 11; a <= 14; a++) emit(zero, set(a));
  emit(get(1), get(3), I32_ADD, tee(8), get(3), I32_ADD, tee(9), get(3), I32_ADD, set(10), i32c(0), set(7));
  emit(LOOP); // coordinate pairs
  emit(get(0), get(7), I32_ADD, v128Load(0), set(15));
  [1, 8, 9, 10].forEach((x, r) => emit(get(11 + r), get(15), get(x), get(7), I32_ADD, v128Load(0), simd(F64X2_MUL), simd(F64X2_ADD), set(11 + r)));
  emit(get(7), i32c(16), I32_ADD, tee(7), get(3), I32_LT_U, brIf(0), END);
  for (let r = 0; r < 4; r++) emit(get(4), hsum(11 + r), f64Store(8 * r));
  emit(get(4), i32c(32), I32_ADD, set(4));
  emit(get(10), get(3), I32_ADD, tee(1), get(5), I32_LT_U, brIf(0), END, END);
  emit(BLOCK, get(1), get(6), I32_GE_U, brIf(0));
  emit(LOOP); // the last rows one at a time
  emit(zero, set(11), i32c(0), set(7));
  emit(LOOP, get(11), get(0), get(7), I32_ADD, v128Load(0), get(1), get(7), I32_ADD, v128Load(0), simd(F64X2_MUL), simd(F64X2_ADD), set(11));
  emit(get(7), i32c(16), I32_ADD, tee(7), get(3), I32_LT_U, brIf(0), END);
  emit(get(4), hsum(11), f64Store(0), get(4), i32c(8), I32_ADD, set(4));
  emit(get(1), get(3), I32_ADD, tee(1), get(6), I32_LT_U, brIf(0), END, END);
  return functionBody([[6, I32], [5, V128]], code);
}

const F64X2_SUB = 0xf1;
const F64X2_MIN = 0xf4;
const F64X2_MAX = 0xf5;
const F64X2_NEAREST = 0x94;
const F64X2_SPLAT = 0x14;
const I32X4_TRUNC_SAT_F64X2_S_ZERO = 0xfc;
const I64X2_EXTEND_LOW_I32X4_S = 0xc7;
const I64X2_ADD = 0xce;
const I64X2_SHL = 0xcb;
const v128Store = simd(0x0b, 3, 0);

/** v128.const of two equal doubles. */
function f64x2Const(v: number): number[] {
  const b = new Uint8Array(new Float64Array([v, v]).buffer);
  return simd(0x0c, ...b);
}

/** v128.const of two equal int64s. */
function i64x2Const(v: number): number[] {
  const b = new Uint8Array(new BigInt64Array([BigInt(v), BigInt(v)]).buffer);
  return simd(0x0c, ...b);
}

const LN2_HI = 6.93147180369123816490e-1;
const LN2_LO = 1.90821492927058770002e-10;

// Params: 0 dots, 1 sq, 2 count (i32), 3 sqa, 4 negGamma (f64). Locals: 5 i, 6 end (i32); 7 x, 8 k, 9 r, 10 p, 11 sqaV, 12 ngV (v128).
function rbfBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(3), simd(F64X2_SPLAT), set(11), get(4), simd(F64X2_SPLAT), set(12));
  emit(get(2), i32c(3), I32_SHL, set(6), i32c(0), set(5)); // end = count·8
  emit(BLOCK, get(2), I32_EQZ, brIf(0), LOOP);
  // x = clamp(negGamma · ((sqa + sq) − (dot + dot)), −200, 0)
  emit(get(11), get(1), get(5), I32_ADD, v128Load(0), simd(F64X2_ADD));
  emit(get(0), get(5), I32_ADD, v128Load(0), tee(7), get(7), simd(F64X2_ADD), simd(F64X2_SUB), get(12), simd(F64X2_MUL));
  emit(f64x2Const(-200), simd(F64X2_MAX), f64x2Const(0), simd(F64X2_MIN), set(7));
  // k = nearest(x · log2 e); r = (x − k·ln2_hi) − k·ln2_lo
  emit(get(7), f64x2Const(Math.LOG2E), simd(F64X2_MUL), simd(F64X2_NEAREST), set(8));
  emit(get(7), get(8), f64x2Const(LN2_HI), simd(F64X2_MUL), simd(F64X2_SUB), get(8), f64x2Const(LN2_LO), simd(F64X2_MUL), simd(F64X2_SUB), set(9));
  // p = Σ r^n/n!, n = 0..11, by Horner
  let factorial = 1;
  const coefficients: number[] = [];
  for (let n = 0; n <= 11; n++) {
    if (n > 0) factorial *= n;
    coefficients.push(1 / factorial);
  }
  emit(f64x2Const(coefficients[11]));
  for (let n = 10; n >= 0; n--) emit(get(9), simd(F64X2_MUL), f64x2Const(coefficients[n]), simd(F64X2_ADD));
  emit(set(10));
  // 2^k from its bits: (k + 1023) << 52, k in [−289, 0]
  emit(get(0), get(5), I32_ADD); // store address
  emit(get(10), get(8), simd(I32X4_TRUNC_SAT_F64X2_S_ZERO), simd(I64X2_EXTEND_LOW_I32X4_S), i64x2Const(1023), simd(I64X2_ADD), i32c(52), simd(I64X2_SHL), simd(F64X2_MUL));
  emit(v128Store);
  emit(get(5), i32c(16), I32_ADD, tee(5), get(6), I32_LT_U, brIf(0), END, END);
  return functionBody([[2, I32], [6, V128]], code);
}

function moduleBytes(): Uint8Array {
  return memoryModule(
    [
      [0x60, 5, I32, I32, I32, I32, I32, 0],
      [0x60, 5, I32, I32, I32, F64, F64, 0],
    ],
    [
      { name: "dots", type: 0, body: body() },
      { name: "rbf", type: 1, body: rbfBody() },
    ],
  );
}

const MODULE = compileModule(moduleBytes());

export interface DotRowKernel {
  readonly memory: WasmMemory;
  readonly dots: (q: number, x: number, rows: number, rowBytes: number, out: number) => void;
  readonly rbf: (dots: number, sq: number, count: number, sqa: number, negGamma: number) => void;
}

/** A kernel over a fresh memory of at least `bytes` bytes, or null without WebAssembly SIMD (or beyond 2 GiB). */
export function createDotRowKernel(bytes: number): DotRowKernel | null {
  const instance = MODULE ? instantiate(MODULE, bytes) : null;
  return instance ? { memory: instance.memory, dots: instance.exports.dots as DotRowKernel["dots"], rbf: instance.exports.rbf as DotRowKernel["rbf"] } : null;
}
