/**
 * Seeded randomness. Every random choice in xigua flows from one of these so the
 * same request on the same data gives the same model bit for bit.
 * Generator: xoshiro128** (fast, 32-bit state words, good statistical quality),
 * seeded through splitmix32 so that nearby seeds give unrelated streams.
 */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** Standard normal (Box–Muller). */
  normal(): number;
  /** An independent generator derived from this one (for a fold, a tree, a restart). */
  fork(): Rng;
}

function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function createRng(seed: number): Rng {
  const sm = splitmix32(Math.floor(seed) ^ Math.floor(seed / 2 ** 32));
  const s = new Uint32Array([sm(), sm(), sm(), sm()]);
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  let spare: number | null = null;

  const nextU32 = (): number => {
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9) >>> 0;
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result;
  };
  const next = (): number => (nextU32() * 2 ** 21 + (nextU32() >>> 11)) / 2 ** 53;

  const rng: Rng = {
    next,
    int: (n) => Math.floor(next() * n),
    normal: () => {
      if (spare !== null) {
        const v = spare;
        spare = null;
        return v;
      }
      let u = 0;
      while (u === 0) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      return r * Math.cos(2 * Math.PI * v);
    },
    fork: () => createRng(nextU32() * 2 ** 21 + (nextU32() >>> 11)),
  };
  return rng;
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Fisher–Yates in place. */
export function shuffleInPlace<T extends { length: number; [i: number]: unknown }>(a: T, rng: Rng): T {
  for (let i = a.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
  return a;
}

export function permutation(n: number, rng: Rng): Int32Array {
  const p = new Int32Array(n);
  for (let i = 0; i < n; i++) p[i] = i;
  return shuffleInPlace(p, rng);
}
