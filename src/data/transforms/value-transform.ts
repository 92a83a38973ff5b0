/**
 * The `transform` step (seed 001 §2.5, 数据变换): a function applied to each
 * numeric column in place.
 *
 * - `log`, `log1p`, `sqrt`: fixed functions; the training rows must lie in the
 *   domain (a DataError otherwise); a later value outside it becomes missing.
 * - `box_cox` (strictly positive data) and `yeo_johnson` (any sign): λ per column
 *   by maximum likelihood, then (standardize, default true) a z-score of the
 *   result — scikit-learn's PowerTransformer. A later non-positive value given to
 *   box_cox becomes missing.
 * - `discretize`: bin index 0 … n_bins − 1, bins of equal width (`uniform`) or
 *   equal frequency (`quantile`) — scikit-learn's KBinsDiscretizer with
 *   encode="ordinal".
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import type { Column } from "../frame.js";
import { sortedPresent } from "../quantile.js";
import { binEdges, binOf } from "./discretize.js";
import { boxCox, boxCoxLambda, yeoJohnson, yeoJohnsonLambda } from "./power.js";
import { f64 } from "./schemas.js";
import { byColumn, expectNumeric, pickColumns, replaceColumns, targetColumns, type PlannedColumn, type Transform } from "./transform.js";

const STEP = "transform";

const METHODS = ["log", "log1p", "sqrt", "box_cox", "yeo_johnson", "discretize"] as const;
type Method = (typeof METHODS)[number];

export const valueTransformSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    method: z.enum(METHODS).default("yeo_johnson"),
    /** box_cox / yeo_johnson: z-score the transformed values (PowerTransformer's standardize). */
    standardize: z.boolean().default(true),
    /** discretize: how many bins (quantile may end with fewer, when edges coincide). */
    n_bins: z
      .number()
      .int()
      .min(2)
      .max(10_000)
      .default(5)
      .describe("discretize: how many bins (quantile may end with fewer, when edges coincide). At most 10,000: each column keeps its bin edges, and more bins than that is no longer a discretisation."),
    strategy: z.enum(["uniform", "quantile"]).default("quantile"),
  })
  .strict();

const fixedFitted = z.object({ method: z.enum(["log", "log1p", "sqrt"]), columns: z.array(z.string()) }).strict();
const powerFitted = z
  .object({
    method: z.enum(["box_cox", "yeo_johnson"]),
    columns: z.array(z.string()),
    lambdas: f64,
    /** z-score after the transform; empty arrays when standardize is off. */
    mean: f64,
    scale: f64,
  })
  .strict();
const discretizeFitted = z.object({ method: z.literal("discretize"), columns: z.array(z.string()), edges: z.array(f64) }).strict();

export const valueTransformFitted = z.union([fixedFitted, powerFitted, discretizeFitted]);

export type ValueTransformSpec = z.infer<typeof valueTransformSpec>;
export type ValueTransformFitted = z.infer<typeof valueTransformFitted>;

/** Where each fixed function is defined; the message says it to the person who sent the data. */
const DOMAIN: Partial<Record<Method, { accepts: (x: number) => boolean; needs: string }>> = {
  log: { accepts: (x) => x > 0, needs: "positive values" },
  log1p: { accepts: (x) => x > -1, needs: "values above −1" },
  sqrt: { accepts: (x) => x >= 0, needs: "non-negative values" },
  box_cox: { accepts: (x) => x > 0, needs: "strictly positive values (yeo_johnson takes any sign)" },
};

const FIXED: Record<"log" | "log1p" | "sqrt", (x: number) => number> = { log: Math.log, log1p: Math.log1p, sqrt: Math.sqrt };

function columnPath(spec: ValueTransformSpec, index: number): string {
  return spec.columns ? `columns[${index}]` : "method";
}

function checkDomain(spec: ValueTransformSpec, name: string, index: number, min: number): void {
  const domain = DOMAIN[spec.method];
  if (domain && !Number.isNaN(min) && !domain.accepts(min)) {
    throw new DataError(`${STEP}: ${spec.method} needs ${domain.needs}, and column "${name}" has ${min}`, columnPath(spec, index));
  }
}

function standardization(values: Float64Array): { mean: number; scale: number } {
  const sorted = sortedPresent(values);
  const n = sorted.length;
  if (n === 0) return { mean: 0, scale: 1 };
  let sum = 0;
  for (const v of sorted) sum += v;
  const mean = sum / n;
  let squares = 0;
  for (const v of sorted) squares += (v - mean) ** 2;
  const variance = squares / n;
  const eps = 2 ** -52;
  return { mean, scale: variance <= n * eps * variance + (n * mean * eps) ** 2 ? 1 : Math.sqrt(variance) };
}

