/**
 * What a fitted SVM shows: per binary problem its classes, support-vector counts,
 * dual coefficients (y_i·α_i, positive towards the second side), intercept, and for
 * the linear kernel the primal weights w = Σ y_i α_i x_i by feature; plus support
 * vectors per class where a class owns one side of a problem (two classes, OvO, OvR).
 *
 * Bounded (explain-bounds.ts): the dual coefficients and primal weights listed in all
 * problems together are at most `maxValues` numbers, each cut list flagged
 * (`dual_coef_truncated`, `coefficients_truncated`); problems are listed (the first
 * always) while that allowance lasts, with `problem_count` and `problems_truncated`.
 */
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";
import type { MulticlassState } from "../multiclass/wrapper.js";
import type { BinarySvcState } from "./binary-svc.js";
import type { SupportVectorModel } from "./support-vector-model.js";

/** Primal weights by feature (linear kernel: the readable part, so first) and dual coefficients, within the budget. */
export function boundedCoefficients(model: SupportVectorModel, features: readonly string[], budget: ValueBudget) {
  const out: Record<string, unknown> = {};
  if (model.weights) {
    const w = budget.take(model.weights);
    out.coefficients = Object.fromEntries(w.values.map((v, t) => [features[t], v]));
    if (w.truncated) out.coefficients_truncated = true;
  }
  const dual = budget.take(model.coef);
  out.dual_coef = dual.values;
  if (dual.truncated) out.dual_coef_truncated = true;
  return out;
}

export function explainSvm(features: readonly string[], state: MulticlassState<BinarySvcState>, maxValues?: number) {
  const { classes, code, models } = state;
  const k = classes.length;
  const m = models.length;
  const side = (j: number, sign: number) => classes.filter((_, c) => code[c * m + j] === sign);
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const problems: Record<string, unknown>[] = [];
  for (let j = 0; j < m && (j === 0 || budget.remaining > 0); j++) {
    const model = models[j];
    const negative = side(j, -1);
    const positive = side(j, 1);
    // Class names count against the allowance too: one-vs-rest sides hold every other class.
    if (j > 0) budget.spend(negative.length + positive.length);
    problems.push({
      negative,
      positive,
      n_support: { negative: model.n_support[0], positive: model.n_support[1] },
      intercept: model.intercept,
      ...boundedCoefficients(model, features, budget),
      ...(model.sigmoid ? { platt: model.sigmoid } : {}),
    });
  }
  return {
    kernel: models[0].kernel,
    strategy: k === 2 ? "binary" : state.strategy,
    n_support: supportPerClass(state),
    total_support_vectors: models.reduce((s, model) => s + model.coef.length, 0),
    problem_count: m,
    problems_truncated: problems.length < m,
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
