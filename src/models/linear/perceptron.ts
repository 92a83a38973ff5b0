/**
 * `perceptron`: Rosenblatt's perceptron (binary-perceptron.ts) for two classes; for
 * more, the generic multiclass wrapper over it — one-vs-rest by default (ties broken
 * by the most confident wᵀx − θ), one-vs-one voting, or ECOC (seed 002 多分类).
 * A two-class state is the binary perceptron's own; a multiclass one holds the
 * wrapper's state, so the two shapes are told apart by `model`.
 */
import { z } from "zod";
import type { Algorithm } from "../contract.js";
import { multiclassParamsShape } from "../multiclass/params.js";
import { refuseInert } from "../optim/solver-options.js";
import { fitMulticlass, multiclassStateSchema, partialFitMulticlass, predictMulticlass, type MulticlassState } from "../multiclass/wrapper.js";
import { binaryPerceptron, binaryPerceptronParamsShape, binaryPerceptronState, explainBinaryPerceptron, type BinaryPerceptronState } from "./binary-perceptron.js";
import { classificationTarget } from "./classification.js";
import { combinedDiagnostics, diagnosticsSchema, type Diagnostics } from "./linear-state.js";

const NAME = "perceptron";

const multiclassShape = multiclassParamsShape("ovr");
const multiclassDefaults = z.object(multiclassShape).parse({});

/** The ECOC options do nothing under ovr or ovo, nor code_size with the exhaustive code: a value other than the default is refused. */
export const perceptronParams = z
  .object({
    ...binaryPerceptronParamsShape,
    ...multiclassShape,
  })
  .strict()
  .superRefine((p, ctx) => {
    if (p.multiclass !== "ecoc") {
      for (const key of ["code_matrix", "code_size", "decoding"] as const) refuseInert(ctx, p[key], multiclassDefaults[key], key, `unless multiclass is "ecoc"`);
    } else if (p.code_matrix === "exhaustive") {
      refuseInert(ctx, p.code_size, multiclassDefaults.code_size, "code_size", 'with code_matrix "exhaustive"');
    }
  });
export type PerceptronParams = z.infer<typeof perceptronParams>;

export const multiclassPerceptronState = z
  .object({
    features: z.array(z.string()),
    model: multiclassStateSchema(binaryPerceptronState),
    /** Summary over the binary problems (converged only if every one did; loss: mean mistakes in the last epoch). */
    diagnostics: diagnosticsSchema,
  })
  .strict();
export interface MulticlassPerceptronState {
  features: string[];
  model: MulticlassState<BinaryPerceptronState>;
  diagnostics: Diagnostics;
}

export type PerceptronState = BinaryPerceptronState | MulticlassPerceptronState;
export const perceptronStateSchema: z.ZodType<PerceptronState> = z.union([binaryPerceptronState, multiclassPerceptronState]);

export function isMulticlassPerceptron(state: PerceptronState): state is MulticlassPerceptronState {
  return "model" in state;
}

function explainMulticlass(state: MulticlassPerceptronState) {
  const { strategy, classes, models } = state.model;
  const problems = models.map((m) => ({ negative: m.classes[0], positive: m.classes[1], ...explainBinaryPerceptron(m) }));
  const importances: Record<string, number> = {};
  for (const f of state.features) importances[f] = problems.reduce((s, p) => s + p.feature_importances[f], 0) / problems.length;
  // In OvR problem c is class c against the rest, so its weights are class c's (API.md: "per class").
  const perClass = strategy === "ovr" ? { coefficients: Object.fromEntries(classes.map((c, j) => [c, problems[j].coefficients])), intercept: Object.fromEntries(classes.map((c, j) => [c, problems[j].intercept])) } : {};
  return { strategy, classes, ...perClass, problems, feature_importances: importances, diagnostics: state.diagnostics };
}

export const perceptron: Algorithm<PerceptronParams, PerceptronState> = {
  name: NAME,
  family: "linear",
  tasks: ["classification"],
  description:
    "Rosenblatt's perceptron: w ← w + η(y − ŷ)x with a learnt threshold; reports non-convergence on non-separable data; more than two classes by one-vs-rest (default), one-vs-one or ECOC.",
  params: perceptronParams,
  state: perceptronStateSchema,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // updates are proportional to the inputs
  fit(train, params, ctx) {
    if (classificationTarget(train, NAME).classes.length === 2) return binaryPerceptron.fit(train, params, ctx);
    const model = fitMulticlass(binaryPerceptron, train, params, params, ctx);
    return { features: model.models[0].features, model, diagnostics: combinedDiagnostics(model.models.map((m) => m.diagnostics)) };
  },
  /** One pass over the new rows per binary model (binary-perceptron.ts), the code matrix kept. */
  partialFit(state, train, params, ctx) {
    if (!isMulticlassPerceptron(state)) return binaryPerceptron.partialFit!(state, train, params, ctx);
    const model = partialFitMulticlass(binaryPerceptron, state.model, train, params, ctx);
    return { ...state, model, diagnostics: combinedDiagnostics(model.models.map((m) => m.diagnostics)) };
  },
  predict: (state, X) => (isMulticlassPerceptron(state) ? predictMulticlass(binaryPerceptron, state.model, X) : binaryPerceptron.predict(state, X)),
  explain: (state) => (isMulticlassPerceptron(state) ? explainMulticlass(state) : explainBinaryPerceptron(state)),
};
