/**
 * Discrete factors and exact inference by variable elimination (bayes_net).
 * A factor is a table over a sorted list of variables, the last varying fastest.
 */

export interface Factor {
  readonly vars: Int32Array;
  readonly card: Int32Array;
  readonly values: Float64Array;
}

function strides(card: Int32Array): Int32Array {
  const s = new Int32Array(card.length);
  let step = 1;
  for (let i = card.length - 1; i >= 0; i--) {
    s[i] = step;
    step *= card[i];
  }
  return s;
}

/** The product of two factors, over the union of their variables. */
export function multiply(a: Factor, b: Factor, cardOf: Int32Array): Factor {
  const vars = Int32Array.from(new Set([...a.vars, ...b.vars])).sort();
  const card = Int32Array.from(vars, (v) => cardOf[v]);
  const size = card.reduce((x, y) => x * y, 1);
  const values = new Float64Array(size);
  const sa = strides(a.card);
  const sb = strides(b.card);
  // For each variable of the product, its stride in a and in b (0 when absent).
  const inA = Int32Array.from(vars, (v) => {
    const i = a.vars.indexOf(v);
    return i < 0 ? 0 : sa[i];
  });
  const inB = Int32Array.from(vars, (v) => {
    const i = b.vars.indexOf(v);
    return i < 0 ? 0 : sb[i];
  });
  const digit = new Int32Array(vars.length);
  let ia = 0;
  let ib = 0;
  for (let t = 0; t < size; t++) {
    values[t] = a.values[ia] * b.values[ib];
    for (let i = vars.length - 1; i >= 0; i--) {
      if (++digit[i] < card[i]) {
        ia += inA[i];
        ib += inB[i];
        break;
      }
      digit[i] = 0;
      ia -= inA[i] * (card[i] - 1);
      ib -= inB[i] * (card[i] - 1);
    }
  }
  return { vars, card, values };
}

/** Σ over one variable. */
export function sumOut(f: Factor, v: number): Factor {
  const at = f.vars.indexOf(v);
  const vars = f.vars.filter((_, i) => i !== at);
  const card = f.card.filter((_, i) => i !== at);
  const s = strides(f.card);
  const values = new Float64Array(card.reduce((x, y) => x * y, 1));
  const inner = s[at];
  const L = f.card[at];
  const outer = f.values.length / (inner * L);
  for (let o = 0; o < outer; o++) {
    for (let l = 0; l < L; l++) {
      const base = (o * L + l) * inner;
      for (let i = 0; i < inner; i++) values[o * inner + i] += f.values[base + i];
    }
  }
  return { vars, card, values };
}

/** A family's CPT (child v given sorted parents) restricted to the observed values (-1 = unobserved). */
export function cptFactor(v: number, parents: Int32Array, cpt: Float64Array, offset: number, cardOf: Int32Array, observed: Int32Array): Factor {
  const family = Int32Array.from([...parents, v]);
  const keep = Int32Array.from(family.filter((u) => observed[u] < 0)).sort();
  const card = Int32Array.from(keep, (u) => cardOf[u]);
  const values = new Float64Array(card.reduce((x, y) => x * y, 1));
  // CPT layout: parent configuration (mixed radix over the parents, last fastest) × child level.
  const famCard = Int32Array.from(family, (u) => cardOf[u]);
  const famStride = strides(famCard);
  const digit = new Int32Array(keep.length);
  for (let t = 0; t < values.length; t++) {
    let index = 0;
    for (let i = 0; i < family.length; i++) {
      const u = family[i];
      const val = observed[u] >= 0 ? observed[u] : digit[keep.indexOf(u)];
      index += val * famStride[i];
    }
    values[t] = cpt[offset + index];
    for (let i = keep.length - 1; i >= 0; i--) {
      if (++digit[i] < card[i]) break;
      digit[i] = 0;
    }
  }
  return { vars: keep, card, values };
}

/**
 * P(query variables, evidence) as a factor over `query` (unnormalised): multiply the
 * restricted CPTs, eliminating every other unobserved variable, cheapest first (the one
 * whose elimination makes the smallest factor).
 */
export function eliminate(factors: Factor[], query: readonly number[], cardOf: Int32Array): Factor {
  let pool = factors.slice();
  const keep = new Set(query);
  for (;;) {
    const candidates = new Set<number>();
    for (const f of pool) for (const v of f.vars) if (!keep.has(v)) candidates.add(v);
    if (candidates.size === 0) break;
    let best = -1;
    let bestSize = Infinity;
    for (const v of candidates) {
      const union = new Set<number>();
      for (const f of pool) if (f.vars.includes(v)) for (const u of f.vars) union.add(u);
      let size = 1;
      for (const u of union) size *= cardOf[u];
      if (size < bestSize || (size === bestSize && v < best)) {
        best = v;
        bestSize = size;
      }
    }
    const touching = pool.filter((f) => f.vars.includes(best));
    pool = pool.filter((f) => !f.vars.includes(best));
    let product = touching[0];
    for (let i = 1; i < touching.length; i++) product = multiply(product, touching[i], cardOf);
    pool.push(sumOut(product, best));
  }
  let result: Factor = { vars: new Int32Array(0), card: new Int32Array(0), values: Float64Array.of(1) };
  for (const f of pool) result = multiply(result, f, cardOf);
  return result;
}
