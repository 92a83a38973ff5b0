/**
 * The multiclass parameters a binary-only learner spreads into its own strict
 * params object, so every such learner names them the same way:
 *   multiclass   "ovr" | "ovo" | "ecoc"
 *   code_matrix  ECOC only: "random" (seeded) or "exhaustive" (every split once, ≤ 10 classes)
 *   code_size    ECOC random only: columns = max(⌈log₂ k⌉, ⌊code_size · k⌋), as scikit-learn's OutputCodeClassifier
 *   decoding     ECOC only: "hamming" (signs of the scores; ties by Euclidean) or "euclidean" (raw scores)
 */
import { z } from "zod";

const MAX_CODE_SIZE = 20;

export const STRATEGIES = ["ovr", "ovo", "ecoc"] as const;
export type Strategy = (typeof STRATEGIES)[number];
export type Decoding = "hamming" | "euclidean";

export function multiclassParamsShape(defaultStrategy: Strategy) {
  return {
    multiclass: z.enum(STRATEGIES).default(defaultStrategy),
    code_matrix: z.enum(["random", "exhaustive"]).default("random"),
    code_size: z
      .number()
      .positive()
      .max(MAX_CODE_SIZE)
      .default(1.5)
      .describe(
        `ECOC random only: binary problems = max(⌈log₂ k⌉, ⌊code_size · k⌋) for k classes. At most ${MAX_CODE_SIZE}: codes longer than a few times the classes add no separation (Dietterich & Bakiri use 15–63 bits for ≤ 10 classes), only fits.`,
      ),
    decoding: z.enum(["hamming", "euclidean"]).default("hamming"),
  };
}

export interface MulticlassOptions {
  multiclass: Strategy;
  code_matrix: "random" | "exhaustive";
  code_size: number;
  decoding: Decoding;
}
