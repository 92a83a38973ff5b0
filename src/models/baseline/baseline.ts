/**
 * baseline: predicts the most frequent class (with the weighted class priors as
 * probabilities) or the weighted mean of the target, ignoring every feature.
 * It is the floor any real learner has to beat in a comparison.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, Prediction, TrainingSet } from "../contract.js";
import { UnusableInputError } from "../contract.js";
import { checkClasses, checkFinite, checkLength, f64, structural } from "../state-schemas.js";

const params = z.object({}).strict();
export type BaselineParams = z.infer<typeof params>;

const state = z.discriminatedUnion("task", [
  z
    .object({ task: z.literal("classification"), classes: z.array(z.string()).min(1), priors: f64 })
    .strict()
    .superRefine(
      structural((s, report) => {
        if (!checkClasses(s.classes, report) || !checkLength(s.priors, s.classes.length, "priors", report, "classes") || !checkFinite(s.priors, "priors", report)) return;
        if (s.priors.some((p) => p < 0)) report("priors must not be negative", ["priors"]);
      }),
    ),
  z.object({ task: z.literal("regression"), mean: z.number() }).strict(),
]);
export type BaselineState = z.infer<typeof state>;

function fit(train: TrainingSet): BaselineState {
  const target = train.target;
  if (!target) throw new UnusableInputError("baseline needs a target");
  const n = target.y.length;
  const w = train.weights;
  if (target.task === "classification") {
    const priors = new Float64Array(target.classes.length);
    for (let i = 0; i < n; i++) priors[target.y[i]] += w ? w[i] : 1;
    const total = priors.reduce((a, b) => a + b, 0);
    if (!(total > 0)) throw new UnusableInputError("baseline needs at least one row with positive weight");
    for (let k = 0; k < priors.length; k++) priors[k] /= total;
    return { task: "classification", classes: [...target.classes], priors };
  }
  let sum = 0;
  let total = 0;
  for (let i = 0; i < n; i++) {
    const wi = w ? w[i] : 1;
    sum += wi * target.y[i];
    total += wi;
  }
  if (!(total > 0)) throw new UnusableInputError("baseline needs at least one row with positive weight");
  return { task: "regression", mean: sum / total };
}

function predict(s: BaselineState, X: Frame): Prediction {
  const n = X.rowCount;
  if (s.task === "regression") return { task: "regression", values: new Float64Array(n).fill(s.mean) };
  const K = s.priors.length;
  // Ties go to the lowest class index, as everywhere in xigua.
  let best = 0;
  for (let k = 1; k < K; k++) if (s.priors[k] > s.priors[best]) best = k;
  const proba = new Float64Array(n * K);
  for (let i = 0; i < n; i++) proba.set(s.priors, i * K);
  return { task: "classification", labels: new Int32Array(n).fill(best), proba };
}

export const baseline: Algorithm<BaselineParams, BaselineState> = {
  name: "baseline",
  family: "baseline",
  tasks: ["classification", "regression"],
  description: "Most frequent class (probabilities = weighted class priors) or weighted mean of the target; ignores the features.",
  params,
  state,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit: (train) => fit(train),
  predict,
  explain: (s) => (s.task === "classification" ? { priors: Object.fromEntries(s.classes.map((c, k) => [c, s.priors[k]])) } : { mean: s.mean }),
};
