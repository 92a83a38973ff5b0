/**
 * Classical multidimensional scaling, as seed 002 writes it: from the squared
 * distances dist²ᵢⱼ of the training rows, the inner products
 *   bᵢⱼ = −½ (dist²ᵢⱼ − dist²ᵢ· − dist²·ⱼ + dist²··),
 * B = V Λ Vᵀ, and the coordinates Z = Λ*^{1/2} V*ᵀ of the top eigenpairs, so that
 * distances between rows survive as well as d dimensions allow.
 *
 * New rows (validation, prediction) get Gower's out-of-sample formula — the one
 * Bengio et al. (2004) show is the Nyström extension of the embedding:
 *   z(x) = ½ Λ*^{−1/2} V*ᵀ (δ̄ − δ(x)),
 * with δ(x) the squared distances from x to the training rows and δ̄ their column
 * means over the training rows. For a training row it gives back its own
 * coordinates, so fit and apply agree.
 *
 * B is m × m, so at most `max_landmarks` training rows (drawn with the seed when
 * there are more) carry the embedding — landmark MDS (de Silva & Tenenbaum), the
 * same formula placing every other row. Dimensions beyond the rank of B (zero
 * eigenvalues) come out as 0. A missing cell at apply time counts as the
 * landmarks' mean of its column.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import { permutation } from "../../data/random.js";
import { byColumn, pickColumns } from "../../data/transforms/transform.js";
import { f64 } from "../../models/state-schemas.js";
import { completeNumericInputs, numericInputsOf, outputNames, planReplace, replaceInputs } from "./numeric-inputs.js";
import { symmetricEigenDescending } from "./pca.js";
import type { TypedStep } from "./typed-step.js";

const STEP = "mds";
/** B is landmarks × landmarks and goes through a dense eigendecomposition: 2000² doubles is 32 MB per copy. */
const MAX_LANDMARKS = 2000;

export const mdsSpec = z
  .object({
    /** Default: every numeric column. */
    columns: z.array(z.string()).optional(),
    n_components: z
      .number()
      .int()
      .min(1)
      .max(MAX_LANDMARKS - 1)
      .default(2)
      .describe(`Output coordinates; m landmarks give at most m − 1, so at most max_landmarks − 1 (≤ ${MAX_LANDMARKS - 1}).`),
    /** Training rows that carry the embedding (B is landmarks × landmarks). */
    max_landmarks: z
      .number()
      .int()
      .min(2)
      .max(MAX_LANDMARKS)
      .default(500)
      .describe(`Training rows that carry the embedding (drawn with the seed when there are more). At most ${MAX_LANDMARKS}: B is landmarks × landmarks and is eigendecomposed densely.`),
    prefix: z.string().min(1).default("mds"),
  })
  .strict()
  // Checked here, before plan() names one output column per component.
  .refine((s) => s.n_components < s.max_landmarks, {
    message: "n_components must be below max_landmarks: m landmarks give at most m − 1 dimensions",
    path: ["n_components"],
  });

export const mdsFitted = z
  .object({
    columns: z.array(z.string()),
    names: z.array(z.string()),
    /** m × p row-major. */
    landmarks: f64,
    /** Per column: stands in for a missing cell. */
    fill: f64,
    /** δ̄: mean squared distance from each landmark to the others (m). */
    mean_sq_distance: f64,
    /** d × m row-major: ½ Λ^{−1/2} Vᵀ (rows of zero eigenvalue are zero). */
    projection: f64,
    eigenvalues: f64,
  })
  .strict()
  .refine(
    (f) => {
      const p = f.columns.length;
      const m = f.mean_sq_distance.length;
      return f.landmarks.length === m * p && f.fill.length === p && f.projection.length === f.names.length * m && f.eigenvalues.length === f.names.length;
    },
    { message: "shapes do not match" },
  );

export type MdsSpec = z.infer<typeof mdsSpec>;
export type MdsFitted = z.infer<typeof mdsFitted>;

/** Squared Euclidean distances from each row of `rows` (n × p) to each landmark (m × p): n × m. */
function squaredDistances(rows: Float64Array, n: number, landmarks: Float64Array, m: number, p: number): Float64Array {
  const out = new Float64Array(n * m);
  for (let i = 0; i < n; i++) {
    for (let l = 0; l < m; l++) {
      let s = 0;
      for (let j = 0; j < p; j++) {
        const t = rows[i * p + j] - landmarks[l * p + j];
        s += t * t;
      }
      out[i * m + l] = s;
    }
  }
  return out;
}

