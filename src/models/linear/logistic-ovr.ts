/**
 * logistic_regression with multiclass "ovr": the generic multiclass wrapper over
 * the binary logistic fit, so one-vs-rest exists once in the codebase. Each class
 * gets a binary model against the rest; predict takes the largest wᵀx + b and
 * normalises the K sigmoids to sum to one — scikit-learn's OvR probabilities.
 *
 * class_weight: "balanced" is computed on each binary problem (as scikit-learn's OvR),
 * a record is folded into the row weights per original class before wrapping (the
 * binary problems only know "class" and "the rest").
 */
import { z } from "zod";
import type { FitContext, TrainingSet } from "../contract.js";
import type { BinaryLearner } from "../multiclass/binary-learner.js";
import { oneVsRest } from "../multiclass/code-matrix.js";
import { fitMulticlass, partialFitMulticlass, multiclassStateSchema, type MulticlassState } from "../multiclass/wrapper.js";
import { classificationTarget, classWeights, rowWeights } from "./classification.js";
import { predictClassifier } from "./classifier-predict.js";
import { fittedSources } from "./design.js";
import { explainClassifier, type LinearExplanation } from "./explain.js";
import { structural } from "../state-schemas.js";
import { checkClassifierShape, classifierShape, classifierStateSchema, combinedDiagnostics, diagnosticsSchema, type ClassifierState, type Diagnostics } from "./linear-state.js";
import { fitLogistic } from "./logistic-fit.js";
import { logisticRegressionParams, type LogisticRegressionParams } from "./logistic-params.js";
import { linearScores, sigmoid } from "./scores.js";

const NAME = "logistic_regression";

/** Two-class logistic regression as the wrapper sees it (not registered on its own). */
export const binaryLogistic: BinaryLearner<LogisticRegressionParams, ClassifierState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description: "binary logistic regression, one problem of a one-vs-rest model",
  params: logisticRegressionParams,
  state: classifierStateSchema,
  accepts: { categorical: false, missing: false, weights: true },
  scaleSensitive: true, // penalised (C) by default
  fit: (train, params, ctx) => fitLogistic(train, NAME, { ...params, multi_class: "auto" }, ctx),
  partialFit: (state, train, params, ctx) => fitLogistic(train, NAME, { ...params, multi_class: "auto" }, ctx, state),
  predict: (state, X) => predictClassifier(state, X, NAME),
  decision(state, X) {
    return linearScores(fittedSources(X, state.features, NAME), X.rowCount, state.coef, state.intercept, 1);
  },
  probabilityOf: (_state, scores) => scores.map(sigmoid),
};

export const logisticOvrStateSchema = z
  .object({
    kind: z.literal("ovr"),
    features: z.array(z.string()),
    model: multiclassStateSchema(classifierStateSchema).refine((m) => m.strategy === "ovr" && m.models.every((b) => b.kind === "binary"), "an ovr model of binary logistic models"),
    /** Summary over the K binary fits, where the service looks for convergence. */
    diagnostics: diagnosticsSchema,
  })
  .strict();
export interface LogisticOvrState {
  kind: "ovr";
  features: string[];
  model: MulticlassState<ClassifierState>;
  diagnostics: Diagnostics;
}

/**
 * Artifacts saved before the wrapper kept OvR flat (K rows of coef, kind "ovr"): each
 * row is exactly class c's binary model, so they load as the wrapped state.
 */
const legacyOvrStateSchema = classifierShape
  .extend({ kind: z.literal("ovr") })
  .superRefine(structural((s, report) => void checkClassifierShape(s, report)))
  .transform((flat): LogisticOvrState => {
  const k = flat.classes.length;
  const p = flat.features.length;
  const models = flat.classes.map((name, c): ClassifierState => ({
    features: flat.features,
    classes: [flat.classes.filter((_, o) => o !== c).join("|"), name],
    kind: "binary",
    coef: flat.coef.slice(c * p, (c + 1) * p),
    intercept: Float64Array.of(flat.intercept[c]),
    feature_std: flat.feature_std,
    diagnostics: flat.diagnostics,
  }));
  const model = { strategy: "ovr" as const, classes: flat.classes, code: oneVsRest(k).code, decoding: "hamming" as const, models };
  return { kind: "ovr", features: flat.features, model, diagnostics: flat.diagnostics };
});

export type LogisticState = ClassifierState | LogisticOvrState;

export const logisticStateSchema: z.ZodType<LogisticState> = z.union([classifierStateSchema, logisticOvrStateSchema, legacyOvrStateSchema]);

export function fitLogisticOvr(train: TrainingSet, params: LogisticRegressionParams, ctx: FitContext): LogisticOvrState {
  const { y, classes } = classificationTarget(train, NAME);
  const record = params.class_weight !== null && params.class_weight !== "balanced";
  const weights = record ? rowWeights(y, classWeights(params.class_weight, y, classes, NAME), train.weights) : train.weights;
  const binaryParams = { ...params, class_weight: record ? null : params.class_weight };
  const model = fitMulticlass(binaryLogistic, { ...train, weights }, binaryParams, { multiclass: "ovr", code_matrix: "random", code_size: 1, decoding: "hamming" }, ctx);
  return { kind: "ovr", features: model.models[0].features, model, diagnostics: combinedDiagnostics(model.models.map((m) => m.diagnostics)) };
}

/** partial_fit of each class's binary model on the new rows (one epoch of its gradient solver), weighted as fitLogisticOvr weighs them. */
export function partialFitLogisticOvr(state: LogisticOvrState, train: TrainingSet, params: LogisticRegressionParams, ctx: FitContext): LogisticOvrState {
  const { y, classes } = classificationTarget(train, NAME);
  const record = params.class_weight !== null && params.class_weight !== "balanced";
  const weights = record ? rowWeights(y, classWeights(params.class_weight, y, classes, NAME), train.weights) : train.weights;
  const binaryParams = { ...params, class_weight: record ? null : params.class_weight };
  const model = partialFitMulticlass(binaryLogistic, state.model, { ...train, weights }, binaryParams, ctx);
  return { ...state, model, diagnostics: combinedDiagnostics(model.models.map((m) => m.diagnostics)) };
}

/** Class c's model is row c, so the explanation is that of a per-class linear model. */
export function explainLogisticOvr(state: LogisticOvrState): LinearExplanation {
  const { classes, models } = state.model;
  const p = state.features.length;
  const coef = new Float64Array(classes.length * p);
  models.forEach((m, c) => coef.set(m.coef, c * p));
  return explainClassifier({
    features: state.features,
    classes,
    kind: "ovr",
    coef,
    intercept: Float64Array.from(models, (m) => m.intercept[0]),
    feature_std: models[0].feature_std,
    diagnostics: state.diagnostics,
  });
}

export function isLogisticOvr(state: LogisticState): state is LogisticOvrState {
  return state.kind === "ovr";
}
