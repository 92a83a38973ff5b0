/**
 * naive_bayes state: the shared counts (coded.ts) — categorical attributes and, with
 * numeric: "discretize", the binned numeric ones — plus the resolved class prior and the
 * continuous attributes' Gaussian parameters and KDE samples (continuous.ts).
 * Everything is kept as counts and moments, not logs: a zero count (alpha = 0) stays a
 * finite number in the artifact, and predict derives the logs once per loaded state.
 */
import { z } from "zod";
import { f64, i32, structural, checkFinite, checkLength } from "../state-schemas.js";
import { checkCoded, checkCounts, checkOffsets, codedShape } from "./coded.js";

const shape = z
  .object({
    ...codedShape,
    numeric: z.enum(["gaussian", "kde", "discretize"]),
    variance: z.enum(["sample", "population"]),
    prior: f64,
    mean: f64,
    var: f64,
    /** Absent from artifacts written before partial_fit existed (then partial_fit refuses a model with continuous attributes). */
    moment_w: f64.optional(),
    moment_ss: f64.optional(),
    kde_offset: i32,
    kde_x: f64,
    kde_w: f64,
    kde_h2: f64,
  })
  .strict();

export type NaiveBayesState = z.infer<typeof shape>;

export const naiveBayesStateSchema = shape.superRefine(
  structural<NaiveBayesState>((s, report) => {
    if (!checkCoded(s, report, s.numeric !== "discretize")) return;
    const K = s.classes.length;
    const d = s.features.length;
    if (!checkLength(s.prior, K, "prior", report, "classes") || !checkCounts(s.prior, "prior", report)) return;
    if (!checkLength(s.mean, K * d, "mean", report, "classes × features") || !checkLength(s.var, K * d, "var", report, "classes × features")) return;
    if (!checkFinite(s.mean, "mean", report) || !checkPositive(s.var, "var", report)) return;
    if ((s.moment_w === undefined) !== (s.moment_ss === undefined)) {
      report("moment_w and moment_ss come together", ["moment_w"]);
      return;
    }
    if (s.moment_w && s.moment_ss) {
      if (!checkLength(s.moment_w, K * d, "moment_w", report, "classes × features") || !checkLength(s.moment_ss, K * d, "moment_ss", report, "classes × features")) return;
      if (!checkCounts(s.moment_w, "moment_w", report) || !checkCounts(s.moment_ss, "moment_ss", report)) return;
    }
    const kde = s.numeric === "kde";
    if (!checkLength(s.kde_h2, kde ? K * d : 0, "kde_h2", report) || !checkPositive(s.kde_h2, "kde_h2", report)) return;
    const blocks = kde ? d * K : 0;
    if (s.kde_offset.length !== blocks + 1 || s.kde_offset[0] !== 0 || s.kde_offset[blocks] !== s.kde_x.length) {
      report("kde_offset does not fit kde_x", ["kde_offset"]);
      return;
    }
    if (!checkOffsets(s.kde_offset, (b) => Math.max(0, s.kde_offset[b + 1] - s.kde_offset[b]), blocks, s.kde_x.length, "kde_offset", report)) return;
    if (!checkLength(s.kde_w, s.kde_x.length, "kde_w", report, "kde_x") || !checkFinite(s.kde_x, "kde_x", report)) return;
    checkCounts(s.kde_w, "kde_w", report);
  }),
);

function checkPositive(a: Float64Array, name: string, report: (p: string, path?: (string | number)[], nonFinite?: boolean) => void): boolean {
  if (!checkFinite(a, name, report)) return false;
  const i = a.findIndex((v) => !(v > 0));
  if (i < 0) return true;
  report(`${name}[${i}] must be positive`, [name, i]);
  return false;
}
