/**
 * Principal component analysis (seed 002 "特征映射"; scikit-learn's PCA) as a step:
 * replace the chosen numeric columns by their projections pc1 … pcd on the leading
 * principal components. The math (covariance, EVD, svd_flip signs) is
 * src/models/projection/pca-core.ts, shared with the `pca` algorithm.
 * `n_components` (how many) and `explained_variance` (the smallest number whose
 * cumulative explained-variance ratio exceeds this share) are two separate options;
 * with neither, every component is kept. `whiten` divides each projection by the
 * square root of its variance. A missing cell at apply time counts as the
 * training mean of its column.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
import { componentCount, fitPrincipalComponents, project, whitenOutputs } from "../../models/projection/pca-core.js";
import { columnCountParam } from "../../models/limits.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, numericInputsOf, outputNames, planReplace, replaceInputs } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "pca";

export const pcaSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    /** How many components to keep. */
    n_components: columnCountParam("How many components to keep.", "the columns or rows"),
    /** Keep the fewest components whose explained-variance ratios add up to more than this. */
    explained_variance: z.number().gt(0).lt(1).nullable().default(null),
    whiten: z.boolean().default(false),
    /** Output columns are <prefix>1, <prefix>2, … */
    prefix: z.string().min(1).default("pc"),
  })
  .strict()
  .refine((s) => s.n_components === null || s.explained_variance === null, {
    message: "give n_components (how many components) or explained_variance (what share of the variance), not both",
    path: ["explained_variance"],
  });

export const pcaFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    mean: f64,
    /** d × p row-major: component k is row k. */
    components: f64,
    explained_variance: f64,
    explained_variance_ratio: f64,
    whiten: z.boolean(),
  })
  .strict()
  .refine((f) => f.mean.length === f.columns.length && f.components.length === f.names.length * f.columns.length && f.explained_variance.length === f.names.length, {
    message: "component shapes do not match the columns",
  });

export type PcaSpec = z.infer<typeof pcaSpec>;
export type PcaFitted = z.infer<typeof pcaFitted>;

export const pcaStep: TypedStep<PcaSpec, PcaFitted> = {
  name: STEP,
  description: "Principal component analysis: project numeric columns onto their leading principal components (by count or by explained-variance share), optionally whitened.",
  spec: pcaSpec,
  fitted: pcaFitted,

  fit(frame, spec) {
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const n = frame.rowCount;
    if (n < 2) throw new DataError(`${STEP}: needs at least two training rows`, "columns");
    const pcs = fitPrincipalComponents(columns, n, (ratios, available) => {
      if (spec.n_components !== null && spec.n_components > available) {
        throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${available} (the smaller of rows and columns)`, "n_components");
      }
      return componentCount(spec.n_components, spec.explained_variance, ratios, available);
    });
    const names = outputNames(
      spec.prefix,
      pcs.explainedVariance.length,
      frame.columns.map((c) => c.name),
      inputs,
      STEP,
    );
    return {
      columns: inputs,
      names,
      mean: pcs.mean,
      components: pcs.components,
      explained_variance: pcs.explainedVariance,
      explained_variance_ratio: pcs.explainedVarianceRatio,
      whiten: spec.whiten,
    };
  },

  apply(fitted, frame) {
    const inputs = numericInputsOf(frame, fitted.columns, STEP);
    const n = frame.rowCount;
    const d = fitted.names.length;
    const outputs = Array.from({ length: d }, () => new Float64Array(n));
    project(inputs, fitted.mean, fitted.components, d, n, outputs);
    if (fitted.whiten) whitenOutputs(outputs, fitted.explained_variance);
    return replaceInputs(frame, fitted.columns, fitted.names, outputs);
  },

  describe(fitted) {
    const p = fitted.columns.length;
    return {
      input_columns: [...fitted.columns],
      output_columns: [...fitted.names],
      explained_variance: byColumn(fitted.names, fitted.explained_variance),
      explained_variance_ratio: byColumn(fitted.names, fitted.explained_variance_ratio),
      mean: byColumn(fitted.columns, fitted.mean),
      components: Object.fromEntries(fitted.names.map((name, k) => [name, byColumn(fitted.columns, fitted.components.subarray(k * p, (k + 1) * p))])),
      whiten: fitted.whiten,
    };
  },

  plan(spec, columns) {
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name);
    if (spec.n_components !== null && spec.n_components > chosen.length) {
      throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${chosen.length} numeric columns`, "n_components");
    }
    if (spec.n_components === null || chosen.length === 0) return null;
    const names = Array.from({ length: spec.n_components }, (_, k) => `${spec.prefix}${k + 1}`);
    return planReplace(columns, chosen, names);
  },
};
