/**
 * The standardised design z = (x − shift)/scale as the iterative solvers read it:
 * scores z·v + c and gradients zᵀr over a block of rows (blocks.ts). Dense columns
 * are a column-major copy; one-hot blocks (indicators.ts) stay as codes, and
 * their shift and scale are applied to the weights instead of the data —
 *   Σ_j z_ij v_j = Σ_j x_ij v_j/scale_j − Σ_j shift_j v_j/scale_j,
 *   Σ_i r_i z_ij = (Σ_i r_i x_ij − shift_j Σ_i r_i)/scale_j —
 * so a level costs one gather per row, and centring never fills the block in.
 */
import { blockGradient, blockScores, columnMajor } from "./blocks.js";
import { featureValues, type FeatureColumn } from "../../data/indicator-columns.js";
import { indicatorLayout } from "./indicators.js";

export interface LinearFeatures {
  readonly n: number;
  readonly p: number;
  /** out[i] = c + Σ_j z[row_i, j]·x[offset + j] for the block (rows as in blocks.ts). */
  scores(x: Float64Array, offset: number, c: number, order: Int32Array | null, start: number, len: number, out: Float64Array): void;
  /**
   * The same scores for parameters that stay fixed over the blocks that follow: what depends
   * on them alone (a one-hot level's weight on the original scale) is worked out once here,
   * not once per block and class. Slot k's scorer is reused: it is valid until slot k is
   * bound again, and must be bound again after x changes.
   */
  bind(x: Float64Array, offset: number, c: number, slot: number): BlockScorer;
  /** g[offset + j] += Σ_i r[i]·z[row_i, j] for the block. */
  gradient(r: Float64Array, order: Int32Array | null, start: number, len: number, g: Float64Array, offset: number): void;
  /** The column-major n × p standardised copy, for the solvers that form a Hessian; made on first use. */
  dense(): Float64Array;
}

/** Scores of the block start … start + len (rows as in blocks.ts) for the parameters bound. */
export type BlockScorer = (order: Int32Array | null, start: number, len: number, out: Float64Array) => void;

export function standardisedFeatures(columns: readonly FeatureColumn[], n: number, shift: Float64Array, scale: Float64Array): LinearFeatures {
  const p = columns.length;
  const layout = indicatorLayout(columns, n);
  if (layout.groups.length === 0) return denseFeatures(columnMajor(columns.map(featureValues), n, shift, scale), n, p);

  const { dense, groups } = layout;
  const d = dense.length;
  const zd = columnMajor(
    Array.from(dense, (j) => featureValues(columns[j])),
    n,
    Float64Array.from(dense, (j) => shift[j]),
    Float64Array.from(dense, (j) => scale[j]),
  );
  const gd = new Float64Array(d);
  // Per level: 1/scale and shift/scale of its design column, and the column itself.
  const blocks = groups.map(({ columns: levels, codes }) => ({
    codes,
    levels,
    inverse: Float64Array.from(levels, (j) => 1 / scale[j]),
    shifted: Float64Array.from(levels, (j) => shift[j] / scale[j]),
  }));
  const perLevel = new Float64Array(groups.reduce((most, g) => Math.max(most, g.columns.length), 0));
  /** One slot's bound parameters: the dense columns' weights, the constant, each block's per-level weights. */
  const makeSlot = () => {
    const xd = new Float64Array(d);
    const weights = blocks.map(({ levels }) => new Float64Array(levels.length));
    let constant = 0;
    const bindSlot = (x: Float64Array, offset: number, c: number): void => {
      for (let a = 0; a < d; a++) xd[a] = x[offset + dense[a]];
      constant = c;
      for (const { levels, shifted } of blocks) for (let k = 0; k < levels.length; k++) constant -= shifted[k] * x[offset + levels[k]];
      // The level's weight on the original scale, once per level rather than once per row.
      blocks.forEach(({ levels, inverse }, b) => {
        const w = weights[b];
        for (let k = 0; k < levels.length; k++) w[k] = x[offset + levels[k]] * inverse[k];
      });
    };
    const scorer: BlockScorer = (order, start, len, out) => {
      blockScores(zd, n, d, xd, 0, constant, order, start, len, out);
      for (let b = 0; b < blocks.length; b++) {
        const codes = blocks[b].codes;
        const w = weights[b];
        if (order) {
          for (let i = 0; i < len; i++) {
            const k = codes[order[start + i]];
            if (k >= 0) out[i] += w[k];
          }
        } else {
          for (let i = 0, row = start; i < len; i++, row++) {
            const k = codes[row];
            if (k >= 0) out[i] += w[k];
          }
        }
      }
    };
    return { bindSlot, scorer };
  };
  const slots: ReturnType<typeof makeSlot>[] = [];
  const slotOf = (slot: number) => (slots[slot] ??= makeSlot());
  const unbound = makeSlot();
  let full: Float64Array | null = null;
  return {
    n,
    p,
    scores(x, offset, c, order, start, len, out) {
      unbound.bindSlot(x, offset, c);
      unbound.scorer(order, start, len, out);
    },
    bind(x, offset, c, slot) {
      const s = slotOf(slot);
      s.bindSlot(x, offset, c);
      return s.scorer;
    },
    gradient(r, order, start, len, g, offset) {
      gd.fill(0);
      blockGradient(zd, n, d, r, order, start, len, gd, 0);
      for (let a = 0; a < d; a++) g[offset + dense[a]] += gd[a];
      let rsum = 0;
      for (let i = 0; i < len; i++) rsum += r[i];
      for (const { codes, levels, inverse, shifted } of blocks) {
        const L = levels.length;
        perLevel.fill(0, 0, L);
        if (order) {
          for (let i = 0; i < len; i++) {
            const k = codes[order[start + i]];
            if (k >= 0) perLevel[k] += r[i];
          }
        } else {
          for (let i = 0, row = start; i < len; i++, row++) {
            const k = codes[row];
            if (k >= 0) perLevel[k] += r[i];
          }
        }
        for (let k = 0; k < L; k++) g[offset + levels[k]] += perLevel[k] * inverse[k] - shifted[k] * rsum;
      }
    },
    dense: () => (full ??= columnMajor(columns.map(featureValues), n, shift, scale)),
  };
}

export function denseFeatures(z: Float64Array, n: number, p: number): LinearFeatures {
  return {
    n,
    p,
    scores: (x, offset, c, order, start, len, out) => blockScores(z, n, p, x, offset, c, order, start, len, out),
    bind: (x, offset, c) => (order, start, len, out) => blockScores(z, n, p, x, offset, c, order, start, len, out),
    gradient: (r, order, start, len, g, offset) => blockGradient(z, n, p, r, order, start, len, g, offset),
    dense: () => z,
  };
}
