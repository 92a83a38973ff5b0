/**
 * oblique_tree: a multivariate decision tree — each internal node tests a linear
 * combination Σ w_i·a_i ≤ t learned on that node's rows (LDA starts refined by
 * OC1 perturbation, see oblique.ts, or a pocket perceptron), falling back to a
 * single attribute where that is as good; optionally with perceptron leaves
 * (Utgoff's perceptron tree, leaf-model.ts). Categorical inputs arrive one-hot
 * encoded and missing values imputed (accepts: neither), since a linear test needs numbers.
 */
import { z } from "zod";
import { refuseInert } from "../optim/solver-options.js";
import { engineOptions, pruningParams, stoppingParams } from "./params.js";
import { treeAlgorithm } from "./preset.js";
import { groupDigits } from "../../data/group-digits.js";

/** Each epoch is a pass over a node's rows, at every node the perceptrons are trained on. */
export const MAX_PERCEPTRON_EPOCHS = 1000;

const shape = {
  criterion: z.enum(["gini_index", "info_gain"]).default("gini_index"),
  split: z
    .enum(["oc1", "perceptron"])
    .default("oc1")
    .describe(
      'How a node\'s hyperplane is learned. oc1: Fisher LDA starts refined by OC1\'s perturbation (max_iter, n_restarts). perceptron: a pocket perceptron trained on the node\'s standardised rows (one per class against the rest for more than two classes), its direction cut at the threshold that best lowers the criterion. Either way the hyperplane is used only where it beats the best single-attribute split.',
    ),
  max_iter: z.int().min(0).max(100).default(5).describe('OC1 coordinate passes per starting hyperplane (split "oc1"). At most 100: every pass re-sorts the node\'s rows once per feature.'),
  n_restarts: z.int().min(0).max(100).default(5).describe('Random directions (seeded) tried after the coordinate passes, to leave local minima (split "oc1"). At most 100: each is one more sort of the node\'s rows.'),
  leaf_model: z
    .enum(["majority", "perceptron"])
    .default("majority")
    .describe(
      "majority: a leaf predicts its training rows' class distribution. perceptron (Utgoff's perceptron tree, seed 000): a node whose rows a pocket perceptron puts each in its own class is not split further, and every leaf holding two or more classes keeps a perceptron trained on its rows (one per class against the rest for more than two), predicting the class it assigns. Probabilities: the class mix of the leaf's training rows the perceptron assigns to the same class (one-hot on that class where it assigned none); a leaf of one class predicts that class. Pruning judges subtrees by their majority leaves; the perceptrons are trained on the pruned tree's leaves.",
    ),
  perceptron_max_iter: z
    .int()
    .min(1)
    .max(MAX_PERCEPTRON_EPOCHS)
    .default(100)
    .describe(
      `Epochs of each pocket perceptron (split "perceptron", leaf_model "perceptron"); the pocket keeps the plane with the fewest weighted training mistakes seen at the end of an epoch. At most ${groupDigits(MAX_PERCEPTRON_EPOCHS)}: each epoch is a pass over the node's rows, at every node.`,
    ),
  ...stoppingParams,
  ...pruningParams,
};
const defaults = z.object(shape).parse({});

/** The OC1 options do nothing under perceptron splits, nor perceptron_max_iter without a perceptron: a value other than the default is refused. */
const params = z
  .object(shape)
  .strict()
  .superRefine((p, ctx) => {
    if (p.split !== "oc1") for (const key of ["max_iter", "n_restarts"] as const) refuseInert(ctx, p[key], defaults[key], key, 'unless split is "oc1"');
    if (p.split !== "perceptron" && p.leaf_model !== "perceptron") refuseInert(ctx, p.perceptron_max_iter, defaults.perceptron_max_iter, "perceptron_max_iter", 'unless split or leaf_model is "perceptron"');
  });
export type ObliqueTreeParams = z.infer<typeof params>;

export const obliqueTree = treeAlgorithm<ObliqueTreeParams>({
  name: "oblique_tree",
  description: "Multivariate (oblique) decision tree: each node tests a linear combination of the features (LDA start and OC1 perturbation, or a perceptron); optionally perceptron leaves (Utgoff's perceptron tree).",
  tasks: ["classification"],
  params,
  accepts: { categorical: false, missing: false, weights: true },
  options: (p) =>
    engineOptions(p, {
      criterion: p.criterion,
      categoricalSplit: "binary",
      oblique: { maxIter: p.max_iter, restarts: p.n_restarts, split: p.split, perceptronMaxIter: p.perceptron_max_iter },
      leafModel: p.leaf_model === "perceptron" ? { kind: "perceptron", maxIter: p.perceptron_max_iter } : null,
      allowMissing: false,
    }),
});
