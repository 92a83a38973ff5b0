/**
 * The one-hot side of a multinomial fit's scores and gradient (features.ts bindClasses /
 * classGradient), with every table row-major over the K classes so that a row's level code
 * reaches its K entries side by side:
 *   gather:   block[i·K + k] += weights_b[code_i·K + k]           (the scores)
 *   scatter:  levelSums[code_i·K + k] += block[i·K + k]           (Σ_i r_ik per level)
 *   finalise: gradients_b[l·K + k] += levelSums[l·K + k]·inverse_l − shifted_l·sums[k]
 * Each (row, class) and (level, class) entry goes through the same IEEE operations in the same
 * order as the per-class JavaScript loops, so the doubles are the same. The contiguous blocks run
 * as WebAssembly SIMD (two classes per instruction, no bounds checks) when it is available; a
 * mini-batch's rows (`order`) and hosts without SIMD take the JavaScript loops.
 */
import { BLOCK } from "./blocks.js";
import { ADD, compileModule, f64Load, f64Store, F64X2_ADD, F64X2_MUL, F64X2_SUB, functionBody, get, I32, I32_ADD, I32_LT_U, I32_MUL, i32c, instantiate, memoryModule, set, simd, tee, V128, v128Load, v128Store, MUL, SUB } from "../../data/wasm-bytes.js";

export interface OneHotBlock {
  /** Per row the level's index, −1 for none. */
  readonly codes: Int32Array;
  /** Per level 1/scale and shift/scale of its design column. */
  readonly inverse: Float64Array;
  readonly shifted: Float64Array;
}

export interface ClassTables {
  /** One block of rows' scores, then residuals, row-major (BLOCK × K). */
  readonly block: Float64Array;
  /** Per class Σ_i r_ik over the block (written by the caller, read by finalise). */
  readonly sums: Float64Array;
  /** Per one-hot block its levels' weights on the original scale, level-major (L × K). */
  readonly weights: Float64Array[];
  /** Per one-hot block its levels' gradient sums, level-major (L × K); the caller zeroes them. */
  readonly gradients: Float64Array[];
  gather(b: number, order: Int32Array | null, start: number, len: number): void;
  /** Zeroes the level sums, then adds each row's K residuals to its level's. */
  scatter(b: number, order: Int32Array | null, start: number, len: number): void;
  finalise(b: number): void;
}

const LOOP = [0x03, 0x40];
const IF = [0x04, 0x40];
const END = [0x0b];
const brIf = (depth: number) => [0x0d, depth];
const I32_GE_S = [0x4e];
const I32_LOAD = [0x28, 2, 0];
const F64X2_SPLAT = simd(0x14);

/**
 * (codes, len, K, table, rows): for each row i with level c = codes[i] ≥ 0, either
 * rows[i·K + k] += table[c·K + k] (gather) or table[c·K + k] += rows[i·K + k] (scatter).
 * Locals: 5 i, 6 c, 7 the destination's address, 8 the source's, 9 k, 10 the row's address (i32).
 * K's pairs as f64x2, an odd K's last class as one f64.
 */
function rowsBody(intoTable: boolean): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const [codes, len, K, table, rows, i, c, dst, src, k, row] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  emit(i32c(0), set(i), get(rows), set(row));
  emit([0x02, 0x40], get(len), i32c(0), [0x4c], brIf(0)); // len ≤ 0: nothing
  emit(LOOP);
  emit(get(codes), get(i), i32c(2), [0x74], I32_ADD, I32_LOAD, tee(c), i32c(0), I32_GE_S, IF);
  const level = [...get(table), ...get(c), ...get(K), ...I32_MUL, ...i32c(3), 0x74, ...I32_ADD];
  if (intoTable) emit(level, set(dst), get(row), set(src));
  else emit(get(row), set(dst), level, set(src));
  emit(i32c(0), set(k));
  // Pairs while k + 2 ≤ K.
  emit([0x02, 0x40], LOOP, get(k), i32c(2), I32_ADD, get(K), [0x4a], brIf(1)); // k + 2 > K (signed): out
  emit(get(dst), get(dst), v128Load(0), get(src), v128Load(0), simd(F64X2_ADD), v128Store(0));
  emit(get(dst), i32c(16), I32_ADD, set(dst), get(src), i32c(16), I32_ADD, set(src), get(k), i32c(2), I32_ADD, set(k), [0x0c, 0], END, END);
  emit(get(k), get(K), I32_LT_U, IF, get(dst), get(dst), f64Load(0), get(src), f64Load(0), ADD, f64Store(0), END);
  emit(END); // if c ≥ 0
  emit(get(row), get(K), i32c(3), [0x74], I32_ADD, set(row));
  emit(get(i), i32c(1), I32_ADD, tee(i), get(len), I32_LT_U, brIf(0), END, END);
  return functionBody([[6, I32]], code);
}