export const mdsStep: TypedStep<MdsSpec, MdsFitted> = {
  name: STEP,
  description: "Classical multidimensional scaling: numeric columns onto coordinates that keep the distances between rows; new rows by the out-of-sample formula.",
  spec: mdsSpec,
  fitted: mdsFitted,

  fit(frame, spec, ctx) {
    const { names: inputs, columns } = completeNumericInputs(frame, spec.columns, STEP);
    const n = frame.rowCount;
    const p = columns.length;
    if (n < 2) throw new DataError(`${STEP}: needs at least two training rows`, "columns");
    const rows = n <= spec.max_landmarks ? Int32Array.from({ length: n }, (_, i) => i) : permutation(n, ctx.rng).subarray(0, spec.max_landmarks).sort();
    const m = rows.length;
    const d = spec.n_components;
    if (d > m - 1) throw new DataError(`${STEP}: n_components = ${d}, and ${m} rows give at most ${m - 1} dimensions`, "n_components");
    const landmarks = new Float64Array(m * p);
    for (let l = 0; l < m; l++) for (let j = 0; j < p; j++) landmarks[l * p + j] = columns[j][rows[l]];
    const d2 = squaredDistances(landmarks, m, landmarks, m, p);
    const rowMean = new Float64Array(m);
    let grand = 0;
    for (let a = 0; a < m; a++) {
      let s = 0;
      for (let b = 0; b < m; b++) s += d2[a * m + b];
      rowMean[a] = s / m;
      grand += s;
    }
    grand /= m * m;
    const B = new Float64Array(m * m);
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) B[a * m + b] = -0.5 * (d2[a * m + b] - rowMean[a] - rowMean[b] + grand);
    const { values, vectors } = symmetricEigenDescending(B, m);
    const top = Math.max(0, values[0]);
    const projection = new Float64Array(d * m);
    const eigenvalues = new Float64Array(d);
    for (let k = 0; k < d; k++) {
      const lambda = values[k];
      // Below rounding noise B has no such direction: that coordinate is 0, not noise / √noise.
      if (!(lambda > top * 1e-10)) continue;
      eigenvalues[k] = lambda;
      const f = 0.5 / Math.sqrt(lambda);
      for (let l = 0; l < m; l++) projection[k * m + l] = f * vectors[k * m + l];
    }
    const fill = new Float64Array(p);
    for (let j = 0; j < p; j++) {
      let s = 0;
      for (let l = 0; l < m; l++) s += landmarks[l * p + j];
      fill[j] = s / m;
    }
    const names = outputNames(
      spec.prefix,
      d,
      frame.columns.map((c) => c.name),
      inputs,
      STEP,
    );
    return { columns: inputs, names, landmarks, fill, mean_sq_distance: rowMean, projection, eigenvalues };
  },

  apply(fitted, frame) {
    const inputs = numericInputsOf(frame, fitted.columns, STEP);
    const n = frame.rowCount;
    const p = inputs.length;
    const m = fitted.mean_sq_distance.length;
    const d = fitted.names.length;
    const outputs = Array.from({ length: d }, () => new Float64Array(n));
    // In blocks of rows, so the n × m distance matrix never exists at once.
    const block = 256;
    const rows = new Float64Array(block * p);
    for (let start = 0; start < n; start += block) {
      const size = Math.min(block, n - start);
      for (let i = 0; i < size; i++) {
        for (let j = 0; j < p; j++) {
          const v = inputs[j][start + i];
          rows[i * p + j] = v === v ? v : fitted.fill[j];
        }
      }
      const dist = squaredDistances(rows, size, fitted.landmarks, m, p);
      for (let i = 0; i < size; i++) {
        for (let k = 0; k < d; k++) {
          let s = 0;
          for (let l = 0; l < m; l++) s += fitted.projection[k * m + l] * (fitted.mean_sq_distance[l] - dist[i * m + l]);
          outputs[k][start + i] = s;
        }
      }
    }
    return replaceInputs(frame, fitted.columns, fitted.names, outputs);
  },

  describe(fitted) {
    return {
      input_columns: [...fitted.columns],
      output_columns: [...fitted.names],
      landmarks: fitted.mean_sq_distance.length,
      eigenvalues: byColumn(fitted.names, fitted.eigenvalues),
    };
  },

  plan(spec, columns) {
    const chosen = pickColumns(columns, spec.columns, ["numeric"], STEP).map((c) => c.name);
    if (chosen.length === 0) return null;
    return planReplace(
      columns,
      chosen,
      Array.from({ length: spec.n_components }, (_, k) => `${spec.prefix}${k + 1}`),
    );
  },
};
