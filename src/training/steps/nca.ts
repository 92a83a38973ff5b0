/**
 * `nca`: Neighbourhood Components Analysis as a preprocessing step (seed 002's
 * "learn the metric, then use the neighbours"): the chosen numeric columns are
 * replaced by nca1 … ncac = A(x − x̄), with A fitted on the training rows by
 * models/neighbors/nca.ts. So `[{ step: "scale" }, { step: "nca" }]` + `knn` is
 * kNN in the learned metric; the explicit scale step in front also stops the
 * pipeline from standardising NCA's outputs (which would undo the metric), as
 * any request-level `scale` step does.
 *
 * Fitting holds an n × n matrix: the rows are bounded by `max_rows` (a larger
 * training set is refused, not subsampled).
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { fitNcaMap, ncaOptionsShape } from "../../models/projection/nca-projection.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, outputNames } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";
import { applyLearnedMap, mapComponents, planLearnedMap } from "./learned-map.js";
import { groupDigits } from "../../data/group-digits.js";

const STEP = "nca";

export const ncaSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    ...ncaOptionsShape,
    prefix: z.string().min(1).default("nca"),
  })
  .strict();

export const ncaFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    mean: f64,
    /** c × d row-major. */
    components: f64,
    iterations: z.number().int(),
    converged: z.boolean(),
    score: z.number(),
  })
  .strict()
  .refine((f) => f.mean.length === f.columns.length && f.components.length === f.columns.length * f.names.length && f.components.every(Number.isFinite), {
    message: "components do not match the columns",
  });

export type NcaSpec = z.infer<typeof ncaSpec>;
export type NcaFitted = z.infer<typeof ncaFitted>;

export const ncaStep: TypedStep<NcaSpec, NcaFitted> = {
  name: STEP,
  description: "Neighbourhood Components Analysis (supervised metric learning): numeric columns onto the linear map that maximises a stochastic nearest neighbour's leave-one-out accuracy (L-BFGS).",
  spec: ncaSpec,
  fitted: ncaFitted,

  fit(frame, spec, ctx) {
    if (ctx.target?.task !== "classification") throw new DataError(`${STEP} needs a categorical target (classes)`, "step");
    const n = frame.rowCount;
    if (n > spec.max_rows) throw new DataError(`${STEP}: ${groupDigits(n)} training rows, above max_rows ${groupDigits(spec.max_rows)} (each evaluation holds rows² numbers)`, "max_rows");
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const d = inputs.length;
    const c = spec.n_components ?? d;
    if (c > d) throw new DataError(`${STEP}: n_components = ${c}, and there are only ${d} numeric columns`, "n_components");
    const map = fitNcaMap(columns, n, ctx.target.y, c, { ...spec, signal: ctx.signal });
    const names = outputNames(
      spec.prefix,
      c,
      frame.columns.map((col) => col.name),
      inputs,
      STEP,
    );
    return { columns: inputs, names, mean: map.mean, components: map.components, iterations: map.iterations, converged: map.converged, score: map.score };
  },

  apply(fitted, frame) {
    return applyLearnedMap(fitted, frame, STEP);
  },

  describe(fitted) {
    return {
      input_columns: [...fitted.columns],
      output_columns: [...fitted.names],
      iterations: fitted.iterations,
      converged: fitted.converged,
      expected_loo_accuracy: fitted.score,
      components: mapComponents(fitted),
    };
  },

  plan(spec, columns, target) {
    return planLearnedMap(spec, columns, target, STEP);
  },
};
