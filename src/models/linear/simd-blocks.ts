/**
 * blockScores and blockGradient (blocks.ts) over a contiguous run of rows as WebAssembly
 * SIMD functions (two doubles per instruction, no bounds check per load), written out as
 * bytes (`data/wasm-bytes.ts`). They compute bit for bit what the JavaScript loops compute:
 * every double goes through the same IEEE operations in the same order, only two at a time.
 *
 * scores(z, colBytes, p, x, c, len, out): out[i] = c, then for each group of four columns
 * out[i] += ((z0·w0 + z1·w1) + z2·w2) + z3·w3 and for each remaining column out[i] += z·w —
 * the JavaScript association — with the two lanes holding rows i and i + 1. z is the byte
 * address of the block's first row in column 0, columns colBytes apart; x the address of the
 * p weights. An odd len computes one row past the block (reading the next doubles of memory
 * and writing out[len]), so the caller leaves a double of room after the column data and out.
 *
 * gradient(z, colBytes, p, r, len, g): g[j] += Σ_i r[i]·z[j, i], each column's sum started at
 * 0 and taken over the rows in order, as the JavaScript loop does; the lanes hold two columns
 * (a row's two values are loaded into one vector), four pairs of columns a pass so that four
 * independent chains of adds hide their latency.
 */
import { compileModule, F64, type WasmMemory, f64Load, f64Store, F64X2_ADD, F64X2_MUL, functionBody, get, I32, I32_ADD, I32_LT_U, I32_SHL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, v128Store, zero, ADD, MUL } from "../../data/wasm-bytes.js";

const BLOCK = [0x02, 0x40];
const LOOP = [0x03, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];
const br = (depth: number) => [0x0c, depth];
const I32_GT_U = [0x4b];
const I32_GE_U = [0x4f];
const F64X2_SPLAT = 0x14;
const v128Load64Splat = simd(0x0a, 3, 0);
const v128Load64Zero = simd(0x5d, 3, 0);
const v128Load64Lane1 = simd(0x57, 3, 0, 1);

// Params: 0 z, 1 colBytes, 2 p, 3 x (i32), 4 c (f64), 5 len, 6 out (i32).
// Locals: 7 j, 8 i, 9 end, 10 col, 11–13 c1–c3 (i32); 14–17 w0–w3 (v128).
function scoresBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const weight = (k: number) => [...get(3), ...get(7), ...i32c(3), ...I32_SHL, ...I32_ADD, ...f64Load(8 * k), ...simd(F64X2_SPLAT)];
  emit(get(5), i32c(3), I32_SHL, set(9), i32c(0), set(8));
  emit(LOOP, get(6), get(8), I32_ADD, get(4), simd(F64X2_SPLAT), v128Store(0)); // out = c
  emit(get(8), i32c(16), I32_ADD, tee(8), get(9), I32_LT_U, brIf(0), END);
  emit(i32c(0), set(7), get(0), set(10));
  emit(BLOCK, LOOP); // groups of four columns while j + 4 <= p
  emit(get(7), i32c(4), I32_ADD, get(2), I32_GT_U, brIf(1));
  for (let k = 0; k < 4; k++) emit(weight(k), set(14 + k));
  emit(get(10), get(1), I32_ADD, tee(11), get(1), I32_ADD, tee(12), get(1), I32_ADD, set(13), i32c(0), set(8));
  emit(LOOP, get(6), get(8), I32_ADD); // store address
  emit(get(6), get(8), I32_ADD, v128Load(0));
  [10, 11, 12, 13].forEach((col, k) => {
    emit(get(col), get(8), I32_ADD, v128Load(0), get(14 + k), simd(F64X2_MUL));
    if (k > 0) emit(simd(F64X2_ADD));
  });
  emit(simd(F64X2_ADD), v128Store(0));
  emit(get(8), i32c(16), I32_ADD, tee(8), get(9), I32_LT_U, brIf(0), END);
  emit(get(13), get(1), I32_ADD, set(10), get(7), i32c(4), I32_ADD, set(7), br(0), END, END);
  emit(BLOCK, LOOP); // the remaining columns one at a time
  emit(get(7), get(2), I32_GE_U, brIf(1));
  emit(weight(0), set(14), i32c(0), set(8));
  emit(LOOP, get(6), get(8), I32_ADD, get(6), get(8), I32_ADD, v128Load(0), get(10), get(8), I32_ADD, v128Load(0), get(14), simd(F64X2_MUL), simd(F64X2_ADD), v128Store(0));
  emit(get(8), i32c(16), I32_ADD, tee(8), get(9), I32_LT_U, brIf(0), END);
  emit(get(10), get(1), I32_ADD, set(10), get(7), i32c(1), I32_ADD, set(7), br(0), END, END);
  return functionBody([[7, I32], [4, V128]], code);
}

