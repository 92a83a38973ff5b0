/**
 * id3: information gain, one branch per level of a categorical attribute present
 * at the node (absent levels share one empty leaf; beyond max_categories_per_split
 * the lightest share one branch, which may be split on the attribute again). Numeric attributes are
 * bi-partitioned at midpoints as C4.5 does (ID3 proper has none). Classic ID3 has
 * no missing-value handling, so the pipeline imputes before it.
 *
 * With incremental: true the model keeps its training rows and takes partial_fit as ITI does:
 * after any sequence of updates the tree is the one id3 grows on all the rows (incremental.ts).
 */
import { z } from "zod";
import { engineOptions, entropyBaseParam, maxCategoriesParam, pruningParams, stoppingParams } from "./params.js";
import type { EngineOptions } from "./engine-options.js";
import { incrementalRefusal } from "./incremental.js";
import { treeAlgorithm } from "./preset.js";

const params = z
  .object({
    ...stoppingParams,
    max_categories_per_split: maxCategoriesParam(32),
    ...pruningParams,
    entropy_base: entropyBaseParam,
    incremental: z
      .boolean()
      .default(false)
      .describe(
        "Keep the training rows in the model (as ITI keeps its instances) so that POST /v1/models/{id}/partial-fit can update the tree: after any sequence of updates it is the tree id3 grows on all the rows seen. The model then grows by the rows' size (rows × features values). Refused with pruning, ccp_alpha, max_features or class_weight \"balanced\", whose trees cannot be kept equal to the batch tree that way.",
      ),
  })
  .strict()
  // Refused when the request is read (422 invalid_params at params.incremental), not as a failed job.
  .superRefine((p, ctx) => {
    const why = p.incremental ? incrementalRefusal(id3Options(p)) : null;
    if (why) ctx.addIssue({ code: "custom", path: ["incremental"], message: `incremental: true keeps the tree equal to batch id3 only without ${why}` });
  });
export type Id3Params = z.infer<typeof params>;

export function id3Options(p: Id3Params): EngineOptions {
  return engineOptions(p, { criterion: "info_gain", categoricalSplit: "multiway", allowMissing: false });
}

export const id3 = treeAlgorithm<Id3Params>({
  name: "id3",
  description: "ID3 decision tree: information gain, multiway splits on categorical attributes.",
  tasks: ["classification"],
  params,
  accepts: { categorical: true, missing: false, weights: true },
  options: id3Options,
  incremental: (p) => p.incremental,
});
