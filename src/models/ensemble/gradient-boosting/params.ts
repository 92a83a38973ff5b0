/** Parameters of gradient_boosting (scikit-learn's HistGradientBoosting names; XGBoost's where it alone has the concept). */
import { z } from "zod";
import { MAX_TREE_DEPTH } from "../../tree/params.js";
import { MAX_BINS } from "./binning.js";
import { groupDigits } from "../../../data/group-digits.js";

/** Boosting iterations at most: each adds one tree per class, so this bounds the model and the fit. */
export const MAX_ITER = 10_000;
/** Leaves per tree at most: each pending leaf holds a histogram (features × 256 × 24 bytes) during growth. */
export const MAX_LEAF_NODES = 65_536;

export const gradientBoostingParams = z
  .object({
    loss: z
      .enum(["squared_error", "absolute_error", "huber", "log_loss"])
      .nullable()
      .default(null)
      .describe("null: log_loss for classification (binary, or multinomial with one tree per class per iteration), squared_error for regression. squared_error, absolute_error and huber are for regression only."),
    learning_rate: z.number().gt(0).max(10).default(0.1).describe("Shrinkage: each leaf value is multiplied by it."),
    max_iter: z.int().min(1).max(MAX_ITER).default(100).describe(`Boosting iterations (trees per class). At most ${groupDigits(MAX_ITER)}.`),
    max_leaf_nodes: z.int().min(2).max(MAX_LEAF_NODES).default(31).describe(`Leaves per tree; trees grow leaf-wise (best gain first). At most ${groupDigits(MAX_LEAF_NODES)}.`),
    max_depth: z.int().min(1).max(MAX_TREE_DEPTH).nullable().default(null).describe(`Deepest level a leaf may sit at (root = 0); null: only max_leaf_nodes limits a tree. At most ${MAX_TREE_DEPTH}.`),
    min_samples_leaf: z.int().min(1).default(20).describe("Fewest training rows in a leaf."),
    min_child_weight: z.number().min(0).max(1e12).default(0.001).describe("XGBoost's min_child_weight: least hessian sum in each child of a split."),
    l2_regularization: z.number().min(0).max(1e12).default(0).describe("XGBoost's lambda: L2 penalty on leaf values, added to the hessian sums in leaf values and split gains."),
    min_split_gain: z.number().min(0).max(1e12).default(0).describe("XGBoost's gamma (LightGBM's min_split_gain): a split must lower the regularised loss by more than this."),
    max_bins: z.int().min(2).max(MAX_BINS).default(MAX_BINS).describe(`Bins per feature for non-missing values (missing values get one more). At most ${MAX_BINS}.`),
    subsample: z.number().gt(0).max(1).default(1).describe("Share of the training rows each iteration's trees are grown on (seeded Bernoulli draw, as XGBoost's subsample)."),
    colsample: z.number().gt(0).max(1).default(1).describe("Share of the features each tree may split on (seeded, as XGBoost's colsample_bytree); at least one."),
    huber_quantile: z.number().gt(0).lt(1).default(0.9).describe("huber loss: δ is this quantile of the absolute residuals at each iteration."),
    early_stopping: z
      .union([z.literal("auto"), z.boolean()])
      .default("auto")
      .describe("Stop when the loss on validation_fraction held-out training rows has not improved by tol for n_iter_no_change iterations; auto: on when there are more than 10,000 training rows."),
    validation_fraction: z.number().gt(0).lt(1).default(0.1).describe("Share of the training rows held out (stratified for classification, seeded) for early stopping."),
    n_iter_no_change: z.int().min(1).max(MAX_ITER).default(10).describe("Iterations without improvement before stopping early."),
    tol: z.number().min(0).default(1e-7).describe("Least improvement of the validation loss that counts."),
  })
  .strict();

export type GradientBoostingParams = z.infer<typeof gradientBoostingParams>;
