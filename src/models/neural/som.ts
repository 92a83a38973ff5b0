/**
 * `som` and `som_projection`: the self-organising map (seed 003, §5.5.4; som-engine.ts), one
 * fitted map read two ways. A train request without a target picks an algorithm's first
 * unsupervised task (training/spec.ts), so the two readings are two names of the same fit:
 *   - som (clustering): each row's cluster is its best-matching unit, numbered r·cols + c;
 *   - som_projection (projection): each row goes to its BMU's position on the grid, two
 *     numbers (row, column) — on a hexagonal grid (row·√3/2, column + ½ on odd rows).
 *
 * The units start at distinct random training rows (drawn with replacement when there are
 * more units than rows). explain gives the grid, every unit's weight vector, hits and the
 * U-matrix (mean distance to the grid neighbours' weights), within max_values numbers.
 */
import { z } from "zod";
import { selectColumns, type Frame } from "../../data/frame.js";
import type { Rng } from "../../data/random.js";
import { UnusableInputError, type Algorithm, type FitContext, type Prediction, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { maxValuesOf, ValueBudget } from "../explain-bounds.js";
import { checkFinite, checkLength, checkUnique, f64, i32, structural } from "../state-schemas.js";
import { bestMatchingUnit, trainSom, uMatrix, unitPositions, type Grid } from "./som-engine.js";
import { groupDigits } from "../../data/group-digits.js";

/** Units along one side of the map: the whole map (side²) is scanned for every step and every prediction. */
export const MAX_GRID_SIDE = 100;
/** Single-row updates: each one touches every unit. */
export const MAX_SOM_ITERATIONS = 1_000_000;

export const somParams = z
  .object({
    grid_rows: z.int().min(1).max(MAX_GRID_SIDE).default(5).describe(`Rows of the map. At most ${MAX_GRID_SIDE}.`),
    grid_cols: z.int().min(1).max(MAX_GRID_SIDE).default(5).describe(`Columns of the map. At most ${MAX_GRID_SIDE}.`),
    topology: z.enum(["rectangular", "hexagonal"]).default("rectangular").describe("rectangular: 4 neighbours per unit; hexagonal: odd rows shifted by ½, 6 neighbours."),
    sigma: z.number().gt(0).max(1000).nullable().default(null).describe("Initial width σ₀ of the Gaussian neighbourhood, in grid units. null: half the longer side of the map (at least 1)."),
    sigma_final: z.number().gt(0).max(1000).default(0.5).describe("σ at the last step; σ decays exponentially from sigma to sigma_final."),
    learning_rate: z.number().gt(0).max(1).default(0.5).describe("Initial η: the fraction of the way the best-matching unit moves towards the row."),
    learning_rate_final: z.number().gt(0).max(1).default(0.01).describe("η at the last step; η decays exponentially from learning_rate."),
    max_iter: z.int().min(1).max(MAX_SOM_ITERATIONS).default(5000).describe(`Updates: each one samples a training row (seeded) and moves the map. At most ${groupDigits(MAX_SOM_ITERATIONS)}.`),
  })
  .strict();
export type SomParams = z.infer<typeof somParams>;

export const somState = z
  .object({
    features: z.array(z.string()).min(1),
    grid_rows: z.int().min(1).max(MAX_GRID_SIDE),
    grid_cols: z.int().min(1).max(MAX_GRID_SIDE),
    topology: z.enum(["rectangular", "hexagonal"]),
    /** units × features, row-major; unit r·cols + c. */
    weights: f64,
    /** Best-matching unit of every training row. */
    labels: i32,
    /** Mean distance from a training row to its best-matching unit's weights. */
    quantization_error: z.number().min(0),
    n_iter: z.int().min(0),
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      const units = s.grid_rows * s.grid_cols;
      if (!checkLength(s.weights, units * s.features.length, "weights", report, `${units} units × ${s.features.length} features`) || !checkFinite(s.weights, "weights", report)) return;
      const bad = s.labels.findIndex((l) => l < 0 || l >= units);
      if (bad >= 0) report(`labels[${bad}] is not a unit of the map`, ["labels", bad]);
    }),
  );
export type SomState = z.infer<typeof somState>;

const gridOf = (s: { grid_rows: number; grid_cols: number; topology: Grid["topology"] }): Grid => ({ rows: s.grid_rows, cols: s.grid_cols, topology: s.topology });

function initialRows(n: number, units: number, rng: Rng): number[] {
  if (units > n) return Array.from({ length: units }, () => rng.int(n));
  const order = Array.from({ length: n }, (_, i) => i);
  for (let t = 0; t < units; t++) {
    const j = t + rng.int(n - t);
    [order[t], order[j]] = [order[j], order[t]];
  }
  return order.slice(0, units);
}

