/**
 * `art` (seed 003, the book's §5.5.3 ART 网络): ART 2-A style competitive learning
 * (Carpenter, Grossberg & Rosen 1991), winner-take-all with a vigilance test.
 *
 * Every row is normalised to unit length, I = x / ‖x‖ (ART 2-A compares directions). Rows
 * are presented one at a time, in a new seeded order each epoch:
 *   - recognition: each committed category j scores T_j = I · z_j (the cosine, prototypes
 *     being unit vectors too); the highest wins (ties: the lowest category);
 *   - vigilance: if T_J ≥ ρ the row resonates with J, which learns:
 *     z_J ← normalise(β·I + (1 − β)·z_J); otherwise — in ART 2-A the winner's score is the best
 *     match, so every other category fails too — the reset commits a new category with z = I.
 * Once `max_categories` are committed, a row that fails joins its winner anyway. Training stops
 * after `max_epochs`, or earlier when an epoch leaves every row in the category it had.
 *
 * Higher vigilance asks more of a match, so more categories form. The clusters are the
 * categories; a row (training or new) belongs to the category with the highest T_j. A row of
 * zeros has no direction: it is noise (−1), and takes no part in training.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import { permutation } from "../../data/random.js";
import { throwIfAborted, UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { MAX_CLUSTERS } from "../cluster/params.js";
import { checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { groupDigits } from "../../data/group-digits.js";

export const MAX_ART_EPOCHS = 10_000;

export const artParams = z
  .object({
    vigilance: z.number().min(0).max(1).default(0.9).describe("ρ: the cosine a row needs with its winning category to join it; below, it founds a new category. Higher vigilance, more (and tighter) categories."),
    learning_rate: z.number().gt(0).max(1).default(0.1).describe("β: how far a category's prototype turns towards a row that joins it (1: to the row itself)."),
    max_categories: z
      .int()
      .min(1)
      .max(MAX_CLUSTERS)
      .default(100)
      .describe(`Most categories; once reached, a row that fails the vigilance test joins its winner. At most ${groupDigits(MAX_CLUSTERS)}.`),
    max_epochs: z.int().min(1).max(MAX_ART_EPOCHS).default(20).describe(`Passes over the rows (each in a new seeded order); stops earlier once no row changes category. At most ${groupDigits(MAX_ART_EPOCHS)}.`),
  })
  .strict();
export type ArtParams = z.infer<typeof artParams>;

export const artState = z
  .object({
    features: z.array(z.string()).min(1),
    /** categories × features, row-major unit vectors. */
    prototypes: f64,
    /** Training rows of each category. */
    sizes: i32,
    /** Category of every training row (−1: a row of zeros). */
    labels: i32,
    n_epochs: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const q = s.sizes.length;
      if (q < 1 || q > MAX_CLUSTERS) return report(`${q} categories; between 1 and ${MAX_CLUSTERS}`, ["sizes"]);
      if (!checkLength(s.prototypes, q * s.features.length, "prototypes", report, `${q} categories × ${s.features.length} features`) || !checkFinite(s.prototypes, "prototypes", report)) return;
      const bad = s.labels.findIndex((l) => l < -1 || l >= q);
      if (bad >= 0) report(`labels[${bad}] is not a category`, ["labels", bad]);
    }),
  );
export type ArtState = z.infer<typeof artState>;

/** Rows scaled to unit length in place; a row of zeros stays zero. Returns which rows have a direction. */
function normaliseRows(X: Float64Array, n: number, d: number): Uint8Array {
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < d; j++) s += X[i * d + j] ** 2;
    if (!(s > 0)) continue;
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < d; j++) X[i * d + j] *= inv;
    ok[i] = 1;
  }
  return ok;
}

/** The category with the highest cosine with unit row I (ties: the lowest) and that cosine. */
function winner(Z: Float64Array, q: number, X: Float64Array, row: number, d: number): { category: number; match: number } {
  let best = 0;
  let bestT = -Infinity;
  for (let c = 0; c < q; c++) {
    let t = 0;
    for (let j = 0; j < d; j++) t += X[row * d + j] * Z[c * d + j];
    if (t > bestT) {
      bestT = t;
      best = c;
    }
  }
  return { category: best, match: bestT };
}

