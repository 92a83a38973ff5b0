/**
 * Supervised projection onto the linear discriminant directions (seed 004,
 * watermelon book §3.4): at most K − 1 components for K classes. The fit is the
 * linear family's LDA (models/linear/lda.ts, scikit-learn's transform up to sign);
 * the step keeps only what projecting needs — the centre x̄ and the p × d scalings —
 * and replaces the chosen numeric columns by ld1 … ldd. A missing cell at apply
 * time counts as x̄ of its column.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { makeFrame } from "../../data/frame.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
import { fitLda, ldaParams } from "../../models/linear/lda.js";
import { columnCountParam } from "../../models/limits.js";
import { projectCentred } from "../../models/projection/linear-map.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, numericInputsOf, outputNames, planReplace, replaceInputs } from "./numeric-inputs.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "lda_projection";

export const ldaProjectionSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    /** null: min(K − 1, columns). */
    n_components: columnCountParam("Discriminant directions kept; null: min(K − 1, columns).", "K − 1 or the columns"),
    /** Shrinkage of the within-class covariance towards a scaled identity, in [0, 1]. */
    shrinkage: z.number().min(0).max(1).nullable().default(null),
    prefix: z.string().min(1).default("ld"),
  })
  .strict();

export const ldaProjectionFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    classes: z.array(z.string()),
    xbar: f64,
    /** p × d row-major: projection = (x − x̄) · scalings. */
    scalings: f64,
    explained_variance_ratio: f64,
  })
  .strict()
  .refine((f) => f.xbar.length === f.columns.length && f.scalings.length === f.columns.length * f.names.length, { message: "scalings do not match the columns" });

export type LdaProjectionSpec = z.infer<typeof ldaProjectionSpec>;
export type LdaProjectionFitted = z.infer<typeof ldaProjectionFitted>;

function checkComponents(requested: number | null, classes: number): void {
  if (requested !== null && requested > classes - 1) {
    throw new DataError(`${STEP}: n_components = ${requested}, and ${classes} classes give at most ${classes - 1} discriminant directions`, "n_components");
  }
}

export const ldaProjectionStep: TypedStep<LdaProjectionSpec, LdaProjectionFitted> = {
  name: STEP,
  description: "Linear discriminant projection (supervised): numeric columns onto at most K − 1 directions that separate the K classes.",
  spec: ldaProjectionSpec,
  fitted: ldaProjectionFitted,

  fit(frame, spec, ctx) {
    if (ctx.target?.task !== "classification") throw new DataError(`${STEP} needs a categorical target (classes)`, "step");
    const { y, classes } = ctx.target;
    checkComponents(spec.n_components, classes.length);
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    if (spec.n_components !== null && spec.n_components > inputs.length) {
      throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${inputs.length} numeric columns`, "n_components");
    }
    const X = makeFrame(inputs.map((name, j) => ({ type: "numeric", name, values: columns[j] })));
    const state = fitLda(X, y, classes, ldaParams.parse({ n_components: spec.n_components, shrinkage: spec.shrinkage }));
    const names = outputNames(
      spec.prefix,
      state.n_components,
      frame.columns.map((c) => c.name),
      inputs,
      STEP,
    );
    return {
      columns: inputs,
      names,
      classes: [...classes],
      xbar: state.xbar,
      scalings: state.scalings,
      explained_variance_ratio: state.explained_variance_ratio,
    };
  },

  apply(fitted, frame) {
    const inputs = numericInputsOf(frame, fitted.columns, STEP);
    const n = frame.rowCount;
    const d = fitted.names.length;
    const outputs = projectCentred(inputs, fitted.xbar, fitted.scalings, d, n, "by_input");
    return replaceInputs(frame, fitted.columns, fitted.names, outputs);
  },

  describe(fitted) {
    const d = fitted.names.length;
    return {
      input_columns: [...fitted.columns],
      output_columns: [...fitted.names],
      classes: [...fitted.classes],
      explained_variance_ratio: byColumn(fitted.names, fitted.explained_variance_ratio),
      scalings: Object.fromEntries(fitted.names.map((name, k) => [name, byColumn(fitted.columns, Array.from(fitted.columns, (_, a) => fitted.scalings[a * d + k]))])),
    };
  },

  plan(spec, columns, target) {
    if (target && target.type !== "categorical") throw new DataError(`${STEP} needs a categorical target (classes)`, "step");
    if (target?.levels) checkComponents(spec.n_components, target.levels.length);
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name);
    if (spec.n_components !== null && spec.n_components > chosen.length) {
      throw new DataError(`${STEP}: n_components = ${spec.n_components}, and there are only ${chosen.length} numeric columns`, "n_components");
    }
    if (spec.n_components === null || chosen.length === 0) return null;
    return planReplace(
      columns,
      chosen,
      Array.from({ length: spec.n_components }, (_, k) => `${spec.prefix}${k + 1}`),
    );
  },
};
