/**
 * The inner loop of euclidean brute force — squared distances of four query rows
 * to a run of training rows, keeping those that can enter the k best — as a small WebAssembly function using 128-bit SIMD
 * (two doubles per instruction, no bounds check per load). Written out as bytes
 * here (no toolchain, nothing loaded at run time); it computes in Float64 exactly
 * what the JavaScript loop computes, but pairwise-summed (brute.ts re-measures
 * the rows it keeps directly). Where WebAssembly SIMD is
 * unavailable `createDotKernel` returns null and brute.ts keeps its JavaScript loop.
 *
 * filter4(x, rows, rowBytes, q, norms, prm, cand): for each of `rows` training rows
 * starting at byte x (rowBytes apart, an even number of doubles each) with squared
 * norms from byte `norms`, the squared distances v = (‖q_i‖² + ‖x‖²) − 2 q_i·x to
 * the four queries of the block at q, and each v at most the query's threshold is
 * written at cand as two doubles (v, 4·row + i); returns how many. prm holds the
 * four ‖q_i‖² then the four thresholds. The query block is interleaved by
 * coordinate pair: pair t of query i at q + 64·t + 16·i. Filtering here, not in
 * JavaScript, halves the time: reading back every dot product cost as much as
 * computing it.
 */

import { ADD, compileModule, CONVERT_U, f64Load, f64Store, F64X2_ADD, F64X2_EXTRACT, F64X2_MUL, get, I32, I32_ADD, I32_GE_U, I32_LT_U, I32_MUL, I32_SHL, i32c, instantiate, LE, leb, memoryModule, MUL, set, simd, SUB, tee, V128, v128Load, type WasmMemory, zero } from "../wasm-bytes.js";

// Params: 0 x, 1 rows, 2 rowBytes, 3 q, 4 norms, 5 prm, 6 cand. Locals: 7 end, 8 j, 9 qp, 10 count, 11 row (i32);
// 12–15 a0–a3, 16 xv (v128); 17 nr, 18 v (f64).
function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(1), get(2), I32_MUL, get(0), I32_ADD, set(7)); // end = x + rows·rowBytes
  emit(i32c(0), set(10), i32c(0), set(11));
  emit([0x02, 0x40], get(0), get(7), I32_GE_U, [0x0d, 0]); // block; if x >= end break
  emit([0x03, 0x40]); // loop over rows
  for (let a = 12; a <= 15; a++) emit(zero, set(a));
  emit(i32c(0), set(8), get(3), set(9));
  emit([0x03, 0x40]); // loop over coordinate pairs
  emit(get(0), get(8), I32_ADD, v128Load(0), set(16));
  for (let i = 0; i < 4; i++) emit(get(12 + i), get(9), v128Load(16 * i), get(16), simd(F64X2_MUL), simd(F64X2_ADD), set(12 + i));
  emit(get(9), i32c(64), I32_ADD, set(9));
  emit(get(8), i32c(16), I32_ADD, tee(8), get(2), I32_LT_U, [0x0d, 0]); // j += 16; continue while j < rowBytes
  emit([0x0b]);
  emit(get(4), f64Load(0), set(17)); // the row's squared norm
  for (let i = 0; i < 4; i++) {
    // v = (‖q_i‖² + ‖x‖²) − 2·(q_i · x); a candidate when v <= threshold_i.
    emit(get(5), f64Load(8 * i), get(17), ADD, [0x44, 0, 0, 0, 0, 0, 0, 0, 0x40], get(12 + i), simd(F64X2_EXTRACT, 0), get(12 + i), simd(F64X2_EXTRACT, 1), ADD, MUL, SUB, tee(18));
    emit(get(5), f64Load(32 + 8 * i), LE, [0x04, 0x40]);
    emit(get(6), get(18), f64Store(0), get(6), get(11), i32c(2), I32_SHL, i32c(i), I32_ADD, CONVERT_U, f64Store(8));
    emit(get(6), i32c(16), I32_ADD, set(6), get(10), i32c(1), I32_ADD, set(10), [0x0b]);
  }
  emit(get(4), i32c(8), I32_ADD, set(4), get(11), i32c(1), I32_ADD, set(11));
  emit(get(0), get(2), I32_ADD, tee(0), get(7), I32_LT_U, [0x0d, 0]); // next row while x < end
  emit([0x0b, 0x0b], get(10), [0x0b]); // end loop, end block, return count, end function
  const locals = [3, 5, I32, 5, V128, 2, 0x7c];
  return [...leb(locals.length + code.length), ...locals, ...code];
}

