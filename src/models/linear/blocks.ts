/**
 * Linear scores and gradients over a column-major design z (column j at j·n),
 * a block of rows at a time: inner loops run down a column over up to BLOCK rows
 * (long, contiguous, cache-resident), which is over twice as fast as per-row
 * loops of length p. `order` selects the rows of a mini-batch (a gather);
 * null means the contiguous rows start … start + len.
 */
import { createBlockKernel, kernelBytes, type BlockKernel } from "./simd-blocks.js";

export const BLOCK = 512;

/**
 * Designs of at least this many doubles are held in a WebAssembly memory and their
 * contiguous blocks go through the SIMD kernel (simd-blocks.ts, the same doubles bit for
 * bit); below it a memory and an instance per fit cost more than they save.
 */
export const KERNEL_MIN_DOUBLES = 1 << 14;

/** The SIMD kernel of each design columnMajor placed in a WebAssembly memory. */
const KERNELS = new WeakMap<Float64Array, BlockKernel>();

/** Kernels made inside the current `reusingDesignMemory` call; null outside one. */
let scoped: BlockKernel[] | null = null;
/** The largest kernel of the last scope, whose memory the next large design reuses. */
let spare: BlockKernel | null = null;
/** A spare larger than this is let go rather than kept for the thread's lifetime. */
const SPARE_MAX_BYTES = 64 * 2 ** 20;

/**
 * Runs `fit` letting the designs columnMajor makes inside it reuse the memory of the
 * previous call's: a fresh 16 MB memory costs more to fault in than filling it. The caller
 * vouches that nothing made inside `fit` holds a design after it returns; a design of an
 * earlier call that is touched anyway throws (simd-blocks.ts detaches reused memory).
 */
export function reusingDesignMemory<T>(fit: () => T): T {
  if (scoped) return fit();
  scoped = [];
  try {
    return fit();
  } finally {
    for (const k of scoped) if (k.capacity <= SPARE_MAX_BYTES && (!spare || k.capacity > spare.capacity)) spare = k;
    scoped = null;
  }
}

/**
 * out[i] = c + Σ_j z[j, row_i]·x[offset + j] for the block. Four columns per
 * pass over the block: out is read and written a quarter as often.
 */
export function blockScores(
  z: Float64Array,
  n: number,
  p: number,
  x: Float64Array,
  offset: number,
  c: number,
  order: Int32Array | null,
  start: number,
  len: number,
  out: Float64Array,
): void {
  const kernel = order || len === 0 ? undefined : KERNELS.get(z);
  if (kernel) return kernel.scores(p, x, offset, c, start, len, out);
  out.fill(c, 0, len);
  let j = 0;
  for (; j + 3 < p; j += 4) {
    const w0 = x[offset + j];
    const w1 = x[offset + j + 1];
    const w2 = x[offset + j + 2];
    const w3 = x[offset + j + 3];
    const o0 = j * n;
    const o1 = o0 + n;
    const o2 = o1 + n;
    const o3 = o2 + n;
    if (order) {
      for (let i = 0; i < len; i++) {
        const r = order[start + i];
        out[i] += z[o0 + r] * w0 + z[o1 + r] * w1 + z[o2 + r] * w2 + z[o3 + r] * w3;
      }
    } else {
      for (let i = 0, r = start; i < len; i++, r++) out[i] += z[o0 + r] * w0 + z[o1 + r] * w1 + z[o2 + r] * w2 + z[o3 + r] * w3;
    }
  }
  for (; j < p; j++) {
    const w = x[offset + j];
    const o = j * n;
    if (order) for (let i = 0; i < len; i++) out[i] += z[o + order[start + i]] * w;
    else for (let i = 0, r = start; i < len; i++, r++) out[i] += z[o + r] * w;
  }
}

