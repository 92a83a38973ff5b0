/**
 * The standardised design z = (x − shift)/scale as the iterative solvers read it:
 * scores z·v + c and gradients zᵀr over a block of rows (blocks.ts). Dense columns
 * are a column-major copy; one-hot blocks (indicators.ts) stay as codes, and
 * their shift and scale are applied to the weights instead of the data —
 *   Σ_j z_ij v_j = Σ_j x_ij v_j/scale_j − Σ_j shift_j v_j/scale_j,
 *   Σ_i r_i z_ij = (Σ_i r_i x_ij − shift_j Σ_i r_i)/scale_j —
 * so a level costs one gather per row, and centring never fills the block in.
 */
import { BLOCK, blockGradient, blockScores, columnMajor } from "./blocks.js";
import { featureValues, type FeatureColumn } from "../../data/indicator-columns.js";
import { indicatorLayout } from "./indicators.js";
import { classTables } from "./class-tables.js";

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
  /**
   * The multinomial view: every class's scores and gradient a block of rows at a time, row-major
   * over the classes (class k's parameters at x[k·q …], its intercept at x[k·q + p] when
   * `intercepts`). The same doubles as K bound scorers and K gradient calls: every (row, class)
   * score and every (parameter) sum goes through the same operations in the same order; only the
   * layout differs, so a one-hot level's K weights and K gradient sums sit side by side.
   */
  classes(K: number, q: number, intercepts: boolean): ClassFeatures;
}

export interface ClassFeatures {
  /** A block of rows' scores (then whatever the loss makes of them: residuals), row i's K classes at i·K. */
  readonly block: Float64Array;
  /** Per class Σ_i block[i·K + k] over the last `gradient` block, in row order from 0 (the intercepts' gradient). */
  readonly sums: Float64Array;
  /** Binds x's parameters for the blocks that follow (as bind), and restarts the gradient. */
  bind(x: Float64Array): void;
  /** block[i·K + k] = c_k + Σ_j z[row_i, j]·x[k·q + j] for the block's rows. */
  scores(order: Int32Array | null, start: number, len: number): void;
  /**
   * g[k·q + j] += Σ_i block[i·K + k]·z[row_i, j] for the block's rows, and sums; a one-hot level's
   * share is kept aside until `finish` adds it to g (which must then still hold zeros there).
   */
  gradient(order: Int32Array | null, start: number, len: number, g: Float64Array): void;
  finish(g: Float64Array): void;
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
  /**
   * Binds the parameters at x[offset …]: the dense columns' weights into xd, each level's weight on
   * the original scale into weights[b][at + l·stride] (once per level rather than once per row);
   * returns the constant, c less every level's shifted weight.
   */
  const bindInto = (x: Float64Array, offset: number, c: number, xd: Float64Array, weights: Float64Array[], at: number, stride: number): number => {
    for (let a = 0; a < d; a++) xd[a] = x[offset + dense[a]];
    let constant = c;
    for (const { levels, shifted } of blocks) for (let l = 0; l < levels.length; l++) constant -= shifted[l] * x[offset + levels[l]];
    blocks.forEach(({ levels, inverse }, b) => {
      const w = weights[b];
      for (let l = 0, o = at; l < levels.length; l++, o += stride) w[o] = x[offset + levels[l]] * inverse[l];
    });
    return constant;
  };
  /** One slot's bound parameters: the dense columns' weights, the constant, each block's per-level weights. */
  const makeSlot = () => {
    const xd = new Float64Array(d);
    const weights = blocks.map(({ levels }) => new Float64Array(levels.length));
    let constant = 0;
    const bindSlot = (x: Float64Array, offset: number, c: number): void => {
      constant = bindInto(x, offset, c, xd, weights, 0, 1);
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
    classes(K, q, intercepts) {
      // Per class its dense columns' weights and constant; the one-hot levels' weights and
      // gradient sums in class-tables.ts, level-major.
      const tables = classTables(blocks, n, K);
      const { block, sums, weights, gradients } = tables;
      const perClass = classColumns(K);
      const classDense = Array.from({ length: K }, () => new Float64Array(d));
      const constants = new Float64Array(K);
      return {
        block,
        sums,
        bind(x) {
          // As bindSlot, with class k's level weights at k, k + K, … (level-major).
          for (let k = 0; k < K; k++) constants[k] = bindInto(x, k * q, intercepts ? x[k * q + p] : 0, classDense[k], weights, k, K);
          for (const g of gradients) g.fill(0);
        },
        scores(order, start, len) {
          for (let k = 0; k < K; k++) {
            blockScores(zd, n, d, classDense[k], 0, constants[k], order, start, len, perClass.column[k]);
            perClass.put(block, k, len);
          }
          for (let b = 0; b < blocks.length; b++) tables.gather(b, order, start, len);
        },
        gradient(order, start, len, g) {
          for (let k = 0; k < K; k++) {
            sums[k] = perClass.take(block, k, len);
            gd.fill(0);
            blockGradient(zd, n, d, perClass.column[k], order, start, len, gd, 0);
            for (let a = 0; a < d; a++) g[k * q + dense[a]] += gd[a];
          }
          for (let b = 0; b < blocks.length; b++) {
            tables.scatter(b, order, start, len);
            tables.finalise(b);
          }
        },
        finish(g) {
          blocks.forEach(({ levels }, b) => {
            const sum = gradients[b];
            for (let k = 0; k < K; k++) for (let l = 0, at = k; l < levels.length; l++, at += K) g[k * q + levels[l]] += sum[at];
          });
        },
      };
    },
  };
}

/** One BLOCK-row column per class, for the per-class kernels of a row-major class block. */
interface ClassColumns {
  readonly column: Float64Array[];
  /** out[i·K + k] = column[k][i] for the block's rows. */
  put(out: Float64Array, k: number, len: number): void;
  /** column[k][i] = r[i·K + k]; returns their sum in row order. */
  take(r: Float64Array, k: number, len: number): number;
}

function classColumns(K: number): ClassColumns {
  const column = Array.from({ length: K }, () => new Float64Array(BLOCK));
  return {
    column,
    put(out, k, len) {
      const c = column[k];
      for (let i = 0, o = k; i < len; i++, o += K) out[o] = c[i];
    },
    take(r, k, len) {
      const c = column[k];
      let sum = 0;
      for (let i = 0, o = k; i < len; i++, o += K) {
        const v = r[o];
        c[i] = v;
        sum += v;
      }
      return sum;
    },
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
    classes(K, q, intercepts) {
      const perClass = classColumns(K);
      const block = new Float64Array(BLOCK * K);
      const sums = new Float64Array(K);
      let x: Float64Array = new Float64Array(0);
      return {
        block,
        sums,
        bind(bound) {
          x = bound;
        },
        scores(order, start, len) {
          for (let k = 0; k < K; k++) {
            blockScores(z, n, p, x, k * q, intercepts ? x[k * q + p] : 0, order, start, len, perClass.column[k]);
            perClass.put(block, k, len);
          }
        },
        gradient(order, start, len, g) {
          for (let k = 0; k < K; k++) {
            sums[k] = perClass.take(block, k, len);
            blockGradient(z, n, p, perClass.column[k], order, start, len, g, k * q);
          }
        },
        finish() {},
      };
    },
  };
}
