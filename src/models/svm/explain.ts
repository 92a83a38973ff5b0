/**
 * What a fitted SVM shows: per binary problem its classes, support-vector counts,
 * dual coefficients (y_i·α_i, positive towards the second side), intercept, and for
 * the linear kernel the primal weights w = Σ y_i α_i x_i by feature; plus support
 * vectors per class where a class owns one side of a problem (two classes, OvO, OvR).
 */
import type { MulticlassState } from "../multiclass/wrapper.js";
import type { BinarySvcState } from "./binary-svc.js";
import type { SupportVectorModel } from "./support-vector-model.js";

function weightsByFeature(model: SupportVectorModel, features: readonly string[]): Record<string, number> | undefined {
  if (!model.weights) return undefined;
  const w = model.weights;
  return Object.fromEntries(features.map((f, t) => [f, w[t]]));
}

export function explainSvm(features: readonly string[], state: MulticlassState<BinarySvcState>) {
  const { classes, code, models } = state;
  const k = classes.length;
  const m = models.length;
  const side = (j: number, sign: number) => classes.filter((_, c) => code[c * m + j] === sign);
  const problems = models.map((model, j) => ({
    negative: side(j, -1),
    positive: side(j, 1),
    n_support: { negative: model.n_support[0], positive: model.n_support[1] },
    dual_coef: Array.from(model.coef),
    intercept: model.intercept,
    ...(model.weights ? { coefficients: weightsByFeature(model, features) } : {}),
    ...(model.sigmoid ? { platt: model.sigmoid } : {}),
  }));
  return {
    kernel: models[0].kernel,
    strategy: k === 2 ? "binary" : state.strategy,
    n_support: supportPerClass(state),
    total_support_vectors: models.reduce((s, model) => s + model.coef.length, 0),
    problems,
  };
}

/**
 * Distinct support vectors per class. A support vector belongs to a class when it
 * sits on a side that class has alone; the same row appearing in several OvO problems
 * counts once (rows are compared by value, as the state keeps vectors, not row ids).
 */
function supportPerClass(state: MulticlassState<BinarySvcState>): Record<string, number> | null {
  if (state.strategy === "ecoc" && state.classes.length > 2) return null;
  const { classes, code, models } = state;
  const m = models.length;
  const seen = classes.map(() => new Set<string>());
  models.forEach((model, j) => {
    const d = model.n_features;
    const [n0] = model.n_support;
    for (let s = 0; s < model.coef.length; s++) {
      const sign = s < n0 ? -1 : 1;
      const owners = classes.map((_, c) => c).filter((c) => code[c * m + j] === sign);
      if (owners.length !== 1) continue;
      const key = Array.from(model.support_vectors.subarray(s * d, s * d + d)).join(",");
      seen[owners[0]].add(key);
    }
  });
  return Object.fromEntries(classes.map((c, i) => [c, seen[i].size]));
}
