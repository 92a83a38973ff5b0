/**
 * Per-column summary of a dataset (API.md Dataset.columns[]). Statistics skip
 * missing cells; std uses n − 1 as pandas' describe() does. A statistic that is
 * undefined (no values; std of a single value) is null, never NaN, so the object
 * is JSON as it stands.
 */
import { MISSING_CODE, type Column, type ColumnType } from "./frame.js";

export interface NumericSummary {
  min: number | null;
  max: number | null;
  mean: number | null;
  std: number | null;
}

export interface ColumnSummary {
  name: string;
  type: ColumnType;
  missing_count: number;
  levels?: string[];
  summary?: NumericSummary;
}

export function summarizeColumn(col: Column): ColumnSummary {
  if (col.type === "categorical") {
    let missing = 0;
    for (const code of col.codes) if (code === MISSING_CODE) missing++;
    return { name: col.name, type: "categorical", missing_count: missing, levels: [...col.levels] };
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
