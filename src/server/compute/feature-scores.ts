/** The feature-scores computation (O(data): relief on 900k rows took 28 s), run on the compute pool. */
import { DataError } from "../../data/errors.js";
import type { Frame } from "../../data/frame.js";
import { filterScores, type FilterMethod } from "../../data/feature-scores/index.js";
import { UnusableInputError } from "../../models/contract.js";
import { featureScores, type TreeScoreMethod } from "../../models/tree/feature-scores.js";
import { ApiError } from "../errors.js";

export const TREE_METHODS = ["info_gain", "gain_ratio", "gini_index"] as const;

export interface FeatureScoresTask {
  method: string;
  target: string | null;
  features: string[] | undefined;
}

export interface WireScore {
  feature: string;
  score: number | null;
  threshold?: number;
}

export function scoreFeatures(frame: Frame, { method, target, features }: FeatureScoresTask): WireScore[] {
  try {
    const scores = (TREE_METHODS as readonly string[]).includes(method)
      ? featureScores(frame, target!, method as TreeScoreMethod, features)
      : filterScores(frame, target, method as FilterMethod, features);
    return scores.map((s) => ({ ...s, score: Number.isFinite(s.score) ? s.score : null }));
  } catch (e) {
    if (e instanceof UnusableInputError || e instanceof DataError) throw new ApiError("unusable_request", e.message, [{ path: (e as DataError).path ?? "target", message: e.message }]);
    throw e;
  }
}
