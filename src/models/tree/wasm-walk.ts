/**
 * The numeric fast path of predict.ts's walk as a small WebAssembly function (bytes written
 * with data/wasm-bytes.ts). Same tests, same stops: a row goes right where `v > threshold`,
 * and stops at a leaf, at a categorical or oblique test, or where its value is missing (NaN);
 * predict.ts takes over from the stop node exactly as after its own walk, so predictions do
 * not change by a bit. What is gained is the cost of one step: in JavaScript, C[f][i] loads
 * the column's object, its length and its data pointer on every step; here a step loads the
 * node's column offset, then the value, and the threshold and left child from the same 16
 * bytes, with eight rows in flight (the JavaScript walk gained nothing beyond four).
 *
 * Memory layout (the nodes copied in again only when another tree comes):
 * - from byte 0, the nodes, 16 bytes each: threshold (f64), the tested column's byte offset in
 *   a block (i32), the left child's byte address (i32; the right child follows it);
 * - at `cols`, a block of `rows` rows of the columns the tree tests, copied column by column
 *   (one memcpy each), then one column of NaN: leaves, categorical and oblique tests point
 *   there, so "missing value" is the one stop test of the loop;
 * - after it, each row's stop node (i32) for the block.
 *
 * walk(cols, stops, count): rows 0 … count − 1 of the block, eight lanes, each taking the next
 * row as soon as its row stops.
 */
import type { WasmMemory } from "../../data/wasm-bytes.js";
import { compileModule, F64, functionBody, get, I32, I32_ADD, I32_LT_U, I32_SHL, i32c, instantiate, memoryModule, set, tee } from "../../data/wasm-bytes.js";

const LANES = 8;
/** Bytes of copied rows per block (the tested columns): a block stays in the level-2 cache beside the nodes. */
const BLOCK_BYTES = 1 << 18;
const [BLOCK_, LOOP, IF, ELSE, END] = [[0x02, 0x40], [0x03, 0x40], [0x04, 0x40], [0x05], [0x0b]];
const br = (depth: number) => [0x0c, depth];
const brIf = (depth: number) => [0x0d, depth];
const i32Load = (offset: number) => [0x28, 2, offset];
const f64Load0 = [0x2b, 3, 0];
const i32Store0 = [0x36, 2, 0];
const [I32_SUB, I32_SHR_U, I32_LT_S, I32_GE_U, F64_GT, F64_NE] = [[0x6b], [0x76], [0x48], [0x4f], [0x64], [0x62]];

// Params: 0 cols, 1 stops, 2 count. Locals: 3 next (byte address of the next row's values), 4 end (i32);
// lane k: 5 + 2k its node's address, 6 + 2k its row's address in the first column (−1 once done) (i32);
// then v, the tested value (f64).
function walkBody(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  const [NEXT, END_AT, V] = [3, 4, 5 + 2 * LANES];
  const node = (k: number) => 5 + 2 * k;
  const row = (k: number) => 6 + 2 * k;
  // Pushes "stop here": the tested value (kept in V) is NaN — a missing value, or the NaN column of a node that is no threshold test.
  const stopTest = (k: number) => emit(get(node(k)), i32Load(8), get(row(k)), I32_ADD, f64Load0, tee(V), get(V), F64_NE);
  // stops[row] = node index, at stops + (row address − cols) / 2.
  const storeStop = (k: number) => emit(get(1), get(row(k)), get(0), I32_SUB, i32c(1), I32_SHR_U, I32_ADD, get(node(k)), i32c(4), I32_SHR_U, i32Store0);
  // node = left child + 16 · (v > threshold): computed, not branched on (a coin flip the processor would mispredict).
  const step = (k: number) => emit(get(node(k)), i32Load(12), get(V), get(node(k)), f64Load0, F64_GT, i32c(4), I32_SHL, I32_ADD, set(node(k)));
  const takeNext = (k: number) => emit(get(NEXT), set(row(k)), get(NEXT), i32c(8), I32_ADD, set(NEXT), i32c(0), set(node(k)));
  emit(get(0), set(NEXT), get(0), get(2), i32c(3), I32_SHL, I32_ADD, set(END_AT));
  for (let k = 0; k < LANES; k++) {
    emit(i32c(-1), set(row(k)));
    emit(get(NEXT), get(END_AT), I32_LT_U, IF);
    takeNext(k);
    emit(END);
  }
  // All lanes busy until the rows run out: the first lane that finds none left ends this loop.
  emit(BLOCK_, get(NEXT), get(END_AT), I32_GE_U, brIf(0), LOOP);
  for (let k = 0; k < LANES; k++) {
    stopTest(k);
    emit(IF);
    storeStop(k);
    emit(get(NEXT), get(END_AT), I32_GE_U, IF, i32c(-1), set(row(k)), br(3), END);
    takeNext(k);
    emit(ELSE);
    step(k);
    emit(END);
  }
  emit(br(0), END, END);
  // Then each lane still walking finishes its row alone.
  for (let k = 0; k < LANES; k++) {
    emit(BLOCK_, get(row(k)), i32c(0), I32_LT_S, brIf(0), LOOP);
    stopTest(k);
    emit(IF);
    storeStop(k);
    emit(br(2), ELSE);
    step(k);
    emit(br(1), END, END, END);
  }
  return functionBody([[2 + 2 * LANES, I32], [1, F64]], code);
}

const MODULE = compileModule(memoryModule([[0x60, 3, I32, I32, I32, 0]], [{ name: "walk", type: 0, body: walkBody() }]));

