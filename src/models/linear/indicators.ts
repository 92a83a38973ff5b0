/**
 * One-hot blocks found in a numeric design: runs of adjacent 0/1 columns with at
 * most one 1 per row (what the one_hot step produces for one categorical column,
 * a missing or unseen level being a row of zeros). Such a block is kept as the
 * per-row index of its 1 — one number per row instead of one per row and level —
 * so the solvers spend what its non-zeros cost: a 550-level column costs one
 * column's arithmetic, not 550. Every other column stays dense. The layout is a
 * property of the data, not of how it was produced, so a user's own indicator
 * columns are read the same way and give the same model.
 */

import { featureLength, featureRows, featureValues, type FeatureColumn } from "../../data/indicator-columns.js";

export interface IndicatorGroup {
  /** The design columns of the block, in design order: level k is design column columns[k]. */
  readonly columns: Int32Array;
  /** Per row, the level whose column holds its 1, or −1 for a row of zeros. */
  readonly codes: Int32Array;
}

export interface Layout {
  /** Design columns kept dense, ascending. */
  readonly dense: Int32Array;
  readonly groups: readonly IndicatorGroup[];
}

/** Blocks narrower than this stay dense: a dense column or two costs no more than the gather. */
export const MIN_GROUP_COLUMNS = 3;

/**
 * Rows holding a 1 in c, ascending, or null when c is not a 0/1 column. A column
 * one_hot wrote is read from its block's codes (data/indicator-columns.ts); any
 * other is scanned once into `scratch`. Either way the overlap test and the codes
 * then cost only the column's non-zeros.
 */
function onesOf(column: FeatureColumn, n: number, scratch: Int32Array): Int32Array | null {
  const known = featureLength(column) === n ? featureRows(column) : null;
  if (known) return known;
  const c = featureValues(column);
  let m = 0;
  for (let i = 0; i < n; i++) {
    const v = c[i];
    if (v === 1) scratch[m++] = i;
    else if (v !== 0) return null;
  }
  return scratch.subarray(0, m);
}

export function indicatorLayout(columns: readonly FeatureColumn[], n: number, minColumns = MIN_GROUP_COLUMNS): Layout {
  const dense: number[] = [];
  const groups: IndicatorGroup[] = [];
  let members: number[] = [];
  let codes = new Int32Array(n).fill(-1);
  const close = (): void => {
    if (members.length >= minColumns) {
      groups.push({ columns: Int32Array.from(members), codes });
      codes = new Int32Array(n).fill(-1);
    } else {
      dense.push(...members);
      codes.fill(-1);
    }
    members = [];
  };
  const scratch = new Int32Array(n);
  columns.forEach((c, j) => {
    const rows = onesOf(c, n, scratch);
    if (!rows) {
      close();
      dense.push(j);
      return;
    }
    let overlaps = false;
    for (let t = 0; t < rows.length && !overlaps; t++) overlaps = codes[rows[t]] >= 0;
    if (overlaps) close();
    const k = members.length;
    for (let t = 0; t < rows.length; t++) codes[rows[t]] = k;
    members.push(j);
  });
  close();
  return { dense: Int32Array.from(dense.sort((a, b) => a - b)), groups };
}
