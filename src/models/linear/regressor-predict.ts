import type { Frame } from "../../data/frame.js";
import type { Prediction } from "../contract.js";
import { fittedSources } from "./design.js";
import type { RegressorState } from "./linear-state.js";
import { linearScores } from "./scores.js";

export function predictRegressor(state: RegressorState, X: Frame, algorithm: string): Prediction {
  const columns = fittedSources(X, state.features, algorithm);
  return { task: "regression", values: linearScores(columns, X.rowCount, state.coef, state.intercept, 1) };
}
