/**
 * id3: information gain, one branch per level of a categorical attribute present
 * at the node (absent levels share one empty leaf; beyond max_categories_per_split
 * the lightest share one branch, which may be split on the attribute again). Numeric attributes are
 * bi-partitioned at midpoints as C4.5 does (ID3 proper has none). Classic ID3 has
 * no missing-value handling, so the pipeline imputes before it.
 */
import { z } from "zod";
import { engineOptions, entropyBaseParam, maxCategoriesParam, pruningParams, stoppingParams } from "./params.js";
import { treeAlgorithm } from "./preset.js";

const params = z.object({ ...stoppingParams, max_categories_per_split: maxCategoriesParam(32), ...pruningParams, entropy_base: entropyBaseParam }).strict();
export type Id3Params = z.infer<typeof params>;

export const id3 = treeAlgorithm<Id3Params>({
  name: "id3",
  description: "ID3 decision tree: information gain, multiway splits on categorical attributes.",
  tasks: ["classification"],
  params,
  accepts: { categorical: true, missing: false, weights: true },
  options: (p) => engineOptions(p, { criterion: "info_gain", categoricalSplit: "multiway", allowMissing: false }),
});
