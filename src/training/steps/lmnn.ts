/**
 * `lmnn`: Large Margin Nearest Neighbour as a preprocessing step (seed 002's
 * "learn the metric, then use the neighbours"), the twin of the `nca` step: the
 * chosen numeric columns are replaced by lmnn1 … lmnnc = L(x − x̄), with L fitted on
 * the training rows by models/neighbors/lmnn.ts. Target neighbours are found in the
 * input space, so scale first: `[{ step: "scale" }, { step: "lmnn" }]` + `knn`; the
 * explicit scale step in front also stops the pipeline from standardising LMNN's
 * outputs (which would undo the metric), as any request-level `scale` step does.
 *
 * Each evaluation is O(rows² × (n_components + n_neighbors)) time (no n × n matrix
 * is held): the rows are bounded by `max_rows` (a larger training set is refused,
 * not subsampled).
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { fitLmnnMap, lmnnOptionsShape } from "../../models/projection/lmnn-projection.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, outputNames } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";
import { applyLearnedMap, mapComponents, planLearnedMap } from "./learned-map.js";
import { groupDigits } from "../../data/group-digits.js";

const STEP = "lmnn";

export const lmnnSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    ...lmnnOptionsShape,
    prefix: z.string().min(1).default("lmnn"),
  })
  .strict();

export const lmnnFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    mean: f64,
    /** c × d row-major. */
    components: f64,
    iterations: z.number().int(),
    converged: z.boolean(),
    loss: z.number(),
    impostors: z.number().int().min(0),
  })
  .strict()
  .refine((f) => f.mean.length === f.columns.length && f.components.length === f.columns.length * f.names.length && f.components.every(Number.isFinite), {
    message: "components do not match the columns",
  });

export type LmnnSpec = z.infer<typeof lmnnSpec>;
export type LmnnFitted = z.infer<typeof lmnnFitted>;

export const lmnnStep: TypedStep<LmnnSpec, LmnnFitted> = {
  name: STEP,
  description: "Large Margin Nearest Neighbour (supervised metric learning): numeric columns onto the linear map that pulls each row's same-class target neighbours close and pushes other classes a margin beyond them (L-BFGS).",
  spec: lmnnSpec,
  fitted: lmnnFitted,

  fit(frame, spec, ctx) {
    if (ctx.target?.task !== "classification") throw new DataError(`${STEP} needs a categorical target (classes)`, "step");
    const n = frame.rowCount;
    if (n > spec.max_rows) throw new DataError(`${STEP}: ${groupDigits(n)} training rows, above max_rows ${groupDigits(spec.max_rows)} (each evaluation compares every pair of rows)`, "max_rows");
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const d = inputs.length;
    const c = spec.n_components ?? d;
    if (c > d) throw new DataError(`${STEP}: n_components = ${c}, and there are only ${d} numeric columns`, "n_components");
    const map = fitLmnnMap(columns, n, ctx.target.y, c, { ...spec, signal: ctx.signal });
    const names = outputNames(
      spec.prefix,
      c,
      frame.columns.map((col) => col.name),
      inputs,
      STEP,
    );
    return { columns: inputs, names, mean: map.mean, components: map.components, iterations: map.iterations, converged: map.converged, loss: map.loss, impostors: map.impostors };
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
      loss: fitted.loss,
      active_impostor_triples: fitted.impostors,
      components: mapComponents(fitted),
    };
  },

  plan(spec, columns, target) {
    return planLearnedMap(spec, columns, target, STEP);
  },
};