/**
 * (L, K, sums, inverse, shifted, levelSums, gradients): gradients[l·K + k] +=
 * levelSums[l·K + k]·inverse[l] − shifted[l]·sums[k]. Locals: 7 l, 8 k, 9 at (byte offset of
 * (l, 0)), 10 a (i32); 11 inv, 12 sh (v128).
 */
function finaliseBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const [L, K, sums, inverse, shifted, levelSums, gradients, l, k, at, a, inv, sh] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
  emit(i32c(0), set(l), i32c(0), set(at));
  emit([0x02, 0x40], get(L), i32c(0), [0x4c], brIf(0));
  emit(LOOP);
  emit(get(inverse), get(l), i32c(3), [0x74], I32_ADD, f64Load(0), F64X2_SPLAT, set(inv));
  emit(get(shifted), get(l), i32c(3), [0x74], I32_ADD, f64Load(0), F64X2_SPLAT, set(sh));
  emit(i32c(0), set(k));
  emit([0x02, 0x40], LOOP, get(k), i32c(2), I32_ADD, get(K), [0x4a], brIf(1));
  // a = at + 8k; gradients[a] = gradients[a] + (levelSums[a]·inv − sh·sums[k])
  emit(get(at), get(k), i32c(3), [0x74], I32_ADD, set(a));
  emit(get(gradients), get(a), I32_ADD);
  emit(get(gradients), get(a), I32_ADD, v128Load(0));
  emit(get(levelSums), get(a), I32_ADD, v128Load(0), get(inv), simd(F64X2_MUL));
  emit(get(sh), get(sums), get(k), i32c(3), [0x74], I32_ADD, v128Load(0), simd(F64X2_MUL), simd(F64X2_SUB));
  emit(simd(F64X2_ADD), v128Store(0));
  emit(get(k), i32c(2), I32_ADD, set(k), [0x0c, 0], END, END);
  emit(get(k), get(K), I32_LT_U, IF);
  emit(get(at), get(k), i32c(3), [0x74], I32_ADD, set(a));
  emit(get(gradients), get(a), I32_ADD);
  emit(get(gradients), get(a), I32_ADD, f64Load(0));
  emit(get(levelSums), get(a), I32_ADD, f64Load(0), get(inverse), get(l), i32c(3), [0x74], I32_ADD, f64Load(0), MUL);
  emit(get(shifted), get(l), i32c(3), [0x74], I32_ADD, f64Load(0), get(sums), get(k), i32c(3), [0x74], I32_ADD, f64Load(0), MUL, SUB);
  emit(ADD, f64Store(0), END);
  emit(get(at), get(K), i32c(3), [0x74], I32_ADD, set(at));
  emit(get(l), i32c(1), I32_ADD, tee(l), get(L), I32_LT_U, brIf(0), END, END);
  return functionBody([[4, I32], [2, V128]], code);
}

const MODULE = compileModule(
  memoryModule(
    [
      [0x60, 5, I32, I32, I32, I32, I32, 0],
      [0x60, 7, I32, I32, I32, I32, I32, I32, I32, 0],
    ],
    [
      { name: "gather", type: 0, body: rowsBody(false) },
      { name: "scatter", type: 0, body: rowsBody(true) },
      { name: "finalise", type: 1, body: finaliseBody() },
    ],
  ),
);

