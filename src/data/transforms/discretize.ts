/**
 * Bin edges as scikit-learn's KBinsDiscretizer computes them: `uniform` — equal
 * width between the training minimum and maximum; `quantile` — equal frequency,
 * edges at NumPy percentiles, then edges closer than 1e-8 to the previous one
 * dropped (fewer bins). A constant column has the single bin (−∞, ∞).
 * A value's bin is the number of interior edges at or below it.
 */
import { quantileSorted, sortedPresent } from "../quantile.js";

export type BinStrategy = "uniform" | "quantile";

/** NumPy's linspace(start, stop, count). */
function linspace(start: number, stop: number, count: number): Float64Array<ArrayBuffer> {
  const out = new Float64Array(count);
  const step = (stop - start) / (count - 1);
  for (let i = 0; i < count; i++) out[i] = i * step + start;
  out[count - 1] = stop;
  return out;
}

export function binEdges(values: Float64Array, bins: number, strategy: BinStrategy): Float64Array<ArrayBuffer> {
  const sorted = sortedPresent(values);
  if (sorted.length === 0 || sorted[0] === sorted[sorted.length - 1]) return Float64Array.of(-Infinity, Infinity);
  if (strategy === "uniform") return linspace(sorted[0], sorted[sorted.length - 1], bins + 1);
  const edges = Float64Array.from(linspace(0, 100, bins + 1), (p) => quantileSorted(sorted, p / 100));
  const kept: number[] = [edges[0]];
  for (let i = 1; i < edges.length; i++) if (edges[i] - edges[i - 1] > 1e-8) kept.push(edges[i]);
  return Float64Array.from(kept);
}

/** Bin index of x (NaN stays NaN): searchsorted(edges[1:-1], x, side="right"). */
export function binOf(edges: Float64Array, x: number): number {
  if (Number.isNaN(x)) return NaN;
  let lo = 1;
  let hi = edges.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (edges[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo - 1;
}