/** g[offset + j] += Σ_i r[i]·z[j, row_i] for the block, four columns per pass. */
export function blockGradient(
  z: Float64Array,
  n: number,
  p: number,
  r: Float64Array,
  order: Int32Array | null,
  start: number,
  len: number,
  g: Float64Array,
  offset: number,
): void {
  const kernel = order || len === 0 ? undefined : KERNELS.get(z);
  if (kernel) return kernel.gradient(p, r, start, len, g, offset);
  let j = 0;
  for (; j + 3 < p; j += 4) {
    const o0 = j * n;
    const o1 = o0 + n;
    const o2 = o1 + n;
    const o3 = o2 + n;
    let a0 = 0;
    let a1 = 0;
    let a2 = 0;
    let a3 = 0;
    if (order) {
      for (let i = 0; i < len; i++) {
        const row = order[start + i];
        const ri = r[i];
        a0 += ri * z[o0 + row];
        a1 += ri * z[o1 + row];
        a2 += ri * z[o2 + row];
        a3 += ri * z[o3 + row];
      }
    } else {
      for (let i = 0, row = start; i < len; i++, row++) {
        const ri = r[i];
        a0 += ri * z[o0 + row];
        a1 += ri * z[o1 + row];
        a2 += ri * z[o2 + row];
        a3 += ri * z[o3 + row];
      }
    }
    g[offset + j] += a0;
    g[offset + j + 1] += a1;
    g[offset + j + 2] += a2;
    g[offset + j + 3] += a3;
  }
  for (; j < p; j++) {
    const o = j * n;
    let acc = 0;
    if (order) for (let i = 0; i < len; i++) acc += r[i] * z[o + order[start + i]];
    else for (let i = 0, row = start; i < len; i++, row++) acc += r[i] * z[o + row];
    g[offset + j] += acc;
  }
}

/**
 * h[a, b] += Σ_i d[i]·z̃[a, i]·z̃[b, i] over all rows, z̃ being z with a column of
 * ones appended when `intercept` (q = p + 1 columns), into the q × q block at
 * (row0, col0) of a size-wide matrix: the lower triangle of the block, or all of
 * it when `full`. `weightOf` fills d for the rows start … start + len.
 */
export function accumulateWeightedGram(
  z: Float64Array,
  n: number,
  p: number,
  intercept: boolean,
  weightOf: (start: number, len: number, d: Float64Array) => void,
  h: Float64Array,
  size: number,
  row0: number,
  col0: number,
  full: boolean,
): void {
  const d = new Float64Array(BLOCK);
  const dz = new Float64Array(BLOCK);
  const q = p + (intercept ? 1 : 0);
  for (let start = 0; start < n; start += BLOCK) {
    const len = Math.min(BLOCK, n - start);
    weightOf(start, len, d);
    for (let a = 0; a < q; a++) {
      const oa = a * n + start;
      if (a < p) for (let i = 0; i < len; i++) dz[i] = d[i] * z[oa + i];
      else for (let i = 0; i < len; i++) dz[i] = d[i];
      const rowBase = (row0 + a) * size + col0;
      const last = full ? q - 1 : a;
      for (let b = 0; b <= last; b++) {
        let acc = 0;
        if (b < p) {
          const ob = b * n + start;
          for (let i = 0; i < len; i++) acc += dz[i] * z[ob + i];
        } else {
          for (let i = 0; i < len; i++) acc += dz[i];
        }
        h[rowBase + b] += acc;
      }
    }
  }
}

/** Copies the lower triangle of a size × size matrix onto the upper one, scaling both. */
export function symmetriseLower(h: Float64Array, size: number, scale: number): void {
  for (let a = 0; a < size; a++) {
    for (let b = 0; b <= a; b++) {
      const v = h[a * size + b] * scale;
      h[a * size + b] = v;
      h[b * size + a] = v;
    }
  }
}

/**
 * Column-major n × p copy, (x − shift) / scale per column; in a WebAssembly memory with its
 * SIMD kernel when large enough and available (the doubles are the same either way).
 */
export function columnMajor(columns: readonly Float64Array[], n: number, shift: Float64Array, scale: Float64Array): Float64Array {
  const p = columns.length;
  let kernel: BlockKernel | null = null;
  if (n * p >= KERNEL_MIN_DOUBLES) {
    const recycled = scoped && spare && spare.capacity >= kernelBytes(n, p) ? spare : null;
    if (recycled) spare = null;
    kernel = createBlockKernel(n, p, recycled);
    if (kernel) scoped?.push(kernel);
  }
  const out = kernel ? kernel.z : new Float64Array(n * p);
  if (kernel) KERNELS.set(out, kernel);
  for (let j = 0; j < p; j++) {
    const c = columns[j];
    const m = shift[j];
    const inv = 1 / scale[j];
    const o = j * n;
    for (let i = 0; i < n; i++) out[o + i] = (c[i] - m) * inv;
  }
  return out;
}

/**
 * The ridge term ½ Σ_j λ_j v_j² of one weight vector v = x[offset … offset + λ.length):
 * adds its gradient into g and returns its value (to add to the loss).
 */
export function addRidge(x: Float64Array, g: Float64Array, l2: Float64Array, offset = 0): number {
  let penalty = 0;
  for (let j = 0; j < l2.length; j++) {
    const v = x[offset + j];
    penalty += 0.5 * l2[j] * v * v;
    g[offset + j] += l2[j] * v;
  }
  return penalty;
}