/** The tables in a WebAssembly memory with the SIMD loops, or in ordinary arrays (`simd` false, or no SIMD). */
export function classTables(blocks: readonly OneHotBlock[], n: number, K: number, simd = true): ClassTables {
  const sizes = blocks.map((b) => b.inverse.length);
  const widest = Math.max(0, ...sizes);
  // Byte layout, every region 16-aligned: block, sums, levelSums, then per one-hot block its
  // codes, weights, gradients, inverse, shifted.
  let bytes = 0;
  const region = (size: number): number => {
    const at = bytes;
    bytes += (size + 15) & ~15;
    return at;
  };
  const blockAt = region(8 * BLOCK * K);
  const sumsAt = region(8 * K);
  const levelSumsAt = region(8 * widest * K);
  const at = blocks.map((b, i) => ({ codes: region(4 * n), weights: region(8 * sizes[i] * K), gradients: region(8 * sizes[i] * K), inverse: region(8 * sizes[i]), shifted: region(8 * sizes[i]) }));
  const instance = simd && MODULE ? instantiate(MODULE, bytes) : null;
  const buffer = instance ? instance.memory.buffer : new ArrayBuffer(bytes);
  const f64 = (byte: number, length: number) => new Float64Array(buffer, byte, length);
  const block = f64(blockAt, BLOCK * K);
  const sums = f64(sumsAt, K);
  const levelSums = f64(levelSumsAt, widest * K);
  const weights = blocks.map((_, i) => f64(at[i].weights, sizes[i] * K));
  const gradients = blocks.map((_, i) => f64(at[i].gradients, sizes[i] * K));
  blocks.forEach((b, i) => {
    new Int32Array(buffer, at[i].codes, n).set(b.codes);
    f64(at[i].inverse, sizes[i]).set(b.inverse);
    f64(at[i].shifted, sizes[i]).set(b.shifted);
  });

  const tables: ClassTables = {
    block,
    sums,
    weights,
    gradients,
    gather(b, order, start, len) {
      const codes = blocks[b].codes;
      const w = weights[b];
      for (let i = 0; i < len; i++) {
        const level = codes[order ? order[start + i] : start + i];
        if (level < 0) continue;
        for (let k = 0, o = i * K, a = level * K; k < K; k++, o++, a++) block[o] += w[a];
      }
    },
    scatter(b, order, start, len) {
      const codes = blocks[b].codes;
      levelSums.fill(0, 0, sizes[b] * K);
      for (let i = 0; i < len; i++) {
        const level = codes[order ? order[start + i] : start + i];
        if (level < 0) continue;
        for (let k = 0, o = i * K, a = level * K; k < K; k++, o++, a++) levelSums[a] += block[o];
      }
    },
    finalise(b) {
      const { inverse, shifted } = blocks[b];
      const g = gradients[b];
      for (let l = 0, a = 0; l < inverse.length; l++) for (let k = 0; k < K; k++, a++) g[a] += levelSums[a] * inverse[l] - shifted[l] * sums[k];
    },
  };
  if (!instance) return tables;
  type Rows = (codes: number, len: number, K: number, table: number, rows: number) => void;
  const gather = instance.exports.gather as Rows;
  const scatter = instance.exports.scatter as Rows;
  const finalise = instance.exports.finalise as (L: number, K: number, sums: number, inverse: number, shifted: number, levelSums: number, gradients: number) => void;
  const { gather: gatherRows, scatter: scatterRows } = tables;
  return {
    ...tables,
    gather(b, order, start, len) {
      if (order) gatherRows(b, order, start, len);
      else gather(at[b].codes + 4 * start, len, K, at[b].weights, blockAt);
    },
    scatter(b, order, start, len) {
      if (order) return scatterRows(b, order, start, len);
      levelSums.fill(0, 0, sizes[b] * K);
      scatter(at[b].codes + 4 * start, len, K, levelSumsAt, blockAt);
    },
    finalise(b) {
      finalise(sizes[b], K, sumsAt, at[b].inverse, at[b].shifted, levelSumsAt, at[b].gradients);
    },
  };
}
