/**
 * `kernel_pca` (seed 002 核化线性降维; scikit-learn's KernelPCA): principal components in
 * the feature space of a kernel — the SVM's kernels (linear, poly, rbf, sigmoid; the same
 * code, src/models/svm/kernel.ts, and the same gamma options). The n × n kernel matrix
 * of the training rows is centred and eigendecomposed (kernel-eigenmap.ts); a new row
 * is placed by its centred kernel values against the training rows, which the model
 * keeps. At most KERNEL_PCA_MAX_ROWS training rows (limits.ts).
 *
 * Parity with scikit-learn 1.2 (eigen_solver="dense"): the same coordinates, signs
 * included (both flip each eigenvector so its largest entry is positive). Defaults
 * differ: scikit-learn's kernel is linear with gamma 1/n_features; here rbf and gamma
 * "scale", as the SVM.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import { UnusableInputError, throwIfAborted, type Algorithm, type FitContext, type TrainingSet } from "../contract.js";
import { numericFeatureNames, rowMajor } from "../design-matrix.js";
import { checkFinite, checkLength, checkUnique, f64, structural } from "../state-schemas.js";
import { KernelFunction, resolveGamma, squaredNorms, type KernelSpec } from "../svm/kernel.js";
import { kernelParamsShape } from "../svm/params.js";
import { fitKernelEigenmap, transformInBlocks } from "./kernel-eigenmap.js";
import { KERNEL_PCA_MAX_ROWS } from "./limits.js";
import { BoundedExplanation, featureRows, featuresField, outputNamesOf, projectionOf, requireUnsupervised } from "./shared.js";
import { groupDigits } from "../../data/group-digits.js";

const PREFIX = "kpc";

export const kernelPcaParams = z
  .object({
    n_components: z
      .number()
      .int()
      .min(1)
      .max(KERNEL_PCA_MAX_ROWS)
      .nullable()
      .default(null)
      .describe(`Components to keep; null: every one of positive eigenvalue (scikit-learn's None). At most the training rows (≤ ${KERNEL_PCA_MAX_ROWS}).`),
    kernel: kernelParamsShape.kernel,
    degree: kernelParamsShape.degree,
    gamma: kernelParamsShape.gamma,
    coef0: kernelParamsShape.coef0,
  })
  .strict();
export type KernelPcaParams = z.infer<typeof kernelPcaParams>;

const kernelState = z.object({ kind: z.enum(["linear", "poly", "rbf", "sigmoid"]), gamma: z.number(), degree: z.int().min(1).max(20), coef0: z.number() }).strict();

/** The eigenmap's fields, shared with isomap's state. */
export const eigenmapFields = { scaled_alphas: f64, eigenvalues: f64, k_fit_rows: f64, k_fit_all: z.number() };

export const kernelPcaState = z
  .object({
    features: featuresField,
    kernel: kernelState,
    /** The training rows, n × features row-major: a new row's kernel values are taken against them. */
    X_fit: f64,
    ...eigenmapFields,
  })
  .strict()
  .superRefine(
    structural((s, report) => {
      const p = s.features.length;
      const n = s.k_fit_rows.length;
      const d = s.eigenvalues.length;
      if (!checkUnique(s.features, "feature", report, ["features"])) return;
      if (n < 2 || n > KERNEL_PCA_MAX_ROWS || d < 1 || d > n) return report(`has ${n} training rows and ${d} components; needs 2 to ${KERNEL_PCA_MAX_ROWS} rows and 1 to rows components`, ["k_fit_rows"]);
      if (!checkLength(s.X_fit, n * p, "X_fit", report, `${n} rows × ${p} features`) || !checkLength(s.scaled_alphas, n * d, "scaled_alphas", report, `${n} × ${d}`)) return;
      for (const key of ["X_fit", "scaled_alphas", "eigenvalues", "k_fit_rows"] as const) if (!checkFinite(s[key], key, report)) return;
      if (!Number.isFinite(s.k_fit_all) || !Number.isFinite(s.kernel.gamma)) report("k_fit_all and the kernel's gamma must be finite", ["k_fit_all"], true);
    }),
  );
export type KernelPcaState = z.infer<typeof kernelPcaState>;

/** Kernel values of `size` rows of A (from `start`) against every row of B: size × nB into `out`. */
function kernelBlock(kernel: KernelFunction, A: Float64Array, sqA: Float64Array, start: number, size: number, B: Float64Array, sqB: Float64Array, out: Float64Array): void {
  const nB = sqB.length;
  for (let i = 0; i < size; i++) for (let l = 0; l < nB; l++) out[i * nB + l] = kernel.value(A, start + i, sqA[start + i], B, l, sqB[l]);
}

function fit(train: TrainingSet, params: KernelPcaParams, ctx: FitContext): KernelPcaState {
  requireUnsupervised(train, "kernel_pca");
  const features = numericFeatureNames(train.X);
  const n = train.X.rowCount;
  const p = features.length;
  if (n > KERNEL_PCA_MAX_ROWS) {
    throw new UnusableInputError(`kernel_pca eigendecomposes the n × n kernel matrix and accepts at most ${groupDigits(KERNEL_PCA_MAX_ROWS)} training rows (this fit has ${groupDigits(n)}); sample the rows, or use pca`);
  }
  if (params.n_components !== null && params.n_components > n) throw new UnusableInputError(`kernel_pca: n_components = ${params.n_components}, and there are only ${n} training rows`);
  const X = rowMajor(train.X);
  const spec: KernelSpec = { kind: params.kernel, gamma: resolveGamma(params.gamma, X, p), degree: params.degree, coef0: params.coef0 };
  const kernel = new KernelFunction(spec, p);
  const sq = squaredNorms(X, n, p);
  const K = new Float64Array(n * n);
  kernelBlock(kernel, X, sq, 0, n, X, sq, K);
  throwIfAborted(ctx.signal);
  const map = fitKernelEigenmap(K, n, params.n_components, ctx.signal);
  ctx.progress(1);
  return { features, kernel: spec, X_fit: X as Float64Array<ArrayBuffer>, ...map };
}

function predict(s: KernelPcaState, X: Frame) {
  const p = s.features.length;
  const m = X.rowCount;
  const rows = featureRows(X, s.features);
  const kernel = new KernelFunction(s.kernel, p);
  const sqRows = squaredNorms(rows, m, p);
  const sqFit = squaredNorms(s.X_fit, s.k_fit_rows.length, p);
  return projectionOf(
    transformInBlocks(s, m, (start, size, out) => kernelBlock(kernel, rows, sqRows, start, size, s.X_fit, sqFit, out)),
    m,
  );
}

export const kernelPca: Algorithm<KernelPcaParams, KernelPcaState> = {
  name: "kernel_pca",
  family: "projection",
  tasks: ["projection"],
  description: `Kernel PCA with the SVM's kernels (linear, poly, rbf, sigmoid): principal components of the centred kernel matrix; new rows by their centred kernel values against the training rows (at most ${groupDigits(KERNEL_PCA_MAX_ROWS)}).`,
  params: kernelPcaParams,
  state: kernelPcaState,
  accepts: { categorical: false, missing: false, weights: false },
  scaleSensitive: true, // rbf distances and poly/sigmoid dot products are in input units
  fit,
  predict,
  outputNames: (s) => outputNamesOf(PREFIX, s.eigenvalues.length),
  explain(s, options) {
    const names = outputNamesOf(PREFIX, s.eigenvalues.length);
    return new BoundedExplanation(options?.maxValues).set("kernel", s.kernel).set("training_rows", s.k_fit_rows.length).byOutput("eigenvalues", names, s.eigenvalues).out;
  },
};
