import type { Frame } from "../../data/frame.js";
import type { Prediction } from "../contract.js";
import { fittedSources } from "./design.js";
import type { ClassifierState } from "./linear-state.js";
import { argmaxRows, linearScores, probabilities } from "./scores.js";

export function predictClassifier(state: Pick<ClassifierState, "features" | "classes" | "kind" | "coef" | "intercept">, X: Frame, algorithm: string): Prediction {
  const columns = fittedSources(X, state.features, algorithm);
  const n = X.rowCount;
  const k = state.classes.length;
  const rows = state.kind === "binary" ? 1 : k;
  const scores = linearScores(columns, n, state.coef, state.intercept, rows);
  const proba = probabilities(scores, n, k, state.kind);
  return { task: "classification", labels: argmaxRows(proba, n, k), proba };
}