/** Column pairs per pass of the gradient's widest loop. */
const PAIRS = 4;

// Params: 0 z, 1 colBytes, 2 p, 3 r, 4 len, 5 g. Locals: 6 j, 7 i, 8 end, 9 col (i32), 10 … 10 + 2·PAIRS − 1
// the pass's column addresses (i32); then PAIRS accumulators, rv (v128); then a (f64).
function gradientBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const cols = (m: number) => 10 + m;
  const acc = (k: number) => 10 + 2 * PAIRS + k;
  const rv = acc(PAIRS);
  const a = rv + 1;
  /** A loop over passes of `pairs` column pairs while j + 2·pairs <= p. */
  const group = (pairs: number): void => {
    emit(BLOCK, LOOP);
    emit(get(6), i32c(2 * pairs), I32_ADD, get(2), I32_GT_U, brIf(1));
    emit(get(9), set(cols(0)));
    for (let m = 1; m < 2 * pairs; m++) emit(get(cols(m - 1)), get(1), I32_ADD, set(cols(m)));
    for (let k = 0; k < pairs; k++) emit(zero, set(acc(k)));
    emit(i32c(0), set(7));
    emit(LOOP, get(3), get(7), I32_ADD, v128Load64Splat, set(rv));
    for (let k = 0; k < pairs; k++) {
      // v = (z[2k, i], z[2k + 1, i]); acc_k = acc_k + r_i·v
      emit(get(acc(k)), get(rv));
      emit(get(cols(2 * k + 1)), get(7), I32_ADD); // address for the lane load, under the vector
      emit(get(cols(2 * k)), get(7), I32_ADD, v128Load64Zero);
      // stack: acc, rv, addr1, v0 — v128.load64_lane takes (addr, vector)
      emit(v128Load64Lane1, simd(F64X2_MUL), simd(F64X2_ADD), set(acc(k)));
    }
    emit(get(7), i32c(8), I32_ADD, tee(7), get(8), I32_LT_U, brIf(0), END);
    for (let k = 0; k < pairs; k++) {
      emit(get(5), get(6), i32c(2 * k), I32_ADD, i32c(3), I32_SHL, I32_ADD); // store address g + 8(j + 2k)
      emit(get(5), get(6), i32c(2 * k), I32_ADD, i32c(3), I32_SHL, I32_ADD, v128Load(0), get(acc(k)), simd(F64X2_ADD), v128Store(0));
    }
    emit(get(cols(2 * pairs - 1)), get(1), I32_ADD, set(9), get(6), i32c(2 * pairs), I32_ADD, set(6), br(0), END, END);
  };
  emit(get(4), i32c(3), I32_SHL, set(8), i32c(0), set(6), get(0), set(9));
  group(PAIRS);
  group(1);
  // A last single column: a = Σ r_i·z_i, g[j] = g[j] + a.
  emit(BLOCK, get(6), get(2), I32_GE_U, brIf(0));
  emit([0x44, 0, 0, 0, 0, 0, 0, 0, 0], set(a), i32c(0), set(7));
  emit(LOOP, get(a), get(3), get(7), I32_ADD, f64Load(0), get(9), get(7), I32_ADD, f64Load(0), MUL, ADD, set(a));
  emit(get(7), i32c(8), I32_ADD, tee(7), get(8), I32_LT_U, brIf(0), END);
  emit(get(5), get(6), i32c(3), I32_SHL, I32_ADD, get(5), get(6), i32c(3), I32_SHL, I32_ADD, f64Load(0), get(a), ADD, f64Store(0));
  emit(END);
  return functionBody([[4 + 2 * PAIRS, I32], [PAIRS + 1, V128], [1, F64]], code);
}

