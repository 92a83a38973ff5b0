/**
 * Writing small WebAssembly functions out as bytes (no toolchain, nothing loaded at run
 * time), shared by the hand-written SIMD kernels (`neighbors/simd-dot.ts`,
 * `models/svm/simd-dot-row.ts`, `models/cluster/simd-distances.ts`, …), and the few members of the WebAssembly global they use
 * (the project's lib settings do not declare it). Each kernel module compiles its bytes
 * once and falls back to its JavaScript loop where `compileModule` gives null.
 */

export const I32 = 0x7f;
export const F64 = 0x7c;
export const V128 = 0x7b;

export function leb(v: number): number[] {
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
export function sleb(v: number): number[] {
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

export const section = (id: number, body: number[]) => [id, ...leb(body.length), ...body];
export const name = (s: string) => [...leb(s.length), ...Array.from(s, (c) => c.charCodeAt(0))];
export const get = (i: number) => [0x20, i];
export const set = (i: number) => [0x21, i];
export const tee = (i: number) => [0x22, i];
export const i32c = (v: number) => [0x41, ...sleb(v)];
export const simd = (op: number, ...imm: number[]) => [0xfd, ...leb(op), ...imm];
export const v128Load = (offset: number) => simd(0x00, 3, ...leb(offset));
/** v128.store at the address on the stack (plus offset), 16-byte aligned. */
export const v128Store = (offset: number) => simd(0x0b, 4, ...leb(offset));
export const f64Load = (offset: number) => [0x2b, 3, ...leb(offset)];
export const f64Store = (offset: number) => [0x39, 3, ...leb(offset)];
export const F64X2_ADD = 0xf0;
export const F64X2_SUB = 0xf1;
export const F64X2_MUL = 0xf2;
export const F64X2_EXTRACT = 0x21;
export const zero = simd(0x0c, ...new Array<number>(16).fill(0));
export const [ADD, SUB, MUL, LE, CONVERT_U] = [[0xa0], [0xa1], [0xa2], [0x65], [0xb8]];
export const [I32_ADD, I32_MUL, I32_SHL, I32_LT_U, I32_GE_U] = [[0x6a], [0x6c], [0x74], [0x49], [0x4f]];

/** A function of a module built by `memoryModule`: its export name, its type's index, its body (see functionBody). */
export interface WasmFunction {
  name: string;
  type: number;
  body: number[];
}

/**
 * The bytes of a module that imports its memory as m.mem and exports every function:
 * `types` are whole function-type entries (0x60, params, results), `functions` in index order.
 */
export function memoryModule(types: number[][], functions: WasmFunction[]): Uint8Array {
  const type = section(1, [...leb(types.length), ...types.flat()]);
  const imports = section(2, [1, ...name("m"), ...name("mem"), 0x02, 0x00, 1]);
  const declared = section(3, [...leb(functions.length), ...functions.map((f) => f.type)]);
  const exports = section(7, [...leb(functions.length), ...functions.flatMap((f, i) => [...name(f.name), 0x00, ...leb(i)])]);
  const code = section(10, [...leb(functions.length), ...functions.flatMap((f) => f.body)]);
  return Uint8Array.from([0x00, 0x61, 0x73, 0x6d, 1, 0, 0, 0, ...type, ...imports, ...declared, ...exports, ...code]);
}

/** A function body: its locals as (count, type) pairs, then the code (without the final `end`). */
export function functionBody(locals: number[][], code: number[]): number[] {
  const decl = [locals.length, ...locals.flat()];
  return [...leb(decl.length + code.length + 1), ...decl, ...code, 0x0b];
}

export interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmApi {
  validate(bytes: Uint8Array): boolean;
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
  Memory: new (descriptor: { initial: number }) => WasmMemory;
}
const wasm = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

/** A compiled module, or null where WebAssembly (or the SIMD it uses) is unavailable. */
export function compileModule(bytes: Uint8Array): object | null {
  try {
    return wasm && wasm.validate(bytes) ? new wasm.Module(bytes) : null;
  } catch {
    return null;
  }
}

/**
 * An instance of `module` importing a fresh memory of at least `bytes` bytes as m.mem; null
 * beyond 2 GiB, or when the memory cannot be had (the callers then keep their JavaScript loops).
 */
export function instantiate(module: object, bytes: number): { memory: WasmMemory; exports: Record<string, unknown> } | null {
  if (!wasm || bytes > 2 ** 31) return null;
  try {
    const memory = new wasm.Memory({ initial: Math.max(1, Math.ceil(bytes / 65536)) });
    return { memory, exports: new wasm.Instance(module, { m: { mem: memory } }).exports };
  } catch {
    return null;
  }
}
