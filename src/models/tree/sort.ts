/**
 * Argsort of doubles for the presorted splitter and OC1's sweeps: ascending,
 * NaN last, ties in input order (stable, hence deterministic). Inputs beyond a
 * few hundred use an LSD radix sort on the IEEE-754 bits (11-bit digits, six
 * passes, a pass skipped when every key shares its digit): a comparator sort of
 * 100,000 indices costs tens of milliseconds per feature in V8, the radix passes a few.
 */
const RADIX_MIN = 256;
const BITS = 11;
const BUCKETS = 1 << BITS;
const MASK = BUCKETS - 1;

/** Returns `ids` reordered by value; `values[i]` must be the value of `ids[i]`. */
export function argsortByValue(ids: Int32Array, values: Float64Array): Int32Array {
  const n = ids.length;
  if (n < RADIX_MIN) return comparatorSort(ids, values);
  const bits = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    bits[i] = v === 0 ? 0 : v; // -0 sorts with +0
  }
  const words = new Uint32Array(bits.buffer);
  let hi = new Uint32Array(n);
  let lo = new Uint32Array(n);
  let id = Int32Array.from(ids);
  for (let i = 0; i < n; i++) {
    let h = words[2 * i + 1];
    let l = words[2 * i];
    if (Number.isNaN(bits[i])) {
      h = 0xffffffff;
      l = 0xffffffff;
    } else if (h & 0x80000000) {
      h = ~h >>> 0;
      l = ~l >>> 0;
    } else {
      h = (h | 0x80000000) >>> 0;
    }
    hi[i] = h;
    lo[i] = l;
  }
  let hi2 = new Uint32Array(n);
  let lo2 = new Uint32Array(n);
  let id2 = new Int32Array(n);
  const count = new Int32Array(BUCKETS);
  // 64 bits in six digits: bits 0-10, 11-21, 22-31 (lo word), 0-10, 11-21, 22-31 (hi word).
  for (let pass = 0; pass < 6; pass++) {
    const shift = (pass % 3) * BITS;
    const useHi = pass >= 3;
    const src = useHi ? hi : lo;
    count.fill(0);
    for (let i = 0; i < n; i++) count[(src[i] >>> shift) & MASK]++;
    if (count[(src[0] >>> shift) & MASK] === n) continue;
    let sum = 0;
    for (let dgt = 0; dgt < BUCKETS; dgt++) {
      const c = count[dgt];
      count[dgt] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const p = count[(src[i] >>> shift) & MASK]++;
      hi2[p] = hi[i];
      lo2[p] = lo[i];
      id2[p] = id[i];
    }
    [hi, hi2] = [hi2, hi];
    [lo, lo2] = [lo2, lo];
    [id, id2] = [id2, id];
  }
  return id;
}

function comparatorSort(ids: Int32Array, values: Float64Array): Int32Array {
  const n = ids.length;
  const order = Array.from({ length: n }, (_, i) => i);
  order.sort((a, b) => {
    const va = values[a];
    const vb = values[b];
    const na = Number.isNaN(va);
    const nb = Number.isNaN(vb);
    if (na || nb) return na === nb ? a - b : na ? 1 : -1;
    return va < vb ? -1 : va > vb ? 1 : a - b;
  });
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = ids[order[i]];
  return out;
}