function moduleBytes(): Uint8Array {
  return memoryModule(
    [
      [0x60, 7, I32, I32, I32, I32, F64, I32, I32, 0],
      [0x60, 6, I32, I32, I32, I32, I32, I32, 0],
    ],
    [
      { name: "scores", type: 0, body: scoresBody() },
      { name: "gradient", type: 1, body: gradientBody() },
    ],
  );
}

const MODULE = compileModule(moduleBytes());

/** Rows of the largest block the kernel takes (blocks.ts BLOCK), plus the odd row's lane. */
const SCRATCH_ROWS = 514;

/**
 * A column-major n × p design held in a WebAssembly memory, with room after it for one
 * block's scores or residuals and one weight vector. The block calls copy the (small)
 * weights, scores and residuals through that room; the design itself is never copied.
 */
export interface BlockKernel {
  /** The design, column j at j·n; fill it in place. */
  readonly z: Float64Array;
  /** Bytes of its memory, for reuse by a later design (`createBlockKernel`'s `recycled`). */
  readonly capacity: number;
  scores(p: number, x: Float64Array, offset: number, c: number, start: number, len: number, out: Float64Array): void;
  gradient(p: number, r: Float64Array, start: number, len: number, g: Float64Array, offset: number): void;
}

interface Instance {
  memory: WasmMemory & { grow(pages: number): number };
  exports: Record<string, unknown>;
}
const INSTANCES = new WeakMap<BlockKernel, Instance>();

/** Bytes of memory a kernel for an n × p design needs. */
export const kernelBytes = (n: number, p: number): number => layout(n, p).bytes;

/** Bytes a kernel for an n × p design needs, and where its scratch starts. */
function layout(n: number, p: number): { vecAt: number; rowsAt: number; bytes: number } {
  // The design, a spare double (the odd row's lane past the last column), then 16-byte aligned scratch.
  const vecAt = (8 * n * p + 8 + 15) & ~15;
  const rowsAt = vecAt + 8 * (p + 2);
  return { vecAt, rowsAt, bytes: rowsAt + 8 * SCRATCH_ROWS };
}

/**
 * A kernel for an n × p design, or null without WebAssembly SIMD (or beyond 2 GiB). With
 * `recycled` large enough its memory is reused instead of a fresh one (whose pages the
 * first fill of a large design spends most of its time faulting in); the memory is grown
 * by 0 pages first, which detaches every view of it, so the recycled kernel's design and
 * anything still holding it fail loudly rather than read the new design.
 */
export function createBlockKernel(n: number, p: number, recycled?: BlockKernel | null): BlockKernel | null {
  if (!MODULE) return null;
  const { vecAt, rowsAt, bytes } = layout(n, p);
  let instance = recycled && recycled.capacity >= bytes ? INSTANCES.get(recycled) : undefined;
  if (instance) instance.memory.grow(0);
  else instance = (instantiate(MODULE, bytes) as Instance | null) ?? undefined;
  if (!instance) return null;
  const memory = new Float64Array(instance.memory.buffer);
  const z = memory.subarray(0, n * p);
  const vec = vecAt / 8;
  const rows = rowsAt / 8;
  const scores = instance.exports.scores as (z: number, colBytes: number, p: number, x: number, c: number, len: number, out: number) => void;
  const gradient = instance.exports.gradient as (z: number, colBytes: number, p: number, r: number, len: number, g: number) => void;
  const kernel: BlockKernel = {
    z,
    capacity: memory.byteLength,
    scores(cols, x, offset, c, start, len, out) {
      memory.set(x.subarray(offset, offset + cols), vec);
      scores(8 * start, 8 * n, cols, vecAt, c, len, rowsAt);
      out.set(memory.subarray(rows, rows + len));
    },
    gradient(cols, r, start, len, g, offset) {
      memory.set(g.subarray(offset, offset + cols), vec);
      memory.set(r.subarray(0, len), rows);
      gradient(8 * start, 8 * n, cols, rowsAt, len, vecAt);
      g.set(memory.subarray(vec, vec + cols), offset);
    },
  };
  INSTANCES.set(kernel, instance);
  return kernel;
}
