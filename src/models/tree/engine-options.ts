/** What the one tree engine can be asked to do; the presets (id3, c45, cart, oblique_tree) are settings of it. */
import type { Criterion } from "./tree-state.js";

export type Pruning = "none" | "pre" | "post" | "pessimistic";

export interface ObliqueOptions {
  /** Random perturbation restarts after the deterministic OC1 pass (seeded through ctx.rng). */
  readonly restarts: number;
  /** Coordinate passes of OC1's perturbation per start. */
  readonly maxIter: number;
  /** How the hyperplane is found: LDA starts refined by OC1, or pocket perceptrons (then maxIter and restarts are unused). */
  readonly split: "oc1" | "perceptron";
  /** Epochs of each node perceptron (split "perceptron"). */
  readonly perceptronMaxIter: number;
}

/** Utgoff's perceptron tree (leaf-model.ts): perceptron leaves, and no split where a perceptron already fits the rows. */
export interface LeafModelOptions {
  readonly kind: "perceptron";
  /** Epochs of each leaf perceptron. */
  readonly maxIter: number;
}

export interface EngineOptions {
  readonly criterion: Criterion;
  readonly categoricalSplit: "multiway" | "binary";
  /** Null for axis-parallel trees. */
  readonly oblique: ObliqueOptions | null;
  /** Null: a leaf predicts its class distribution (every tree but oblique_tree's perceptron leaves). */
  readonly leafModel: LeafModelOptions | null;
  readonly maxDepth: number | null;
  readonly minSamplesSplit: number;
  readonly minSamplesLeaf: number;
  readonly minImpurityDecrease: number;
  /** Features drawn (seeded) at each node; null = all. */
  readonly maxFeatures: number | "sqrt" | "log2" | null;
  readonly classWeight: "balanced" | Record<string, number> | null;
  /** Levels a categorical split tells apart at one node, the lightest there pooled beyond it; null = no cap. */
  readonly maxCategoriesPerSplit: number | null;
  readonly pruning: Pruning;
  readonly validationFraction: number;
  readonly confidenceFactor: number;
  readonly ccpAlpha: number;
  /** Whether cells may be missing; when false a missing cell is an error (the pipeline imputes first). */
  readonly allowMissing: boolean;
  /**
   * The unit entropy is reported in (2: bits, "e": nats). The engine always works in bits;
   * engineOptions converts the impurity thresholds given in nats, explain converts scores back.
   */
  readonly entropyBase: EntropyBase;
}

export type EntropyBase = 2 | "e";

export const DEFAULT_ENGINE: EngineOptions = {
  criterion: "gini_index",
  entropyBase: 2,
  categoricalSplit: "binary",
  oblique: null,
  leafModel: null,
  maxDepth: null,
  minSamplesSplit: 2,
  minSamplesLeaf: 1,
  minImpurityDecrease: 0,
  maxFeatures: null,
  classWeight: null,
  maxCategoriesPerSplit: null,
  pruning: "none",
  validationFraction: 0.25,
  confidenceFactor: 0.25,
  ccpAlpha: 0,
  allowMissing: true,
};
