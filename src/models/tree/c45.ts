/**
 * c45: gain ratio with C4.5's heuristic (among attributes whose gain is at least
 * the mean, the best ratio), multiway categorical splits, numeric attributes
 * bi-partitioned at midpoints (and re-split lower down), missing values by
 * C4.5's weighting, and C4.5's error-based pruning on request (`pruning: "pessimistic"`).
 * Unlike Quinlan's release 8, the gain of a threshold is not penalised by log2(N−1)/|D|:
 * the seeds' numbers are the book's.
 */
import { z } from "zod";
import { engineOptions, entropyBaseParam, maxCategoriesParam, pruningParams, stoppingParams } from "./params.js";
import { treeAlgorithm } from "./preset.js";

const params = z.object({ ...stoppingParams, max_categories_per_split: maxCategoriesParam(32), ...pruningParams, entropy_base: entropyBaseParam }).strict();
export type C45Params = z.infer<typeof params>;

export const c45 = treeAlgorithm<C45Params>({
  name: "c45",
  description: "C4.5 decision tree: gain ratio with the mean-gain heuristic, multiway and threshold splits, missing-value weighting, pessimistic pruning.",
  tasks: ["classification"],
  params,
  accepts: { categorical: true, missing: true, weights: true },
  options: (p) => engineOptions(p, { criterion: "gain_ratio", categoricalSplit: "multiway" }),
});
