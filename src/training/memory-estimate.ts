/**
 * A job's peak memory, estimated before it is queued from the resolved spec and
 * the dataset's stored shape (rows, columns, levels of categorical columns,
 * classes of the target). Arithmetic only: nothing here allocates in proportion
 * to a parameter, so an absurd request costs nothing to refuse.
 *
 * Method (generous on purpose — a guard, not a profile; see models/memory-estimate.ts):
 *   1. the decoded dataset (every column, 8 bytes a cell) and the validation
 *      scheme's training and held-out copies of the feature columns;
 *   2. pooled predictions: rows × classes per repetition of the scheme;
 *   3. every preprocessing step, in order, on the shape the previous one leaves:
 *      the columns it writes (rows × new columns × 8 bytes) and its own scratch
 *      (pca's p × p covariance and eigendecomposition, mds's landmark matrices,
 *      a nested estimator for rfe / lvw / l1); resampling grows the rows;
 *   4. the automatic impute and one-hot steps the algorithm's `accepts` implies, and the
 *      automatic scale of a scale-sensitive algorithm's numeric columns;
 *   5. the algorithm's own terms on the final shape.
 * All terms are summed, although folds and steps run one after another and free
 * their buffers: the estimate is meant to sit above the true peak.
 */
import { polynomialTermCount } from "../data/transforms/polynomial.js";
import { getAlgorithm } from "../models/registry.js";
import { BYTES_PER_VALUE, estimateAlgorithmMemory, type MemoryShape, type MemoryTerm } from "../models/memory-estimate.js";
import type { DatasetColumns } from "./spec.js";
import type { ResolvedSpec } from "./train.js";
import { groupDigits } from "../data/group-digits.js";

export type { MemoryTerm } from "../models/memory-estimate.js";

export interface MemoryEstimate {
  readonly bytes: number;
  readonly terms: readonly MemoryTerm[];
}

/** The data as it flows through the steps: row count, numeric column count, categorical columns by name with their level counts. */
interface FlowShape {
  rows: number;
  numeric: number;
  categorical: Map<string, number>;
}

/** The step that widened the table most, so terms proportional to the width name it rather than `features`. */
interface Widest {
  path: string;
  added: number;
}

type Spec = Readonly<Record<string, unknown>>;

const values = (count: number) => count * BYTES_PER_VALUE;
const width = (s: FlowShape) => s.numeric + s.categorical.size;
const sum = (xs: Iterable<number>) => {
  let t = 0;
  for (const x of xs) t += x;
  return t;
};

function named(spec: Spec): string[] | null {
  return Array.isArray(spec.columns) ? spec.columns.filter((c): c is string => typeof c === "string") : null;
}

/** Numeric columns a step works on: the ones named (those not known as categorical), or all. */
function chosenNumeric(spec: Spec, s: FlowShape): number {
  const names = named(spec);
  return names === null ? s.numeric : Math.min(s.numeric, names.filter((n) => !s.categorical.has(n)).length);
}

function chosenCategorical(spec: Spec, s: FlowShape): string[] {
  const names = named(spec);
  return names === null ? [...s.categorical.keys()] : names.filter((n) => s.categorical.has(n));
}