function fit(name: string, train: TrainingSet, params: SomParams, ctx: FitContext): SomState {
  if (train.target) throw new UnusableInputError(`${name} is unsupervised: train it without a target`);
  const features = numericFeatureNames(train.X);
  const d = features.length;
  const n = train.X.rowCount;
  if (n < 1) throw new UnusableInputError(`${name} needs at least one training row`);
  if (d < 1) throw new UnusableInputError(`${name} needs at least one feature`);
  const X = rowMajor(train.X);
  const grid: Grid = { rows: params.grid_rows, cols: params.grid_cols, topology: params.topology };
  const units = grid.rows * grid.cols;
  const W = new Float64Array(units * d);
  initialRows(n, units, ctx.rng).forEach((r, u) => W.set(X.subarray(r * d, r * d + d), u * d));
  const sigma0 = params.sigma ?? Math.max(1, Math.max(grid.rows, grid.cols) / 2);
  trainSom(W, grid, X, n, d, { iterations: params.max_iter, learningRate: [params.learning_rate, params.learning_rate_final], sigma: [sigma0, params.sigma_final] }, ctx.rng, ctx.signal, ctx.progress);
  const labels = new Int32Array(n);
  let error = 0;
  for (let i = 0; i < n; i++) {
    const bmu = bestMatchingUnit(W, units, X, i, d);
    labels[i] = bmu.unit;
    error += Math.sqrt(bmu.distance);
  }
  ctx.progress(1);
  return { features, grid_rows: grid.rows, grid_cols: grid.cols, topology: grid.topology, weights: W, labels, quantization_error: error / n, n_iter: params.max_iter };
}

function bmus(s: SomState, frame: Frame): Int32Array {
  const d = s.features.length;
  const X = rowMajor(selectColumns(frame, s.features));
  const units = s.grid_rows * s.grid_cols;
  return Int32Array.from({ length: frame.rowCount }, (_, i) => bestMatchingUnit(s.weights, units, X, i, d).unit);
}

function predictClusters(s: SomState, frame: Frame): Prediction {
  return { task: "clustering", labels: bmus(s, frame) };
}

function predictPositions(s: SomState, frame: Frame): Prediction {
  const P = unitPositions(gridOf(s));
  const units = bmus(s, frame);
  const values = new Float64Array(2 * units.length);
  units.forEach((u, i) => {
    values[2 * i] = P[2 * u];
    values[2 * i + 1] = P[2 * u + 1];
  });
  return { task: "projection", values, dims: 2 };
}

/**
 * The map: per unit its grid place, training rows (hits), U-matrix value and weight vector.
 * Hits and the U-matrix come first (two numbers per unit), then weight vectors while
 * max_values lasts; `truncated` says what was left out.
 */
function explain(s: SomState, maxValues: number | undefined): Record<string, unknown> {
  const d = s.features.length;
  const units = s.grid_rows * s.grid_cols;
  const budget = new ValueBudget(maxValuesOf(maxValues));
  const hits = new Int32Array(units);
  for (const l of s.labels) hits[l]++;
  const u = uMatrix(s.weights, gridOf(s), d);
  const { values: uValues, truncated: uCut } = budget.take(u);
  const { values: hitValues, truncated: hitCut } = budget.take(hits);
  const weights: Record<string, number>[] = [];
  for (let k = 0; k < units && budget.remaining >= d; k++) {
    const { values } = budget.take(s.weights.subarray(k * d, k * d + d));
    weights.push(Object.fromEntries(values.map((v, j) => [s.features[j], v])));
  }
  const grid = (flat: number[]) => Array.from({ length: Math.ceil(flat.length / s.grid_cols) }, (_, r) => flat.slice(r * s.grid_cols, (r + 1) * s.grid_cols));
  return {
    grid: { rows: s.grid_rows, cols: s.grid_cols, topology: s.topology },
    n_iter: s.n_iter,
    quantization_error: s.quantization_error,
    /** u_matrix[r][c]: mean distance from unit (r, c)'s weights to its grid neighbours'. */
    u_matrix: grid(uValues),
    hits: grid(hitValues),
    /** weights[r·cols + c]: unit (r, c)'s weight vector. */
    weights,
    ...(uCut || hitCut || weights.length < units ? { truncated: true } : {}),
  };
}

const shared = {
  family: "neural",
  params: somParams,
  state: somState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // Euclidean distances to the units' weights in input units
  trainingLabels: (s: SomState) => s.labels,
  explain: (s: SomState, options?: { maxValues?: number }) => explain(s, options?.maxValues),
} as const;

export const som: Algorithm<SomParams, SomState> = {
  ...shared,
  name: "som",
  tasks: ["clustering"],
  description: "Self-organising map: a rectangular or hexagonal grid of units trained with a decaying Gaussian neighbourhood; each row's cluster is its best-matching unit; explain gives the weights and the U-matrix.",
  fit: (train, params, ctx) => fit("som", train, params, ctx),
  predict: predictClusters,
};

export const somProjection: Algorithm<SomParams, SomState> = {
  ...shared,
  name: "som_projection",
  tasks: ["projection"],
  description: "Self-organising map as a projection: each row goes to the grid position (row, column) of its best-matching unit; the same fit and explain as som.",
  fit: (train, params, ctx) => fit("som_projection", train, params, ctx),
  predict: predictPositions,
  // The new dataset's columns (POST /v1/models/{id}/transform): the unit's grid row and column.
  outputNames: () => ["som_row", "som_col"],
};
