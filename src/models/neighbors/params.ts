/**
 * knn's parameters, named as scikit-learn's KNeighborsClassifier / Regressor name
 * them (DESIGN.md: scikit-learn's names where it has the concept; issue 11 wrote
 * `k`, which is `n_neighbors` here, as in the select step's relief/mutual_info).
 */
import { z } from "zod";
import { groupDigits } from "../../data/group-digits.js";

/** Each predicted row keeps this many neighbours and their votes; a vote over more rows than this is a smoother, not kNN. */
export const MAX_NEIGHBORS = 10_000;
/** |Δ|^p overflows double precision for ordinary differences long before; chebyshev is the p → ∞ limit. */
export const MAX_P = 100;
/** Rows a tree leaf may hold; above the training rows the tree is one leaf (brute force with extra steps). */
export const MAX_LEAF_SIZE = 1_000_000;

export const knnParams = z
  .object({
    n_neighbors: z
      .number()
      .int()
      .min(1)
      .max(MAX_NEIGHBORS)
      .default(5)
      .describe(`Neighbours that vote (k). At most ${groupDigits(MAX_NEIGHBORS)}, and at most the training rows (a fit with fewer rows fails).`),
    weights: z
      .enum(["uniform", "distance"])
      .default("uniform")
      .describe('"uniform": each neighbour counts once; "distance": by 1/distance, and neighbours at distance 0, if any, alone decide (scikit-learn\'s rule).'),
    metric: z
      .enum(["minkowski", "euclidean", "manhattan", "chebyshev", "mahalanobis", "vdm", "hvdm"])
      .default("minkowski")
      .describe(
        "minkowski with p (p = 2 is euclidean, 1 manhattan); chebyshev is max |Δ|. Under these a categorical column counts as its 0/1 indicators (as one_hot encodes it). vdm (categorical columns only) and hvdm (mixed tables) are fitted from the class frequencies of each level (seed 002, Wilson & Martinez), classification only, searched by brute force. mahalanobis: (x − y)ᵀ Σ⁺ (x − y) with Σ the training rows' covariance (pseudo-inverse where it is singular), searched as Euclidean distance between whitened rows.",
      ),
    p: z
      .number()
      .min(1)
      .max(MAX_P)
      .default(2)
      .describe(`The exponent of minkowski, vdm and hvdm (ignored by euclidean, manhattan, chebyshev). At most ${MAX_P}: use chebyshev for the limit.`),
    algorithm: z
      .enum(["auto", "kd_tree", "ball_tree", "brute"])
      .default("auto")
      .describe("Neighbour search. auto: brute force above 15 dimensions (after categorical indicators) or for vdm/hvdm, else kd_tree. The result does not depend on it (ties: lower training row first)."),
    leaf_size: z
      .number()
      .int()
      .min(1)
      .max(MAX_LEAF_SIZE)
      .default(30)
      .describe(`Rows per tree leaf (kd_tree, ball_tree). At most ${groupDigits(MAX_LEAF_SIZE)}; the tree's node count follows from it.`),
  })
  .strict();
export type KnnParams = z.infer<typeof knnParams>;
