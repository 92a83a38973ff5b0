/**
 * Encodes a model state (plain data with typed arrays) as JSON-safe data and back,
 * exactly: typed arrays travel as base64 of their bytes (so every bit of every
 * double survives, NaN included), non-finite scalars as tagged strings. This is
 * the fix for the mljs failure mode where Infinity came back as null.
 * Decoding only rebuilds these tagged shapes; the algorithm's zod state schema
 * then validates the result.
 */
type TypedArray = Float64Array | Float32Array | Int32Array | Uint32Array | Uint8Array | Int8Array | Uint16Array | Int16Array;

const TYPED: Record<string, new (buffer: ArrayBuffer) => TypedArray> = {
  f64: Float64Array,
  f32: Float32Array,
  i32: Int32Array,
  u32: Uint32Array,
  u8: Uint8Array,
  i8: Int8Array,
  u16: Uint16Array,
  i16: Int16Array,
};

function tagOf(a: TypedArray): string {
  if (a instanceof Float64Array) return "f64";
  if (a instanceof Float32Array) return "f32";
  if (a instanceof Int32Array) return "i32";
  if (a instanceof Uint32Array) return "u32";
  if (a instanceof Uint8Array) return "u8";
  if (a instanceof Int8Array) return "i8";
  if (a instanceof Uint16Array) return "u16";
  return "i16";
}

export function encodeState(value: unknown): unknown {
  if (typeof value === "number") {
    if (Number.isFinite(value)) return Object.is(value, -0) ? 0 : value;
    return { $num: String(value) };
  }
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (value === undefined) return null;
  if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const a = value as TypedArray;
    return { $typed: tagOf(a), base64: Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString("base64") };
  }
  if (Array.isArray(value)) return value.map(encodeState);
  if (typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (v !== undefined) out[k] = encodeState(v);
    }
    return out;
  }
  throw new Error(`cannot encode a ${typeof value} in a model state`);
}

export function decodeState(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) return value.map(decodeState);
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  if (keys.length === 1 && typeof obj.$num === "string") {
    if (obj.$num === "NaN") return NaN;
    if (obj.$num === "Infinity") return Infinity;
    if (obj.$num === "-Infinity") return -Infinity;
    throw new Error(`bad $num ${obj.$num}`);
  }
  if (keys.length === 2 && typeof obj.$typed === "string" && typeof obj.base64 === "string") {
    const Ctor = TYPED[obj.$typed];
    if (!Ctor) throw new Error(`bad typed array tag ${obj.$typed}`);
    const bytes = Buffer.from(obj.base64, "base64");
    const width = (Ctor as unknown as { BYTES_PER_ELEMENT: number }).BYTES_PER_ELEMENT;
    if (bytes.length % width !== 0) throw new Error("typed array length is not a multiple of its element size");
    // Copy into a fresh, aligned buffer: Buffer slices may share a pool at any offset.
    const copy = new ArrayBuffer(bytes.length);
    new Uint8Array(copy).set(bytes);
    return new Ctor(copy);
  }
  const out: Record<string, unknown> = Object.create(null);
  for (const k of keys) {
    if (k === "__proto__" || k === "constructor" || k === "prototype") throw new Error(`forbidden key ${k}`);
    out[k] = decodeState(obj[k]);
  }
  return { ...out };
}