function mapValues(x: Float64Array, f: (v: number) => number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) out[i] = f(x[i]);
  return out;
}

export const valueTransform: Transform<ValueTransformSpec, ValueTransformFitted> = {
  name: STEP,
  description: "Transform numeric columns: log, log1p, sqrt, box_cox or yeo_johnson (λ by maximum likelihood), or discretize into bins.",
  spec: valueTransformSpec,
  fitted: valueTransformFitted,

  fit(frame, spec) {
    const columns = targetColumns(frame, spec.columns, ["numeric"], STEP).map((c) => ({ name: c.name, values: c.type === "numeric" ? c.values : new Float64Array(0) }));
    const names = columns.map((c) => c.name);
    columns.forEach((c, j) => {
      let min = Infinity;
      for (const v of c.values) if (v < min) min = v;
      if (min !== Infinity) checkDomain(spec, c.name, j, min);
    });
    switch (spec.method) {
      case "log":
      case "log1p":
      case "sqrt":
        return { method: spec.method, columns: names };
      case "discretize":
        return { method: "discretize", columns: names, edges: columns.map((c) => binEdges(c.values, spec.n_bins, spec.strategy)) };
      case "box_cox":
      case "yeo_johnson": {
        const method = spec.method;
        const lambdas = Float64Array.from(columns, (c) => {
          const present = sortedPresent(c.values);
          if (present.length < 2) return 1;
          return method === "box_cox" ? boxCoxLambda(present) : yeoJohnsonLambda(present);
        });
        const mean = new Float64Array(spec.standardize ? names.length : 0);
        const scale = new Float64Array(spec.standardize ? names.length : 0);
        if (spec.standardize) {
          columns.forEach((c, j) => {
            const s = standardization(mapValues(c.values, (v) => powerOf(method, v, lambdas[j])));
            mean[j] = s.mean;
            scale[j] = s.scale;
          });
        }
        return { method, columns: names, lambdas, mean, scale };
      }
    }
  },

  apply(fitted, frame) {
    const replacements = new Map<string, Column[]>();
    fitted.columns.forEach((name, j) => {
      const x = expectNumeric(frame, name, STEP);
      let values: Float64Array;
      if (fitted.method === "discretize") {
        const edges = fitted.edges[j];
        values = mapValues(x, (v) => binOf(edges, v));
      } else if (fitted.method === "box_cox" || fitted.method === "yeo_johnson") {
        const { method } = fitted;
        const lambda = fitted.lambdas[j];
        const standardize = fitted.mean.length > 0;
        const mean = standardize ? fitted.mean[j] : 0;
        const scale = standardize ? fitted.scale[j] : 1;
        values = mapValues(x, (v) => (powerOf(method, v, lambda) - mean) / scale);
      } else {
        const f = FIXED[fitted.method];
        const domain = DOMAIN[fitted.method]!;
        values = mapValues(x, (v) => (domain.accepts(v) ? f(v) : NaN));
      }
      replacements.set(name, [{ type: "numeric", name, values }]);
    });
    return replaceColumns(frame, replacements);
  },

  describe(fitted) {
    const names = fitted.columns;
    if (fitted.method === "discretize") {
      return { method: "discretize", bin_edges: Object.fromEntries(names.map((name, j) => [name, Array.from(fitted.edges[j], (e) => (Number.isFinite(e) ? e : null))])) };
    }
    if (fitted.method === "box_cox" || fitted.method === "yeo_johnson") {
      return {
        method: fitted.method,
        lambdas: byColumn(names, fitted.lambdas),
        ...(fitted.mean.length ? { mean: byColumn(names, fitted.mean), scale: byColumn(names, fitted.scale) } : {}),
      };
    }
    return { method: fitted.method, columns: [...names] };
  },

  plan(spec, columns) {
    pickColumns(columns, spec.columns, ["numeric"], STEP).forEach((c, j) => {
      if (typeof c.min === "number") checkDomain(spec, c.name, j, c.min);
    });
    return columns.map((c): PlannedColumn => (c.type === "numeric" ? { name: c.name, type: "numeric", missing: c.missing } : c));
  },
};

function powerOf(method: "box_cox" | "yeo_johnson", v: number, lambda: number): number {
  if (Number.isNaN(v)) return NaN;
  if (method === "yeo_johnson") return yeoJohnson(v, lambda);
  return v > 0 ? boxCox(v, lambda) : NaN;
}
