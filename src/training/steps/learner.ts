/**
 * A learner fitted inside a wrapper selector (rfe, lvw, l1), with the same
 * automatic steps the pipeline puts in front of a learner (impute when it takes
 * no missing values, standardised numeric columns when it is scale-sensitive — so a
 * penalised model's coefficients rank columns in comparable units, not grams against
 * kilograms —, one_hot when it takes no categorical columns), and its
 * importances mapped back onto the columns it was given (a one-hot column's share
 * goes to the column it came from).
 */
import type { Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { impute, type ImputeFitted } from "../../data/transforms/impute.js";
import { oneHot, oneHotName, type OneHotFitted } from "../../data/transforms/one-hot.js";
import { scale, type ScaleFitted } from "../../data/transforms/scale.js";
import type { Algorithm, Prediction, Target } from "../../models/contract.js";

export interface FittedLearner {
  predict(X: Frame): Prediction;
  /**
   * One importance per input column, or null if the learner's explanation has
   * neither `feature_importances` nor `coefficients`. `square` sums squared
   * coefficients (scikit-learn's RFE), `abs` sums their magnitudes (SelectFromModel).
   */
  importances(prefer: "importances" | "coefficients", combine: "square" | "abs"): Float64Array<ArrayBuffer> | null;
}

interface Explanation {
  feature_importances?: Record<string, number>;
  coefficients?: Record<string, number | Record<string, number>>;
}

export function fitLearner(algorithm: Algorithm, params: unknown, X: Frame, target: Target, rng: Rng, signal?: import("../../models/contract.js").AbortFlag): FittedLearner {
  let imputed: ImputeFitted | null = null;
  let encoded: OneHotFitted | null = null;
  let scaled: ScaleFitted | null = null;
  let input = X;
  if (!algorithm.accepts.missing) {
    imputed = impute.fit(input, impute.spec.parse({}));
    input = impute.apply(imputed, input);
  }
  if (algorithm.scaleSensitive && input.columns.some((c) => c.type === "numeric")) {
    scaled = scale.fit(input, scale.spec.parse({}));
    input = scale.apply(scaled, input);
  }
  if (!algorithm.accepts.categorical && input.columns.some((c) => c.type === "categorical")) {
    encoded = oneHot.fit(input, oneHot.spec.parse({}));
    input = oneHot.apply(encoded, input);
  }
  const state = algorithm.fit({ X: input, target }, params, { rng, progress: () => {}, signal });
  const prepare = (frame: Frame): Frame => {
    let out = frame;
    if (imputed) out = impute.apply(imputed, out);
    if (scaled) out = scale.apply(scaled, out);
    if (encoded) out = oneHot.apply(encoded, out);
    return out;
  };
  const owner = new Map<string, number>(X.columns.map((c, j) => [c.name, j]));
  for (const c of encoded?.columns ?? []) for (const level of c.levels) owner.set(oneHotName(c.name, level), owner.get(c.name)!);

  return {
    predict: (frame) => algorithm.predict(state, prepare(frame)),
    importances(prefer, combine) {
      // Every coefficient: the bound on listed values is for HTTP answers (a linear SVR's weights by feature are its importances).
      const explanation = (algorithm.explain?.(state, { maxValues: Number.POSITIVE_INFINITY }) ?? null) as Explanation | null;
      if (!explanation) return null;
      const out = new Float64Array(X.columns.length);
      const add = (name: string, v: number) => {
        const j = owner.get(name);
        if (j !== undefined && Number.isFinite(v)) out[j] += combine === "square" ? v * v : Math.abs(v);
      };
      const importances = explanation.feature_importances;
      const coefficients = explanation.coefficients;
      if (importances && (prefer === "importances" || !coefficients)) {
        for (const [name, v] of Object.entries(importances)) {
          const j = owner.get(name);
          if (j !== undefined && Number.isFinite(v)) out[j] += v;
        }
        return out;
      }
      if (!coefficients) return null;
      for (const [key, v] of Object.entries(coefficients)) {
        if (typeof v === "number") add(key, v);
        else for (const [name, w] of Object.entries(v)) add(name, w);
      }
      return out;
    },
  };
}

/** Share of wrong labels (classification) or mean squared error (regression). */
export function predictionError(prediction: Prediction, target: Target): number {
  const n = target.y.length;
  if (n === 0) return 0;
  let sum = 0;
  if (target.task === "classification" && prediction.task === "classification") {
    for (let i = 0; i < n; i++) if (prediction.labels[i] !== target.y[i]) sum++;
  } else if (target.task === "regression" && prediction.task === "regression") {
    for (let i = 0; i < n; i++) sum += (prediction.values[i] - target.y[i]) ** 2;
  } else {
    throw new Error(`a ${prediction.task} prediction cannot be scored against a ${target.task} target`);
  }
  return sum / n;
}
