/**
 * What nca_projection and lmnn_projection share once fitted: a linear map learned against the
 * classes, (x − mean)·componentsᵀ, its state fields and checks, and its prediction. Each model
 * adds the fields its optimiser reports (iterations, score or loss).
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Prediction } from "../contract.js";
import { checkFinite, checkLength, checkUnique, f64, type Check } from "../state-schemas.js";
import { projectCentred } from "./linear-map.js";
import { featuresField, projectionOf } from "./shared.js";

export const supervisedMapFields = {
  features: featuresField,
  classes: z.array(z.string()).min(2),
  mean: f64,
  /** n_components × features row-major. */
  components: f64,
  n_components: z.number().int().min(1),
};

export interface SupervisedMap {
  readonly features: readonly string[];
  readonly mean: Float64Array;
  readonly components: Float64Array;
  readonly n_components: number;
}

export function checkSupervisedMap(s: SupervisedMap, report: Check): void {
  const p = s.features.length;
  if (!checkUnique([...s.features], "feature", report, ["features"])) return;
  if (s.n_components > p) return report(`n_components ${s.n_components} is above the ${p} features`, ["n_components"]);
  if (!checkLength(s.mean, p, "mean", report) || !checkLength(s.components, s.n_components * p, "components", report, `${s.n_components} components × ${p} features`)) return;
  if (!checkFinite(s.mean, "mean", report)) return;
  checkFinite(s.components, "components", report);
}

export function predictSupervisedMap(s: SupervisedMap, X: Frame): Prediction {
  const columns = selectColumns(X, [...s.features]).columns.map((col) => (col as { values: Float64Array }).values);
  return projectionOf(projectCentred(columns, s.mean, s.components, s.n_components, X.rowCount, "by_output"), X.rowCount);
}
