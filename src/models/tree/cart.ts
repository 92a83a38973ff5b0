/**
 * cart: binary splits — Gini index for classes, squared error for regression
 * (regression trees), numeric thresholds at midpoints, categorical attributes cut
 * into two groups (ordered by class share / mean for two classes or regression,
 * by the first principal component of the class proportions otherwise), cost-complexity pruning via ccp_alpha.
 * `categorical_split: "multiway"` gives the book's chapter-4 tree with the Gini
 * index as criterion (one branch per level), whose root numbers seed 000 prints.
 * Missing values are handled natively with C4.5's weighting (the engine is shared),
 * rather than CART's surrogate splits.
 */
import { z } from "zod";
import { engineOptions, entropyBaseParam, maxCategoriesParam, pruningParams, stoppingParams } from "./params.js";
import { treeAlgorithm } from "./preset.js";

const params = z
  .object({
    criterion: z
      .enum(["gini_index", "info_gain", "mse"])
      .nullable()
      .default(null)
      .describe("null: gini_index for classification, mse for regression."),
    categorical_split: z.enum(["binary", "multiway"]).default("binary"),
    max_categories_per_split: maxCategoriesParam(null),
    ...stoppingParams,
    ...pruningParams,
    entropy_base: entropyBaseParam,
  })
  .strict();
export type CartParams = z.infer<typeof params>;

export const cart = treeAlgorithm<CartParams>({
  name: "cart",
  description: "CART decision tree: binary splits by Gini index (classification) or squared error (regression), cost-complexity pruning.",
  tasks: ["classification", "regression"],
  params,
  accepts: { categorical: true, missing: true, weights: true },
  options: (p, train) =>
    engineOptions(p, {
      criterion: p.criterion ?? (train.target?.task === "regression" ? "mse" : "gini_index"),
      categoricalSplit: p.categorical_split,
    }),
});
