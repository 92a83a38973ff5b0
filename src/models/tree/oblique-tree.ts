/**
 * oblique_tree: a multivariate decision tree — each internal node tests a linear
 * combination Σ w_i·a_i ≤ t learned on that node's rows (LDA starts refined by
 * OC1 perturbation, see oblique.ts), falling back to a single attribute where
 * that is as good. Categorical inputs arrive one-hot encoded and missing values
 * imputed (accepts: neither), since a linear test needs numbers.
 */
import { z } from "zod";
import { engineOptions, pruningParams, stoppingParams } from "./params.js";
import { treeAlgorithm } from "./preset.js";

const params = z
  .object({
    criterion: z.enum(["gini_index", "info_gain"]).default("gini_index"),
    max_iter: z.int().min(0).max(100).default(5).describe("OC1 coordinate passes per starting hyperplane. At most 100: every pass re-sorts the node's rows once per feature."),
    n_restarts: z.int().min(0).max(100).default(5).describe("Random directions (seeded) tried after the coordinate passes, to leave local minima. At most 100: each is one more sort of the node's rows."),
    ...stoppingParams,
    ...pruningParams,
  })
  .strict();
export type ObliqueTreeParams = z.infer<typeof params>;

export const obliqueTree = treeAlgorithm<ObliqueTreeParams>({
  name: "oblique_tree",
  description: "Multivariate (oblique) decision tree: each node tests a linear combination of the features (LDA start, OC1 perturbation).",
  tasks: ["classification"],
  params,
  accepts: { categorical: false, missing: false, weights: true },
  options: (p) =>
    engineOptions(p, {
      criterion: p.criterion,
      categoricalSplit: "binary",
      oblique: { maxIter: p.max_iter, restarts: p.n_restarts },
      allowMissing: false,
    }),
});
