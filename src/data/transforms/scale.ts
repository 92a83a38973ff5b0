/**
 * Rescales numeric columns in place, as scikit-learn's four scalers do:
 * `standard` (z-score: StandardScaler), `minmax` (to feature_range: MinMaxScaler),
 * `robust` (median and inter-quantile range: RobustScaler), `maxabs` (divide by the
 * largest |x|: MaxAbsScaler). Each becomes y = (x − center) / scale + low.
 *
 * Statistics come from the present values of the training rows; a missing cell
 * stays missing. A constant column gets scale 1 (scikit-learn's rule), so it is
 * centred but never divided by zero.
 */
import { z } from "zod";
import { percentileSorted, sortedPresent } from "../quantile.js";
import { f64 } from "./schemas.js";
import { byColumn, expectNumeric, pickColumns, replaceColumns, targetColumns, type Transform } from "./transform.js";
import type { Column } from "../frame.js";

const STEP = "scale";
const EPS = 2 ** -52;

const range = (lo: number, hi: number) =>
  z
    .tuple([z.number(), z.number()])
    .default([lo, hi])
    .refine(([a, b]) => a < b, { message: "the first bound must be below the second" });

export const scaleSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    method: z.enum(["standard", "minmax", "robust", "maxabs"]).default("standard"),
    /** standard: subtract the mean / divide by the standard deviation. */
    with_mean: z.boolean().default(true),
    with_std: z.boolean().default(true),
    /** minmax: the output range, and whether later values outside the training range are clipped to it. */
    feature_range: range(0, 1),
    clip: z.boolean().default(false),
    /** robust: subtract the median / divide by the spread between these percentiles. */
    with_centering: z.boolean().default(true),
    with_scaling: z.boolean().default(true),
    quantile_range: range(25, 75).refine(([a, b]) => a >= 0 && b <= 100, { message: "percentiles lie in [0, 100]" }),
  })
  .strict();

export const scaleFitted = z
  .object({
    method: z.enum(["standard", "minmax", "robust", "maxabs"]),
    columns: z.array(z.string()),
    center: f64,
    scale: f64,
    /** Added after scaling: the lower end of minmax's feature_range, 0 otherwise. */
    low: z.number(),
    /** minmax: the upper end of feature_range; null otherwise. */
    high: z.number().nullable(),
    clip: z.boolean(),
  })
  .strict()
  .refine((f) => f.center.length === f.columns.length && f.scale.length === f.columns.length, { message: "one center and one scale per column" });

export type ScaleSpec = z.infer<typeof scaleSpec>;
export type ScaleFitted = z.infer<typeof scaleFitted>;

interface Statistics {
  center: number;
  scale: number;
}

const STATISTICS: Record<ScaleSpec["method"], (values: Float64Array, spec: ScaleSpec) => Statistics> = {
  standard(values, spec) {
    let n = 0;
    let sum = 0;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      n++;
      sum += v;
    }
    if (n === 0) return { center: 0, scale: 1 };
    const mean = sum / n;
    let squares = 0;
    let correction = 0;
    for (const v of values) {
      if (Number.isNaN(v)) continue;
      const d = v - mean;
      squares += d * d;
      correction += d;
    }
    const variance = (squares - (correction * correction) / n) / n;
    // scikit-learn's _is_constant_feature: a variance at rounding-noise level means a constant column.
    const constant = variance <= n * EPS * variance + (n * mean * EPS) ** 2;
    return { center: spec.with_mean ? mean : 0, scale: spec.with_std && !constant ? Math.sqrt(variance) : 1 };
  },
  minmax(values, spec) {
    let min = Infinity;
    let max = -Infinity;
    for (const v of values) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (min > max) return { center: 0, scale: 1 };
    const [a, b] = spec.feature_range;
    const width = max - min;
    return { center: min, scale: (width < 10 * EPS ? 1 : width) / (b - a) };
  },
  robust(values, spec) {
    const sorted = sortedPresent(values);
    if (sorted.length === 0) return { center: 0, scale: 1 };
    const m = sorted.length >> 1;
    const median = sorted.length % 2 === 1 ? sorted[m] : (sorted[m - 1] + sorted[m]) / 2;
    const spread = percentileSorted(sorted, spec.quantile_range[1]) - percentileSorted(sorted, spec.quantile_range[0]);
    return { center: spec.with_centering ? median : 0, scale: spec.with_scaling && spread >= 10 * EPS ? spread : 1 };
  },
  maxabs(values) {
    let max = 0;
    for (const v of values) if (Math.abs(v) > max) max = Math.abs(v);
    return { center: 0, scale: max === 0 ? 1 : max };
  },
};

export const scale: Transform<ScaleSpec, ScaleFitted> = {
  name: STEP,
  description: "Rescale numeric columns: standard (z-score), minmax (to a range), robust (median and inter-quartile range) or maxabs.",
  spec: scaleSpec,
  fitted: scaleFitted,

  fit(frame, spec) {
    const columns = targetColumns(frame, spec.columns, ["numeric"], STEP);
    const stats = columns.map((c) => STATISTICS[spec.method](c.type === "numeric" ? c.values : new Float64Array(0), spec));
    const minmax = spec.method === "minmax";
    return {
      method: spec.method,
      columns: columns.map((c) => c.name),
      center: Float64Array.from(stats, (s) => s.center),
      scale: Float64Array.from(stats, (s) => s.scale),
      low: minmax ? spec.feature_range[0] : 0,
      high: minmax ? spec.feature_range[1] : null,
      clip: minmax && spec.clip,
    };
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    const { low, high } = fitted;
    fitted.columns.forEach((name, j) => {
      const x = expectNumeric(frame, name, STEP);
      const center = fitted.center[j];
      const s = fitted.scale[j];
      const values = new Float64Array(x.length);
      for (let i = 0; i < x.length; i++) values[i] = (x[i] - center) / s + low;
      if (fitted.clip && high !== null) for (let i = 0; i < x.length; i++) values[i] = Math.min(high, Math.max(low, values[i]));
      replacements.set(name, [{ type: "numeric", name, values }]);
    });
    return replaceColumns(frame, replacements);
  },

  describe(fitted) {
    const names = fitted.columns;
    const center = byColumn(names, fitted.center);
    const scaleOf = byColumn(names, fitted.scale);
    switch (fitted.method) {
      case "standard":
        return { method: "standard", mean: center, scale: scaleOf };
      case "minmax":
        return { method: "minmax", data_min: center, scale: scaleOf, feature_range: [fitted.low, fitted.high] };
      case "robust":
        return { method: "robust", center, scale: scaleOf };
      case "maxabs":
        return { method: "maxabs", max_abs: scaleOf };
    }
  },

  plan(spec, columns) {
    pickColumns(columns, spec.columns, ["numeric"], STEP);
    return [...columns];
  },
};