/** Whether batches walk here (tests check they do, so that comparing them with single rows compares the two walks). */
export const WASM_WALK = MODULE !== null;

/** A tree's nodes in the module's layout, for blocks of `rows` rows of the columns it tests. */
interface NodeImage {
  readonly bytes: Uint8Array;
  readonly rows: number;
  /** The features the tree tests, in the order of their columns in a block. */
  readonly columns: Int32Array;
  /** Steps a row takes before it stops, on average if every test sent half the rows each way. */
  readonly depth: number;
}

const images = new WeakMap<Int32Array, NodeImage>();

/** From predict.ts's packed nodes (PF: threshold at 2·node; PI: feature at 4·node + 2, −1 or −2 where no threshold test, first child at 4·node + 3). */
function imageOf(PF: Float64Array, PI: Int32Array): NodeImage {
  const cached = images.get(PI);
  if (cached) return cached;
  const n = PF.length / 2;
  const slotOf = new Map<number, number>();
  for (let node = 0; node < n; node++) {
    const f = PI[4 * node + 2];
    if (f >= 0 && !slotOf.has(f)) slotOf.set(f, slotOf.size);
  }
  const used = slotOf.size;
  const rows = Math.max(LANES, Math.floor(BLOCK_BYTES / (8 * (used + 1))));
  const bytes = new Uint8Array(16 * n);
  const F = new Float64Array(bytes.buffer);
  const I = new Int32Array(bytes.buffer);
  // Children come after their parent (tree-state.ts), so one pass in node order carries each node's depth and share down.
  const level = new Int32Array(n);
  const share = new Float64Array(n);
  share[0] = 1;
  let depth = 0;
  for (let node = 0; node < n; node++) {
    const f = PI[4 * node + 2];
    const left = PI[4 * node + 3];
    F[2 * node] = PF[2 * node];
    I[4 * node + 2] = 8 * rows * (f >= 0 ? (slotOf.get(f) as number) : used);
    I[4 * node + 3] = 16 * left;
    if (f < 0) depth += share[node] * level[node];
    else
      for (const child of [left, left + 1]) {
        level[child] = level[node] + 1;
        share[child] = share[node] / 2;
      }
  }
  const image = { bytes, rows, columns: Int32Array.from(slotOf.keys()), depth };
  images.set(PI, image);
  return image;
}

/**
 * Copying a row's tested values into a block costs ≈ 0.4 ns a value, while the walk saves
 * ≈ 2.6 ns a step (AMD EPYC, 25,000 rows × 20 columns, depth 17): a tree that tests many
 * more columns than a row passes nodes (a shallow tree on wide data) keeps the JavaScript walk.
 */
const COLUMNS_PER_STEP = 4;

/**
 * Copying a tree's nodes in costs about as much per 16-byte node as the faster walk saves
 * per row every 30 nodes (≈ 1.5 ns against ≈ 50 ns for a depth of 17, AMD EPYC): a call loads
 * another tree only with at least one row per 16 nodes.
 */
const NODE_BYTES_PER_ROW = 16 * 16;

/** Layouts beyond this many bytes keep the JavaScript walk (a memory that size would stay allocated). */
const MAX_MEMORY = 1 << 26;

let memory: WasmMemory | null = null;
let walk: ((cols: number, stops: number, count: number) => void) | null = null;
let loaded: NodeImage | null = null;

/**
 * Each row's stop node into `stops` (as predict.ts's own walk leaves them), for the numeric
 * columns C (null where categorical); false, with nothing written, where WebAssembly is
 * unavailable or the layout too large, and the caller walks in JavaScript.
 */
export function wasmStops(PF: Float64Array, PI: Int32Array, C: readonly (Float64Array | null)[], n: number, stops: Int32Array): boolean {
  if (!MODULE) return false;
  const image = imageOf(PF, PI);
  const { rows, columns } = image;
  const used = columns.length;
  if (used > COLUMNS_PER_STEP * image.depth) return false;
  const cols = Math.ceil(image.bytes.length / 64) * 64;
  const stopsAt = cols + 8 * rows * (used + 1);
  const needed = stopsAt + 4 * rows;
  if (needed > MAX_MEMORY) return false;
  if (!memory || memory.buffer.byteLength < needed) {
    const instance = instantiate(MODULE, needed);
    if (!instance) return false;
    memory = instance.memory;
    walk = instance.exports.walk as typeof walk;
    loaded = null;
  }
  const buffer = memory.buffer;
  if (loaded !== image) {
    // Loading another tree's nodes (a forest's trees take turns) pays only for enough rows.
    if (image.bytes.length > NODE_BYTES_PER_ROW * n) return false;
    new Uint8Array(buffer).set(image.bytes);
    loaded = image;
  }
  const values = new Float64Array(buffer, cols, rows * (used + 1));
  values.fill(NaN, rows * used);
  const blockStops = new Int32Array(buffer, stopsAt, rows);
  for (let start = 0; start < n; start += rows) {
    const count = Math.min(rows, n - start);
    for (let slot = 0; slot < used; slot++) {
      const column = C[columns[slot]];
      if (column) values.set(column.subarray(start, start + count), slot * rows);
      else values.fill(NaN, slot * rows, slot * rows + count);
    }
    (walk as (cols: number, stops: number, count: number) => void)(cols, stopsAt, count);
    stops.set(count === rows ? blockStops : blockStops.subarray(0, count), start);
  }
  return true;
}
