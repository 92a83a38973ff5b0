/**
 * Polynomial features (seed 000's polynomial regression; scikit-learn's
 * PolynomialFeatures): the chosen numeric columns are replaced, where the first of
 * them stood, by every product of at most `degree` of them — degree by degree, in
 * scikit-learn's order (x0, x1, x0², x0·x1, x1², …). Names: `a`, `a^2`, `a*b`,
 * `a^2*b`. interaction_only keeps products of distinct columns; include_bias adds
 * a constant column `1` first. A missing factor makes the product missing.
 */
import { z } from "zod";
import { DataError } from "../errors.js";
import type { Column } from "../frame.js";
import { checkNewNames, expectNumeric, pickColumns, replaceColumns, replacePlanned, targetColumns, type PlannedColumn, type Transform } from "./transform.js";
import { groupDigits } from "../group-digits.js";

const STEP = "polynomial";
export const MAX_OUTPUT_COLUMNS = 10_000;

export const polynomialSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    degree: z
      .number()
      .int()
      .min(1)
      .max(10)
      .default(2)
      .describe(`Highest total power of a product. At most 10; whatever the degree, the step refuses to make more than ${groupDigits(MAX_OUTPUT_COLUMNS)} columns (counted before any is built).`),
    interaction_only: z.boolean().default(false),
    include_bias: z.boolean().default(false),
  })
  .strict();

export const polynomialFitted = z
  .object({
    columns: z.array(z.string()),
    /** Each output column as the input positions it multiplies (empty: the bias). */
    terms: z.array(z.array(z.number().int().min(0))),
    names: z.array(z.string()),
  })
  .strict()
  .refine((f) => f.terms.length === f.names.length && f.terms.every((t) => t.every((i) => i < f.columns.length)), { message: "terms must index the columns" });

export type PolynomialSpec = z.infer<typeof polynomialSpec>;
export type PolynomialFitted = z.infer<typeof polynomialFitted>;

/**
 * How many columns polynomialTerms would return, by arithmetic alone:
 * Σ_{d=1..degree} C(p + d − 1, d) products (C(p, d) with interaction_only), plus the bias.
 * Stops counting once past `cap`, so a huge request costs a few multiplications.
 */
export function polynomialTermCount(p: number, degree: number, interactionOnly: boolean, includeBias: boolean, cap = Infinity): number {
  let total = includeBias ? 1 : 0;
  // ways = the number of products of exactly d factors, updated from d − 1 to d.
  let ways = 1;
  for (let d = 1; d <= degree; d++) {
    ways = interactionOnly ? (ways * (p - d + 1)) / d : (ways * (p + d - 1)) / d;
    if (ways <= 0) break;
    total += Math.round(ways);
    if (total > cap) return total;
  }
  return total;
}

/** scikit-learn's order: by degree, then lexicographic (combinations, with replacement unless interaction_only). */
export function polynomialTerms(p: number, degree: number, interactionOnly: boolean, includeBias: boolean): number[][] {
  const terms: number[][] = includeBias ? [[]] : [];
  let previous: number[][] = [[]];
  for (let d = 1; d <= degree; d++) {
    const next: number[][] = [];
    for (const t of previous) {
      const from = t.length === 0 ? 0 : t[t.length - 1] + (interactionOnly ? 1 : 0);
      for (let j = from; j < p; j++) next.push([...t, j]);
    }
    terms.push(...next);
    previous = next;
    if (terms.length > MAX_OUTPUT_COLUMNS) break;
  }
  return terms;
}

export function termName(term: readonly number[], names: readonly string[]): string {
  if (term.length === 0) return "1";
  const parts: string[] = [];
  for (let i = 0; i < term.length; ) {
    let k = i;
    while (k < term.length && term[k] === term[i]) k++;
    parts.push(k - i === 1 ? names[term[i]] : `${names[term[i]]}^${k - i}`);
    i = k;
  }
  return parts.join("*");
}

function resolve(names: readonly string[], spec: PolynomialSpec, others: readonly string[]): PolynomialFitted {
  // Counted first: 9,001 columns at degree 2 would otherwise build 40 M terms before being refused.
  if (polynomialTermCount(names.length, spec.degree, spec.interaction_only, spec.include_bias, MAX_OUTPUT_COLUMNS) > MAX_OUTPUT_COLUMNS) {
    throw new DataError(`${STEP}: degree ${spec.degree} over ${names.length} columns gives more than ${MAX_OUTPUT_COLUMNS} columns; lower the degree or choose fewer columns`, "degree");
  }
  const terms = polynomialTerms(names.length, spec.degree, spec.interaction_only, spec.include_bias);
  const outputs = terms.map((t) => termName(t, names));
  checkNewNames(others, outputs, STEP, "columns");
  return { columns: [...names], terms, names: outputs };
}

export const polynomial: Transform<PolynomialSpec, PolynomialFitted> = {
  name: STEP,
  description: "Add products and powers of numeric columns up to a degree (optionally interactions only).",
  spec: polynomialSpec,
  fitted: polynomialFitted,

  fit(frame, spec) {
    const chosen = targetColumns(frame, spec.columns, ["numeric"], STEP).map((c) => c.name);
    return resolve(
      chosen,
      spec,
      others(frame.columns, chosen),
    );
  },

  apply(fitted, frame) {
    if (fitted.columns.length === 0) return frame;
    const inputs = fitted.columns.map((name) => expectNumeric(frame, name, STEP));
    const n = frame.rowCount;
    // Each product reuses the product of its first d − 1 factors (terms come degree by degree).
    const byKey = new Map<string, Float64Array>();
    const outputs = fitted.terms.map((term, t): Column => {
      let values: Float64Array;
      if (term.length === 0) values = new Float64Array(n).fill(1);
      else if (term.length === 1) values = inputs[term[0]];
      else {
        const prefix = byKey.get(term.slice(0, -1).join(",")) ?? product(inputs, term.slice(0, -1), n);
        const last = inputs[term[term.length - 1]];
        values = new Float64Array(n);
        for (let i = 0; i < n; i++) values[i] = prefix[i] * last[i];
      }
      byKey.set(term.join(","), values);
      return { type: "numeric", name: fitted.names[t], values };
    });
    const replacements = new Map<string, Column[]>(fitted.columns.map((name, j) => [name, j === 0 ? outputs : []]));
    return replaceColumns(frame, replacements);
  },

  describe: (fitted) => ({ input_columns: [...fitted.columns], output_columns: [...fitted.names] }),

  plan(spec, columns) {
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name);
    if (chosen.length === 0) return [...columns];
    const fitted = resolve(
      chosen,
      spec,
      others(columns, chosen),
    );
    const outputs = fitted.names.map((name): PlannedColumn => ({ name, type: "numeric" }));
    return replacePlanned(columns, new Map(chosen.map((name, j) => [name, j === 0 ? outputs : []])));
  },
};

/** Names of the columns not chosen (a set, not a scan per column: the table may be thousands of columns wide). */
function others(columns: readonly { readonly name: string }[], chosen: readonly string[]): string[] {
  const set = new Set(chosen);
  return columns.map((c) => c.name).filter((n) => !set.has(n));
}

function product(inputs: readonly Float64Array[], term: readonly number[], n: number): Float64Array {
  const out = new Float64Array(n).fill(1);
  for (const j of term) for (let i = 0; i < n; i++) out[i] *= inputs[j][i];
  return out;
}