function fit(train: TrainingSet, params: ArtParams, ctx: FitContext): ArtState {
  if (train.target) throw new UnusableInputError("art is unsupervised: train it without a target");
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError("art needs at least one training row");
  const X = rowMajor(train.X);
  const directed = normaliseRows(X, n, d);
  if (!directed.some((v) => v === 1)) throw new UnusableInputError("every row is all zeros: art compares directions, and these have none");
  const Z = new Float64Array(params.max_categories * d);
  let q = 0;
  const labels = new Int32Array(n).fill(-1);
  const beta = params.learning_rate;
  let epochs = 0;
  for (let epoch = 0; epoch < params.max_epochs; epoch++) {
    throwIfAborted(ctx.signal);
    ctx.progress(epoch / params.max_epochs);
    epochs++;
    let changed = 0;
    for (const i of permutation(n, ctx.rng)) {
      if (!directed[i]) continue;
      const w = q > 0 ? winner(Z, q, X, i, d) : { category: -1, match: -Infinity };
      let c = w.category;
      if (q === 0 || (w.match < params.vigilance && q < params.max_categories)) {
        c = q++;
        Z.set(X.subarray(i * d, i * d + d), c * d);
      } else {
        let s = 0;
        for (let j = 0; j < d; j++) {
          const v = beta * X[i * d + j] + (1 - beta) * Z[c * d + j];
          Z[c * d + j] = v;
          s += v * v;
        }
        // β·I + (1 − β)·z is zero only for I = −z and β = ½: the prototype then keeps the row's direction.
        if (s > 0) for (let j = 0; j < d; j++) Z[c * d + j] /= Math.sqrt(s);
        else Z.set(X.subarray(i * d, i * d + d), c * d);
      }
      if (labels[i] !== c) changed++;
      labels[i] = c;
    }
    if (changed === 0) break;
  }
  // The final clusters: every row with its best category under the final prototypes.
  const prototypes = Z.slice(0, q * d);
  const sizes = new Int32Array(q);
  for (let i = 0; i < n; i++) {
    labels[i] = directed[i] ? winner(prototypes, q, X, i, d).category : -1;
    if (labels[i] >= 0) sizes[labels[i]]++;
  }
  ctx.progress(1);
  return { features, prototypes, sizes, labels, n_epochs: epochs };
}

function predict(s: ArtState, frame: Frame): Prediction {
  const d = s.features.length;
  const n = frame.rowCount;
  const X = rowMajor(selectColumns(frame, s.features));
  const directed = normaliseRows(X, n, d);
  const q = s.sizes.length;
  const labels = Int32Array.from({ length: n }, (_, i) => (directed[i] ? winner(s.prototypes, q, X, i, d).category : -1));
  return { task: "clustering", labels };
}

function explain(s: ArtState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const q = s.sizes.length;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const categories: { category: number; rows: number; prototype: Record<string, number> }[] = [];
  for (let c = 0; c < q && budget.remaining >= d + 1; c++) {
    budget.spend(1);
    const { values } = budget.take(s.prototypes.subarray(c * d, c * d + d));
    categories.push({ category: c, rows: s.sizes[c], prototype: Object.fromEntries(values.map((v, j) => [s.features[j], v])) });
  }
  return { n_categories: q, n_epochs: s.n_epochs, categories, ...(categories.length < q ? { categories_truncated: true } : {}) };
}

export const art: Algorithm<ArtParams, ArtState> = {
  name: "art",
  family: "neural",
  tasks: ["clustering"],
  description: "ART 2-A style competitive learning: rows as unit vectors join the category of highest cosine if it passes the vigilance test, else found a new one; higher vigilance, more categories.",
  params: artParams,
  state: artState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // directions change with the units of a column
  fit,
  predict,
  trainingLabels: (s) => s.labels,
  explain: (s, options) => explain(s, options?.maxValues),
};
