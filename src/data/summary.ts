/**
 * Per-column summary of a dataset (API.md Dataset.columns[]). Statistics skip
 * missing cells; std uses n − 1 as pandas' describe() does. A statistic that is
 * undefined (no values; std of a single value) is null, never NaN, so the object
 * is JSON as it stands.
 *
 * A categorical column whose distinct values number at least IDENTIFIER_SHARE of its
 * present cells, over at least IDENTIFIER_MIN_ROWS present cells, gets
 * `role_hint: "identifier"` (a name, a code, a title: one value per row). Training
 * leaves such a column out of the default features (a model can only memorise it),
 * with a warning. 0.95 and not 1: real identifier columns repeat a little (3,176
 * distinct titles among 3,200 films in vega-datasets' movies), while a genuine
 * feature with that many levels per row cannot generalise either way. The row floor
 * keeps tiny tables (five rows, five colours) from being all identifiers.
 */
import { MISSING_CODE, type Column, type ColumnType } from "./frame.js";

export interface NumericSummary {
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
}

export const IDENTIFIER_SHARE = 0.95;
export const IDENTIFIER_MIN_ROWS = 20;

export type RoleHint = "identifier";

export interface ColumnSummary {
  name: string;
  type: ColumnType;
  missing_count: number;
  levels?: string[];
  summary?: NumericSummary;
  /** Absent: no hint (also on every summary stored before hints existed). */
  role_hint?: RoleHint;
}

export function looksLikeIdentifier(distinct: number, present: number): boolean {
  return present >= IDENTIFIER_MIN_ROWS && distinct >= IDENTIFIER_SHARE * present;
}

export function summarizeColumn(col: Column): ColumnSummary {
  if (col.type === "categorical") {
    let missing = 0;
    // Levels present in the cells (a level list may name more than the rows use).
    const seen = new Uint8Array(col.levels.length);
    let distinct = 0;
    for (const code of col.codes) {
      if (code === MISSING_CODE) missing++;
      else if (seen[code] === 0) {
        seen[code] = 1;
        distinct++;
      }
    }
    const identifier = looksLikeIdentifier(distinct, col.codes.length - missing);
    return { name: col.name, type: "categorical", missing_count: missing, levels: [...col.levels], ...(identifier ? { role_hint: "identifier" as const } : {}) };
  }
  const v = col.values;
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x !== x) continue;
    count++;
    sum += x;
    if (x < min) min = x;
    if (x > max) max = x;
  }
  const missing = v.length - count;
  if (count === 0) return { name: col.name, type: "numeric", missing_count: missing, summary: { min: null, max: null, mean: null, std: null } };
  const mean = Number.isFinite(sum) ? sum / count : scaledMean(v, count);
  // Second pass on deviations: the one-pass sum-of-squares formula loses digits when |mean| ≫ std.
  let squares = 0;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (x === x) squares += (x - mean) * (x - mean);
  }
  const std = count > 1 && Number.isFinite(squares) ? Math.sqrt(squares / (count - 1)) : null;
  return { name: col.name, type: "numeric", missing_count: missing, summary: { min, max, mean, std } };
}

/** The mean when the plain sum overflows (values near ±1.8e308). */
function scaledMean(v: Float64Array, count: number): number {
  let mean = 0;
  for (let i = 0; i < v.length; i++) if (v[i] === v[i]) mean += v[i] / count;
  return mean;
}