function int(spec: Spec, key: string, fallback: number): number {
  const v = spec[key];
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

/** Terms of one step, updating the flowing shape to what the step leaves. */
function stepTerms(name: string, spec: Spec, s: FlowShape, classes: number, at: string): MemoryTerm[] {
  const n = s.rows;
  const rewrite = (columns: number, path = at, what = `${name}: ${columns} rewritten columns`): MemoryTerm => ({ path, bytes: values(n * columns), what });
  switch (name) {
    case "scale":
    case "binarize":
    case "transform":
      return [rewrite(chosenNumeric(spec, s))];
    case "impute": {
      const touched = chosenNumeric(spec, s) + chosenCategorical(spec, s).length;
      if (spec.add_indicator === true) s.numeric += touched;
      return [rewrite(spec.add_indicator === true ? 2 * touched : touched)];
    }
    case "ordinal": {
      const cats = chosenCategorical(spec, s);
      cats.forEach((c) => s.categorical.delete(c));
      s.numeric += cats.length;
      return [rewrite(cats.length)];
    }
    case "one_hot": {
      const cats = chosenCategorical(spec, s);
      // max_categories caps each column's output, the infrequent column included.
      const cap = int(spec, "max_categories", Infinity);
      const levels = sum(cats.map((c) => Math.min(cap, s.categorical.get(c) ?? 0)));
      cats.forEach((c) => s.categorical.delete(c));
      s.numeric += levels;
      return [rewrite(levels, `${at}.columns`, `one_hot: ${groupDigits(levels)} indicator columns from ${cats.length} categorical columns`)];
    }
    case "target_encode": {
      const cats = chosenCategorical(spec, s);
      const outputs = cats.length * (classes > 2 ? classes : 1);
      cats.forEach((c) => s.categorical.delete(c));
      s.numeric += outputs;
      // The encoded columns, and per output a 0/1 copy of the target.
      return [rewrite(outputs + (classes > 2 ? classes : 1), `${at}.columns`, `target_encode: ${groupDigits(outputs)} encoded columns from ${cats.length} categorical columns`)];
    }
    case "polynomial": {
      const p = chosenNumeric(spec, s);
      const terms = polynomialTermCount(p, int(spec, "degree", 2), spec.interaction_only === true, spec.include_bias === true);
      s.numeric += terms - p;
      return [rewrite(terms, `${at}.degree`, `polynomial: ${groupDigits(terms)} product columns from ${p} columns`)];
    }
    case "pca": {
      const p = chosenNumeric(spec, s);
      const d = Math.min(int(spec, "n_components", Math.min(n, p)), p);
      s.numeric += d - p;
      return [
        // Covariance, its dense copy for the eigendecomposition (arrays of arrays, ~2×), eigenvectors and the sorted copy.
        { path: `${at}.columns`, bytes: values(6 * p * p), what: `pca: covariance and eigendecomposition of ${p} columns` },
        { path: `${at}.n_components`, bytes: values(2 * n * d), what: `pca: ${d} component columns and their sign check` },
      ];
    }
    case "lda_projection": {
      const p = chosenNumeric(spec, s);
      const d = Math.min(int(spec, "n_components", Math.max(1, classes - 1)), p);
      s.numeric += d - p;
      return [
        { path: `${at}.columns`, bytes: values((classes + 6) * p * p), what: `lda_projection: scatter matrices and generalised eigenproblem of ${p} columns` },
        { path: `${at}.n_components`, bytes: values(n * d), what: `lda_projection: ${d} projected columns` },
      ];
    }
    case "rbm": {
      const p = chosenNumeric(spec, s);
      const k = int(spec, "n_components", 16);
      const batch = Math.min(n, int(spec, "batch_size", 10));
      s.numeric += k - p;
      return [
        // The [0, 1] copy of the inputs, the weights, and the batch's phases; at apply, n × K probabilities and their columns.
        { path: `${at}.n_components`, bytes: values(n * p + p * k + 4 * batch * (p + k) + 2 * n * k), what: `rbm: ${p} × ${k} weights and ${k} hidden-unit columns over ${groupDigits(n)} rows` },
      ];
    }
    case "mds": {
      const p = chosenNumeric(spec, s);
      const m = Math.min(n, int(spec, "max_landmarks", 500));
      const d = int(spec, "n_components", 2);
      s.numeric += d - p;
      return [
        // Squared distances, B, its dense copy for the eigendecomposition (~2×) and the eigenvectors, each m × m.
        { path: `${at}.max_landmarks`, bytes: values(6 * m * m + m * p), what: `mds: ${m} × ${m} landmark matrices` },
        { path: `${at}.n_components`, bytes: values(n * d), what: `mds: ${d} coordinate columns over ${groupDigits(n)} rows` },
      ];
    }
    case "nca": {
      const p = chosenNumeric(spec, s);
      const d = Math.min(int(spec, "n_components", p), p);
      s.numeric += d - p;
      return [
        // One evaluation's n × n softmax / weight matrix, the row-major input, the embedding and L-BFGS's history of the c × p map.
        { path: `${at}.max_rows`, bytes: values(n * n + n * (p + 2 * d) + 25 * d * p), what: `nca: a ${groupDigits(n)} × ${groupDigits(n)} matrix per evaluation` },
        { path: `${at}.n_components`, bytes: values(n * d), what: `nca: ${d} output columns` },
      ];
    }
    case "lmnn": {
      const p = chosenNumeric(spec, s);
      const d = Math.min(int(spec, "n_components", p), p);
      s.numeric += d - p;
      return [
        // No n × n matrix: the row-major input, the embedding, per-row pair weights and sums, the target list, d × d sums and L-BFGS's history.
        { path: `${at}.max_rows`, bytes: values(n * (2 * p + d + 4) + p * p + 25 * d * p) + 4 * n * int(spec, "n_neighbors", 3), what: `lmnn: ${groupDigits(n)} rows' input, embedding and pair weights` },
        { path: `${at}.n_components`, bytes: values(n * d), what: `lmnn: ${d} output columns` },
      ];
    }
    case "select":
      return selectTerms(spec, s, classes, at);
    case "resample": {
      if (spec.method === "undersample") return [];
      // Oversampling raises each of the other k − 1 classes to ratio × the majority (at most n rows each).
      const grown = Math.ceil(n * (1 + Math.max(1, classes - 1) * int(spec, "ratio", 1)));
      s.rows = grown;
      return [{ path: `${at}.ratio`, bytes: values(grown * (width(s) + 1)), what: `resample: up to ${groupDigits(grown)} rows after ${String(spec.method)}` }];
    }
    default:
      return [rewrite(width(s))];
  }
}

/** Filters score columns (k-NN estimators keep a few row-sized buffers); wrappers and l1 fit an estimator, whose own terms count. */
function selectTerms(spec: Spec, s: FlowShape, classes: number, at: string): MemoryTerm[] {
  const terms: MemoryTerm[] = [{ path: `${at}.method`, bytes: values(4 * s.rows * width(s)), what: `select: ${String(spec.method)} over ${width(s)} candidate columns` }];
  const method = spec.method;
  if (method !== "rfe" && method !== "lvw" && method !== "l1") return terms;
  const estimator = typeof spec.estimator === "string" ? spec.estimator : method === "l1" ? (classes > 0 ? "logistic_regression" : "lasso") : "cart";
  const algorithm = getAlgorithm(estimator);
  if (!algorithm) return terms;
  const parsed = algorithm.params.safeParse(spec.estimator_params ?? {});
  const params = parsed.success ? (parsed.data as Record<string, unknown>) : {};
  const shape: MemoryShape = { rows: s.rows, features: width(s), levels: algorithm.accepts.categorical ? [...s.categorical.values()] : [], classes };
  for (const t of estimateAlgorithmMemory(algorithm, params, shape)) {
    terms.push({ ...t, path: t.path.startsWith("params.") ? `${at}.estimator_params.${t.path.slice("params.".length)}` : `${at}.columns`, what: `select ${String(method)} estimator ${estimator}: ${t.what}` });
  }
  return terms;
}

/** The option to change when a step's output columns make the table too wide. */
const WIDENING_OPTION: Readonly<Record<string, string>> = { one_hot: "columns", polynomial: "degree", pca: "n_components", lda_projection: "n_components", mds: "n_components", rbm: "n_components", nca: "n_components", lmnn: "n_components", impute: "add_indicator" };

function repetitions(validation: ResolvedSpec["validation"]): number {
  const v = validation as { method: string; repeats?: number; rounds?: number };
  if (v.method === "kfold") return v.repeats ?? 1;
  if (v.method === "five_by_two") return 5;
  if (v.method === "bootstrap" || v.method === "bias_variance") return v.rounds ?? 1;
  return 1;
}

export function estimateJobMemory(spec: Pick<ResolvedSpec, "algorithm" | "params" | "target" | "features" | "steps" | "validation"> & Partial<Pick<ResolvedSpec, "autoScale">>, dataset: DatasetColumns): MemoryEstimate {
  const byName = new Map(dataset.columns.map((c) => [c.name, c]));
  const n = dataset.row_count;
  const target = spec.target === null ? undefined : byName.get(spec.target);
  const classes = target?.type === "categorical" ? (target.levels?.length ?? 0) : 0;
  const flow: FlowShape = { rows: n, numeric: 0, categorical: new Map() };
  for (const f of spec.features) {
    const c = byName.get(f);
    if (c?.type === "categorical") flow.categorical.set(f, c.levels?.length ?? 0);
    else flow.numeric++;
  }

  const terms: MemoryTerm[] = [
    { path: "dataset_id", bytes: values(n * (dataset.columns.length + 2 * spec.features.length)), what: `the dataset (${groupDigits(n)} rows × ${dataset.columns.length} columns) and its training / held-out copies` },
    { path: "validation", bytes: values(n * Math.max(1, classes) * repetitions(spec.validation)), what: "pooled held-out predictions" },
  ];
  let widest: Widest = { path: "features", added: spec.features.length };
  spec.steps.forEach((step, i) => {
    const before = width(flow);
    const stepSpec = step.spec as Spec;
    terms.push(...stepTerms(step.step, stepSpec, flow, classes, `preprocessing[${i}]`));
    const added = width(flow) - before;
    if (added > widest.added) widest = { path: `preprocessing[${i}].${WIDENING_OPTION[step.step] ?? "step"}`, added };
  });

  const algorithm = spec.algorithm;
  if (!algorithm.accepts.missing) terms.push({ path: "features", bytes: values(flow.rows * width(flow)), what: "automatic imputation of the feature columns" });
  const autoScaled = spec.autoScale !== false && algorithm.scaleSensitive && !spec.steps.some((s) => s.step === "scale") ? flow.numeric : 0;
  if (autoScaled > 0) terms.push({ path: "auto_scale", bytes: values(flow.rows * autoScaled), what: `automatic standardisation of ${groupDigits(autoScaled)} numeric columns` });
  if (!algorithm.accepts.categorical && flow.categorical.size > 0) {
    let column = "";
    for (const [name, levels] of flow.categorical) if (column === "" || levels > (flow.categorical.get(column) ?? 0)) column = name;
    const levels = sum(flow.categorical.values());
    const index = spec.features.indexOf(column);
    const path = index >= 0 ? `features.${index}` : "features";
    terms.push({
      path,
      bytes: values(flow.rows * levels),
      what: `automatic one-hot encoding: ${groupDigits(levels)} indicator columns ("${column}" alone has ${flow.categorical.get(column)} levels)`,
    });
    if (levels - flow.categorical.size > widest.added) widest = { path, added: levels - flow.categorical.size };
    flow.numeric += levels;
    flow.categorical.clear();
  }
  const shape: MemoryShape = { rows: flow.rows, features: width(flow), levels: [...flow.categorical.values()], classes };
  for (const t of estimateAlgorithmMemory(algorithm, spec.params, shape)) terms.push(t.path === "features" ? { ...t, path: widest.path } : t);
  return { bytes: sum(terms.map((t) => t.bytes)), terms };
}

/** Steps the estimate models one by one; any other step counts as rewriting every column (a test keeps this list honest). */
export const MODELLED_STEPS: readonly string[] = ["scale", "binarize", "transform", "impute", "ordinal", "one_hot", "polynomial", "pca", "lda_projection", "mds", "nca", "lmnn", "select", "resample", "target_encode", "rbm"];
