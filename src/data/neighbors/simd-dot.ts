/**
 * The inner loop of euclidean brute force — dot products of four query rows with
 * a run of training rows — as a 200-byte WebAssembly function using 128-bit SIMD
 * (two doubles per instruction, no bounds check per load). Written out as bytes
 * here (no toolchain, nothing loaded at run time); it computes in Float64 exactly
 * what the JavaScript loop computes, pairwise-summed. Where WebAssembly SIMD is
 * unavailable `createDotKernel` returns null and brute.ts keeps its JavaScript loop.
 *
 * dots4(x, rows, rowBytes, q, out): for each of `rows` training rows starting at
 * byte x (rowBytes apart, an even number of doubles each), the four dot products
 * with the query block at q, stored at out (four doubles a row). The query block is
 * interleaved by coordinate pair: pair t of query i at q + 64·t + 16·i.
 */

const I32 = 0x7f;
const V128 = 0x7b;

function leb(v: number): number[] {
  const out: number[] = [];
  do {
    let b = v & 0x7f;
    v >>>= 7;
    if (v !== 0) b |= 0x80;
    out.push(b);
  } while (v !== 0);
  return out;
}

/** Signed LEB128, as i32.const takes it (64 needs two bytes: 0x40 alone is −64). */
function sleb(v: number): number[] {
  const out: number[] = [];
  for (;;) {
    const b = v & 0x7f;
    v >>= 7;
    if ((v === 0 && (b & 0x40) === 0) || (v === -1 && (b & 0x40) !== 0)) {
      out.push(b);
      return out;
    }
    out.push(b | 0x80);
  }
}

const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
const name = (s: string) => [...leb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];

// Locals: 0 x, 1 rows, 2 rowBytes, 3 q, 4 out (params); 5 end, 6 j, 7 qp (i32); 8–11 a0–a3, 12 xv (v128).
const get = (i: number) => [0x20, i];
const set = (i: number) => [0x21, i];
const tee = (i: number) => [0x22, i];
const i32c = (v: number) => [0x41, ...sleb(v)];
const simd = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm];
const v128Load = (offset: number) => simd(0x00, 3, ...leb(offset));
const F64X2_ADD = 0xf0;
const F64X2_MUL = 0xf2;
const F64X2_EXTRACT = 0x21;
const zero = simd(0x0c, ...new Array<number>(16).fill(0));

function body(): number[] {
  const code: number[] = [];
  const emit = (...parts: number[][]) => parts.forEach((p) => code.push(...p));
  emit(get(1), get(2), [0x6c], get(0), [0x6a], set(5)); // end = x + rows·rowBytes
  emit([0x02, 0x40], get(0), get(5), [0x4f], [0x0d, 0]); // block; if x >= end break
  emit([0x03, 0x40]); // loop over rows
  for (let a = 8; a <= 11; a++) emit(zero, set(a));
  emit(i32c(0), set(6), get(3), set(7));
  emit([0x03, 0x40]); // loop over coordinate pairs
  emit(get(0), get(6), [0x6a], v128Load(0), set(12));
  for (let i = 0; i < 4; i++) emit(get(8 + i), get(7), v128Load(16 * i), get(12), simd(F64X2_MUL), simd(F64X2_ADD), set(8 + i));
  emit(get(7), i32c(64), [0x6a], set(7));
  emit(get(6), i32c(16), [0x6a], tee(6), get(2), [0x49], [0x0d, 0]); // j += 16; continue while j < rowBytes
  emit([0x0b]);
  for (let i = 0; i < 4; i++) emit(get(4), get(8 + i), simd(F64X2_EXTRACT, 0), get(8 + i), simd(F64X2_EXTRACT, 1), [0xa0], [0x39, 3, ...leb(8 * i)]);
  emit(get(4), i32c(32), [0x6a], set(4));
  emit(get(0), get(2), [0x6a], tee(0), get(5), [0x49], [0x0d, 0]); // next row while x < end
  emit([0x0b, 0x0b, 0x0b]); // end loop, end block, end function
  const locals = [2, 3, I32, 5, V128];
  return [...leb(locals.length + code.length), ...locals, ...code];
}

function moduleBytes(): Uint8Array {
  const type = section(1, [1, 0x60, 5, I32, I32, I32, I32, I32, 0]);
  const imports = section(2, [1, ...name("m"), ...name("mem"), 0x02, 0x00, 1]);
  const functions = section(3, [1, 0]);
  const exports = section(7, [1, ...name("dots4"), 0x00, 0]);
  const code = section(10, [1, ...body()]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...functions, ...exports, ...code]);
}

/** The few WebAssembly members used (the project's lib settings do not declare the global). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

const BYTES = moduleBytes();
const MODULE: object | null = (() => {
  try {
    return wasm && wasm.validate(BYTES) ? new wasm.Module(BYTES) : null;
  } catch {
    return null;
  }
})();

export interface DotKernel {
  readonly memory: WasmMemory;
  readonly dots4: (x: number, rows: number, rowBytes: number, q: number, out: number) => void;
}

/** A kernel instance over a memory of at least `bytes` bytes, or null without WebAssembly SIMD (or beyond 2 GiB). */
export function createDotKernel(bytes: number): DotKernel | null {
  if (!wasm || !MODULE || bytes > 2 ** 31) return null;
  const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
  const instance = new wasm.Instance(MODULE, { m: { mem: memory } });
  return { memory, dots4: instance.exports.dots4 as DotKernel["dots4"] };
}

export const simdAvailable = MODULE !== null;
