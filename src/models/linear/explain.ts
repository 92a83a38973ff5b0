/**
 * API.md's linear explanation: coefficients by feature (per class where there
 * are several), intercept, and feature_importances as |standardised coefficient|
 * = |w_j|·sd(x_j) — the change in score for one standard deviation of the feature.
 */
import type { ClassifierKind, ClassifierState, Diagnostics, RegressorState } from "./linear-state.js";

export interface LinearExplanation {
  coefficients: Record<string, number> | Record<string, Record<string, number>>;
  intercept: number | Record<string, number>;
  feature_importances: Record<string, number>;
  positive_class?: string;
  diagnostics?: Diagnostics;
}

function byFeature(features: readonly string[], values: (j: number) => number): Record<string, number> {
  const out: Record<string, number> = {};
  features.forEach((f, j) => (out[f] = values(j)));
  return out;
}

export function explainRegressor(state: RegressorState): LinearExplanation {
  const { features, coef, feature_std } = state;
  return {
    coefficients: byFeature(features, (j) => coef[j]),
    intercept: state.intercept,
    feature_importances: byFeature(features, (j) => Math.abs(coef[j]) * feature_std[j]),
    diagnostics: state.diagnostics,
  };
}

/**
 * Binary models have one coefficient vector, for the positive class classes[1]; multiclass ones
 * (softmax, or one-vs-rest laid out one row per class) average the importance over classes.
 */
export function explainClassifier(
  state: Pick<ClassifierState, "features" | "classes" | "coef" | "intercept" | "feature_std"> & { kind: ClassifierKind | "ovr"; diagnostics?: Diagnostics },
): LinearExplanation {
  const { features, classes, coef, intercept, feature_std } = state;
  const p = features.length;
  if (state.kind === "binary") {
    return {
      coefficients: byFeature(features, (j) => coef[j]),
      intercept: intercept[0],
      feature_importances: byFeature(features, (j) => Math.abs(coef[j]) * feature_std[j]),
      positive_class: classes[1],
      diagnostics: state.diagnostics,
    };
  }
  const coefficients: Record<string, Record<string, number>> = {};
  const intercepts: Record<string, number> = {};
  classes.forEach((c, k) => {
    coefficients[c] = byFeature(features, (j) => coef[k * p + j]);
    intercepts[c] = intercept[k];
  });
  const importances = byFeature(features, (j) => {
    let s = 0;
    for (let k = 0; k < classes.length; k++) s += Math.abs(coef[k * p + j]);
    return (s / classes.length) * feature_std[j];
  });
  return { coefficients, intercept: intercepts, feature_importances: importances, diagnostics: state.diagnostics };
}
