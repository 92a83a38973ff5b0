/** Parameter declarations shared by the Bayesian classifiers (scikit-learn names where it has the concept). */
import { z } from "zod";

/** Most equal-frequency bins a numeric attribute is cut into: the one-dependence tables grow with its square. */
export const MAX_BINS = 256;

/** Laplace (additive) correction: the book's +1 is alpha = 1. */
export function alphaParam(min: "zero" | "positive") {
  const base = min === "zero" ? z.number().min(0) : z.number().gt(0);
  return base
    .default(1)
    .describe(
      min === "zero"
        ? "Additive (Laplace) correction of every count: P(x = v | c) = (N_cv + alpha) / (N_c + alpha · N_i), N_i the attribute's number of levels. 1 is the book's Laplace correction; 0 its uncorrected frequency estimate (a level never seen with a class then rules the class out)."
        : "Additive (Laplace) correction of every count, as the book's formulas with N (classes) and N_i (levels of attribute i); 1 is the book's +1. Must be positive: these models multiply many small conditional estimates.",
    );
}

export const nBinsParam = z
  .int()
  .min(2)
  .max(MAX_BINS)
  .default(5)
  .describe(
    `Numeric attributes are cut into this many equal-frequency bins (edges at the training quantiles, as KBinsDiscretizer's "quantile" strategy; bins narrower than 1e-8 are merged; the edges come from the rows whatever their weights) and then counted like categorical ones. At most ${MAX_BINS}.`,
  );

/**
 * The class prior. "laplace": (N_c + alpha) / (N + alpha · K), the book's corrected prior (its
 * uncorrected N_c / N when alpha is 0); "empirical": N_c / N (scikit-learn's fit_prior);
 * "uniform": 1 / K; or one probability per class label.
 */
export const classPriorParam = z
  .union([z.enum(["laplace", "empirical", "uniform"]), z.record(z.string(), z.number().min(0).max(1))])
  .default("laplace")
  .describe(
    'Class prior P(c): "laplace" = (N_c + alpha) / (N + alpha · K) as the book corrects it (N_c / N when alpha is 0); "empirical" = N_c / N (scikit-learn\'s fit_prior); "uniform" = 1 / K; or a probability per class label (every class named, summing to 1).',
  );

export type ClassPrior = z.infer<typeof classPriorParam>;

/** A feature named by the request (SPODE's super-parent, TAN's root); null picks it as the algorithm documents. */
export function featureNameParam(what: string) {
  return z.string().min(1).max(10_000).nullable().default(null).describe(what);
}
