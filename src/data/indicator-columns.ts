/**
 * What the one_hot step knows about the 0/1 columns it writes: each is
 * `codes[i] === level ? 1 : 0` for a codes array shared by the block. one_hot's
 * columns are lazy: their `values` are written only when a consumer reads them, so
 * the consumers that know the codes — the linear solvers' design (numericDesign,
 * moments, the one-hot block layout, least squares) and the scores at prediction —
 * take a block of hundreds of levels at what its codes cost, and no dense n × levels
 * block is ever allocated on their path (cross-validation applied one_hot three
 * times per fold: training rows, test rows, training rows again for train metrics).
 *
 * Keyed by identity (the column object, and the values array once written, not stored
 * on the Frame): any new array (a row subset, a permutation, a scaled copy, a
 * subarray) is simply not known, and its consumer scans it as before, so a stale
 * entry cannot arise. Frame columns are never written in place.
 */
import type { NumericColumn } from "./frame.js";

/** Rows of each level, ascending, level k at rows[start[k] … start[k + 1]). */
interface LevelRows {
  readonly start: Int32Array;
  readonly rows: Int32Array;
}

interface Source {
  readonly codes: Int32Array;
  readonly level: number;
  readonly levels: number;
}

const sources = new WeakMap<Float64Array, Source>();
const lazySources = new WeakMap<NumericColumn, Source>();
const byCodes = new WeakMap<Int32Array, LevelRows>();
/** one_hot's columns whose cells a consumer has read. */
const written = new WeakSet<NumericColumn>();

/**
 * One 0/1 column per name, column k holding (codes[i] === k ? 1 : 0) in row i (codes −1
 * or out of range for a row of zeros). Each column's `values` is an own enumerable
 * getter that writes the array on first read and keeps it, so any consumer (a spread,
 * a row subset, structuredClone) sees an ordinary numeric column.
 */
export function indicatorColumns(names: readonly string[], codes: Int32Array): NumericColumn[] {
  return names.map((name, level) => {
    const source: Source = { codes, level, levels: names.length };
    let values: Float64Array | null = null;
    const column: NumericColumn = {
      type: "numeric",
      name,
      get values(): Float64Array {
        if (!values) {
          const cells = new Float64Array(codes.length);
          for (const row of rowsOf(source)) cells[row] = 1;
          sources.set(cells, source);
          written.add(column);
          values = cells;
        }
        return values;
      },
    };
    lazySources.set(column, source);
    return column;
  });
}

/** Whether a consumer has read (and so written) the cells of one of one_hot's columns: for tests and benches. */
export function indicatorWritten(column: NumericColumn): boolean {
  return !lazySources.has(column) || written.has(column);
}

/** Whether a frame column is one of one_hot's (its cells 0/1, readable from the codes). */
export function isIndicatorColumn(column: NumericColumn): boolean {
  return lazySources.has(column);
}

/**
 * A design column as the linear models read it: dense values, or one of one_hot's
 * columns, whose cells are written only by a consumer that asks for them (featureValues).
 */
export type FeatureColumn = Float64Array | NumericColumn;

/** The cells of a design column (written now if never read before). */
export function featureValues(c: FeatureColumn): Float64Array {
  return c instanceof Float64Array ? c : c.values;
}

/** Row count of a design column, without writing its cells. */
export function featureLength(c: FeatureColumn): number {
  if (c instanceof Float64Array) return c.length;
  const source = lazySources.get(c);
  return source ? source.codes.length : c.values.length;
}

/** The rows (ascending) where a 0/1 design column one_hot wrote holds 1, or null for any other column. */
export function featureRows(c: FeatureColumn): Int32Array | null {
  if (c instanceof Float64Array) return indicatorRows(c);
  const source = lazySources.get(c);
  return source ? rowsOf(source) : indicatorRows(c.values);
}

/** Whether the column is a registered 0/1 indicator (so holds no NaN). */
export function isRegisteredIndicator(values: Float64Array): boolean {
  return sources.has(values);
}

/** The rows (ascending) where a registered indicator column holds 1, or null for any other column. */
export function indicatorRows(values: Float64Array): Int32Array | null {
  const source = sources.get(values);
  return source ? rowsOf(source) : null;
}

function rowsOf(source: Source): Int32Array {
  const { start, rows } = levelRows(source);
  return rows.subarray(start[source.level], start[source.level + 1]);
}

/** One counting sort of the block's codes, shared by its levels. */
function levelRows({ codes, levels }: Source): LevelRows {
  const known = byCodes.get(codes);
  if (known) return known;
  const start = new Int32Array(levels + 1);
  for (let i = 0; i < codes.length; i++) {
    const k = codes[i];
    if (k >= 0 && k < levels) start[k + 1]++;
  }
  for (let k = 0; k < levels; k++) start[k + 1] += start[k];
  const next = start.slice(0, levels);
  const rows = new Int32Array(start[levels]);
  for (let i = 0; i < codes.length; i++) {
    const k = codes[i];
    if (k >= 0 && k < levels) rows[next[k]++] = i;
  }
  const made = { start, rows };
  byCodes.set(codes, made);
  return made;
}
