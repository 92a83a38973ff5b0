/**
 * What the one_hot step knows about the 0/1 columns it writes: each is
 * `codes[i] === level ? 1 : 0` for a codes array shared by the block. Kept beside
 * the columns (keyed by the values array itself, not stored on the Frame) so a
 * consumer that scans a design — the NaN check, moments, the one-hot block layout
 * of the linear solvers, the scores at prediction — can read a level's rows from
 * the codes in O(n + levels) per block instead of scanning n cells per level.
 *
 * Keyed by array identity: any new array (a row subset, a permutation, a scaled
 * copy, a subarray) is simply not known, and its consumer scans it as before, so a
 * stale entry cannot arise. Frame columns are never written in place.
 */

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
const byCodes = new WeakMap<Int32Array, LevelRows>();

/**
 * Records that outputs[k][i] = (codes[i] === k ? 1 : 0) for every row (codes −1 or
 * out of range for a row of zeros). The caller has written the outputs so.
 */
export function registerIndicators(codes: Int32Array, outputs: readonly Float64Array[]): void {
  outputs.forEach((values, level) => sources.set(values, { codes, level, levels: outputs.length }));
}

/** Whether the column is a registered 0/1 indicator (so holds no NaN). */
export function isRegisteredIndicator(values: Float64Array): boolean {
  return sources.has(values);
}

/** The rows (ascending) where a registered indicator column holds 1, or null for any other column. */
export function indicatorRows(values: Float64Array): Int32Array | null {
  const source = sources.get(values);
  if (!source) return null;
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
