/** Parameter declarations shared by the tree presets (scikit-learn names where it has the concept). */
import { z } from "zod";
import type { EngineOptions } from "./engine-options.js";
import { DEFAULT_ENGINE } from "./engine-options.js";
import { MAX_FEATURE_COUNT } from "../limits.js";
import { groupDigits } from "../../data/group-digits.js";

/** Deeper than this a tree is a chain of single-row splits; null already means "grow until pure". */
export const MAX_TREE_DEPTH = 1000;

export const stoppingParams = {
  max_depth: z
    .int()
    .min(1)
    .max(MAX_TREE_DEPTH)
    .nullable()
    .default(null)
    .describe(`Deepest level a node may sit at (root = 0); null grows until the leaves are pure. At most ${MAX_TREE_DEPTH}: deeper is a chain of single-row splits, which null already allows.`),
  min_samples_split: z
    .int()
    .min(2)
    .default(2)
    .describe("Fewest rows a node needs to be split; a row copied into several branches because it misses a tested value counts by its share."),
  min_samples_leaf: z.int().min(1).default(1).describe("Fewest rows each side of a split must keep (a node with fewer than twice this, counted as for min_samples_split, is a leaf)."),
  min_impurity_decrease: z.number().min(0).default(0).describe("A split must lower the weighted impurity, (node weight / total weight) × gain, by at least this."),
  max_features: z
    .union([z.enum(["sqrt", "log2"]), z.int().min(1).max(MAX_FEATURE_COUNT)])
    .nullable()
    .default(null)
    .describe(`Features drawn at random (seeded) at each node; null considers all, as does a count above the number of features. At most ${groupDigits(MAX_FEATURE_COUNT)} (the widest useful table).`),
  class_weight: z
    .union([z.literal("balanced"), z.record(z.string(), z.number().positive())])
    .nullable()
    .default(null)
    .describe('Weight per class label, or "balanced" (n / (classes × class count)); multiplies the sample weights.'),
};

export const pruningParams = {
  pruning: z
    .enum(["none", "pre", "post", "pessimistic"])
    .default("none")
    .describe("pre/post: on validation rows held out from the training rows; pessimistic: C4.5's error-based pruning on the training rows."),
  validation_fraction: z.number().gt(0).lt(1).default(0.25).describe("Share of the training rows held out (stratified, seeded) for pre/post pruning."),
  confidence_factor: z.number().gt(0).lt(1).default(0.25).describe("C4.5's CF for pessimistic pruning; smaller prunes more."),
  ccp_alpha: z.number().min(0).default(0).describe("Minimal cost-complexity pruning: subtrees whose effective alpha is at most this are cut."),
};

/**
 * The level cap of categorical splits, with the preset's default: multiway presets
 * cap their branches; CART's binary cut orders all levels exactly, so it has none.
 */
export function maxCategoriesParam(fallback: number | null) {
  return z
    .int()
    .min(2)
    .max(MAX_CATEGORIES_PER_SPLIT)
    .nullable()
    .default(fallback)
    .describe(
      `Most levels of a categorical feature one split tells apart. Where more are present at a node, the ones with the least training weight there are pooled into one group (one branch of a multiway split, one unit of a binary cut), which lower nodes may split again; null: no cap. Levels absent from a node share one empty branch (a leaf with the parent's class distribution) in a multiway split and are treated as missing in a binary one. At most ${groupDigits(MAX_CATEGORIES_PER_SPLIT)}.`,
    );
}

/** A bound for the cap: beyond the levels any column could have in a table the service accepts, it sizes nothing more. */
export const MAX_CATEGORIES_PER_SPLIT = 1_000_000;

/** Seed 004 computes its gains in nats; the watermelon book in bits. Only the reported numbers (and thresholds given in them) change: the tree is the same. */
export const entropyBaseParam = z
  .union([z.literal(2), z.literal("e")])
  .default(2)
  .describe('Logarithm base of entropy and information gain: 2 (bits, the book) or "e" (nats, seed 004). Scales the info_gain scores explain reports, and min_impurity_decrease and ccp_alpha are read in the same unit; gain ratios and the tree itself do not change. Ignored by gini_index and mse.');

/** Entropy criteria grow in bits: a threshold given in nats is divided by ln 2. */
const isEntropyCriterion = (c: string) => c === "info_gain" || c === "gain_ratio";

type Stopping = { [K in keyof typeof stoppingParams]: z.infer<(typeof stoppingParams)[K]> };
type PruningP = { [K in keyof typeof pruningParams]: z.infer<(typeof pruningParams)[K]> };

export function engineOptions(p: Stopping & Partial<PruningP> & { max_categories_per_split?: number | null; entropy_base?: 2 | "e" }, rest: Partial<EngineOptions>): EngineOptions {
  const base = p.entropy_base ?? 2;
  const toBits = base === "e" && isEntropyCriterion(rest.criterion ?? DEFAULT_ENGINE.criterion) ? Math.LOG2E : 1;
  return {
    ...DEFAULT_ENGINE,
    maxDepth: p.max_depth,
    minSamplesSplit: p.min_samples_split,
    minSamplesLeaf: p.min_samples_leaf,
    minImpurityDecrease: p.min_impurity_decrease * toBits,
    maxFeatures: p.max_features,
    classWeight: p.class_weight,
    pruning: p.pruning ?? "none",
    validationFraction: p.validation_fraction ?? DEFAULT_ENGINE.validationFraction,
    confidenceFactor: p.confidence_factor ?? DEFAULT_ENGINE.confidenceFactor,
    ccpAlpha: (p.ccp_alpha ?? 0) * toBits,
    maxCategoriesPerSplit: p.max_categories_per_split ?? null,
    entropyBase: base,
    ...rest,
  };
}