// filter4f: params as filter4; locals 7 end, 8 j, 9 qp, 10 count, 11 row, 12 mask (i32); 13–16 a0–a3, 17 xv, 18 t, 19 qn, 20 thr (v128).
const F32X4_ADD = 0xe4;
const F32X4_SUB = 0xe5;
const F32X4_MUL = 0xe6;
const F32X4_LE = 0x45;
const F32X4_SPLAT = 0x13;
const I32X4_BITMASK = 0xa4;
const shuffle = (lanes: number[]) => simd(0x0d, ...lanes.flatMap((l) => [4 * l, 4 * l + 1, 4 * l + 2, 4 * l + 3]));
// Lanes 0–3 of the first operand, 4–7 of the second.
const LO = shuffle([0, 1, 4, 5]);
const HI = shuffle([2, 3, 6, 7]);
const EVEN = shuffle([0, 2, 4, 6]);
const ODD = shuffle([1, 3, 5, 7]);
const f32Twos = simd(0x0c, ...[0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0x40, 0, 0, 0, 0x40]);

function bodyF32(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(1), get(2), I32_MUL, get(0), I32_ADD, set(7));
  emit(i32c(0), set(10), i32c(0), set(11));
  emit(get(5), v128Load(0), set(19), get(5), v128Load(16), set(20));
  emit([0x02, 0x40], get(0), get(7), I32_GE_U, [0x0d, 0]);
  emit([0x03, 0x40]);
  for (let a = 13; a <= 16; a++) emit(zero, set(a));
  emit(i32c(0), set(8), get(3), set(9));
  emit([0x03, 0x40]); // loop over coordinate quads
  emit(get(0), get(8), I32_ADD, v128Load(0), set(17));
  for (let i = 0; i < 4; i++) emit(get(13 + i), get(9), v128Load(16 * i), get(17), simd(F32X4_MUL), simd(F32X4_ADD), set(13 + i));
  emit(get(9), i32c(64), I32_ADD, set(9));
  emit(get(8), i32c(16), I32_ADD, tee(8), get(2), I32_LT_U, [0x0d, 0]);
  emit([0x0b]);
  // Horizontal sums of a0–a3 into one vector of the four dot products (a 4 × 4 transpose-add).
  emit(get(13), get(14), LO, get(13), get(14), HI, simd(F32X4_ADD), set(18));
  emit(get(15), get(16), LO, get(15), get(16), HI, simd(F32X4_ADD), set(15));
  // v = (qn' + nr') − 2·dot, compared lane-wise with the thresholds; the lanes that pass as a 4-bit mask.
  emit(get(19), get(4), [0x2a, 2, 0], simd(F32X4_SPLAT), simd(F32X4_ADD));
  emit(f32Twos, get(18), get(15), EVEN, get(18), get(15), ODD, simd(F32X4_ADD), simd(F32X4_MUL), simd(F32X4_SUB));
  emit(get(20), simd(F32X4_LE), simd(I32X4_BITMASK, 0x01), tee(12), [0x04, 0x40]);
  emit(get(6), get(11), [0x36, 2, 0], get(6), get(12), [0x36, 2, 4]);
  emit(get(6), i32c(8), I32_ADD, set(6), get(10), i32c(1), I32_ADD, set(10), [0x0b]);
  emit(get(4), i32c(4), I32_ADD, set(4), get(11), i32c(1), I32_ADD, set(11));
  emit(get(0), get(2), I32_ADD, tee(0), get(7), I32_LT_U, [0x0d, 0]);
  emit([0x0b, 0x0b], get(10), [0x0b]);
  const locals = [2, 6, I32, 8, V128];
  return [...leb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array {
  return memoryModule(
    [[0x60, 7, I32, I32, I32, I32, I32, I32, I32, 1, I32]],
    [
      { name: "filter4", type: 0, body: body() },
      { name: "filter4f", type: 0, body: bodyF32() },
    ],
  );
}

const MODULE = compileModule(moduleBytes());

export interface DotKernel {
  readonly memory: WasmMemory;
  /** Returns the number of candidates written at `cand`. */
  readonly filter4: (x: number, rows: number, rowBytes: number, q: number, norms: number, prm: number, cand: number) => number;
  /** The Float32 filter: see f32Slack in brute.ts. Candidates are (row, lane mask) as two int32s. */
  readonly filter4f: (x: number, rows: number, rowBytes: number, q: number, norms: number, prm: number, cand: number) => number;
}

/** A kernel instance over a memory of at least `bytes` bytes, or null without WebAssembly SIMD (or beyond 2 GiB). */
export function createDotKernel(bytes: number): DotKernel | null {
  const instance = MODULE ? instantiate(MODULE, bytes) : null;
  if (!instance) return null;
  return { memory: instance.memory, filter4: instance.exports.filter4 as DotKernel["filter4"], filter4f: instance.exports.filter4f as DotKernel["filter4f"] };
}

export const simdAvailable = MODULE !== null;
