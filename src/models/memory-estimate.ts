/**
 * What fitting one algorithm can hold in memory at its peak, from its params and
 * the shape of the data it receives — arithmetic only, so spec resolution can
 * refuse an absurd request before a job is queued (src/training/memory-estimate.ts
 * adds the data and the preprocessing steps).
 *
 * Method: each family lists the buffers its fit allocates (typed arrays at 8
 * bytes a value, object-heavy structures at a rounded-up size per entry), at
 * their largest over the whole fit, and the terms are summed even where the fit
 * frees one before allocating the next. It is a guard against requests that
 * cannot fit, not a model of the heap: it errs on the generous side, and each
 * term names the parameter (or `features`) a client would change to shrink it.
 *
 * Params are read by name and defensively (a family may regroup its options):
 * a field that is absent or of another shape falls back to its usual default.
 */
import type { Algorithm } from "./contract.js";
import { EXHAUSTIVE_MAX_CLASSES } from "./multiclass/code-matrix.js";

export const BYTES_PER_VALUE = 8;
const MB = 1 << 20;

/** The data an algorithm is fitted on, as known before fitting. */
export interface MemoryShape {
  /** Training rows (after resampling steps). */
  readonly rows: number;
  /** Input columns the algorithm receives (numeric, plus categorical ones if it takes them). */
  readonly features: number;
  /** Levels of each categorical column the algorithm receives (empty when it takes none). */
  readonly levels: readonly number[];
  /** Classes of the target; 0 for regression and unsupervised tasks. */
  readonly classes: number;
}

export interface MemoryTerm {
  /** Request path a client would change to shrink this term (`params.cache_size`, `features`, …). */
  readonly path: string;
  readonly bytes: number;
  /** For the error message: what the bytes hold. */
  readonly what: string;
}

type Params = Readonly<Record<string, unknown>>;
type FamilyEstimate = (algorithm: Algorithm, params: Params, shape: MemoryShape) => MemoryTerm[];

function num(params: Params, key: string, fallback: number): number {
  const v = params[key];
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

/** A string option, or the `kind` of a tagged-union option. */
function option(params: Params, key: string): string | undefined {
  const v = params[key];
  if (typeof v === "string") return v;
  if (v !== null && typeof v === "object" && typeof (v as { kind?: unknown }).kind === "string") return (v as { kind: string }).kind;
  return undefined;
}

const values = (count: number) => count * BYTES_PER_VALUE;

/** Binary problems the multiclass wrapper fits for k classes (see multiclass/wrapper.ts codeFor). */
function binaryProblems(params: Params, k: number, fallback: "ovr" | "ovo" | "ecoc"): { strategy: string; problems: number } {
  const strategy = option(params, "multiclass") ?? fallback;
  if (k <= 2) return { strategy, problems: 1 };
  if (strategy === "ovo") return { strategy, problems: (k * (k - 1)) / 2 };
  if (strategy !== "ecoc") return { strategy, problems: k };
  if (option(params, "code_matrix") === "exhaustive") return { strategy, problems: 2 ** (Math.min(k, EXHAUSTIVE_MAX_CLASSES) - 1) - 1 };
  return { strategy, problems: Math.max(Math.ceil(Math.log2(k)), Math.floor(num(params, "code_size", 1.5) * k)) };
}

/**
 * The wrapper's own cost beyond one binary fit: the k × m code matrix, m stored models,
 * and the n × m scores (and positive-side probabilities) decoded at prediction time.
 */
function multiclassTerms(params: Params, shape: MemoryShape, modelBytes: (problems: number, modelRows: number) => number, fallback: "ovr" | "ovo" | "ecoc"): MemoryTerm[] {
  if (shape.classes <= 2) return [];
  const { strategy, problems } = binaryProblems(params, shape.classes, fallback);
  const path = strategy === "ecoc" && option(params, "code_matrix") !== "exhaustive" ? "params.code_size" : "params.multiclass";
  // One-vs-one: each row is seen by the k − 1 problems of its class, so the models together span (k − 1)·n rows.
  const modelRows = strategy === "ovo" ? (shape.classes - 1) * shape.rows : problems * shape.rows;
  return [
    {
      path,
      bytes: shape.classes * problems + modelBytes(problems, modelRows) + values(2 * shape.rows * problems),
      what: `${problems.toLocaleString("en")} binary problems (${strategy}) for ${shape.classes} classes: code matrix, models and per-row scores`,
    },
  ];
}

const tree: FamilyEstimate = (algorithm, _params, shape) => {
  const { rows: n, features: p } = shape;
  const width = Math.max(1, shape.classes);
  // Multiway splits add one node per level; counted as if each categorical column were split on once.
  const levels = shape.levels.reduce((a, b) => a + b, 0);
  const nodes = 2 * n + levels;
  const terms: MemoryTerm[] = [
    // Per numeric feature: sorted row ids, values and targets (~24 B a row); split candidates kept for explain (~48 B a feature per internal node).
    { path: "features", bytes: n * p * 72, what: `sorted columns and split candidates (${n} rows × ${p} features)` },
    { path: levels > 2 * n ? "features" : "params.max_depth", bytes: nodes * (96 + values(width)), what: `up to ${nodes.toLocaleString("en")} tree nodes` },
  ];
  if (algorithm.name === "oblique_tree") terms.push({ path: "features", bytes: values(2 * n * p + 4 * p * p), what: "per-node row-major copies for the oblique splits" });
  return terms;
};

/** One SMO fit over l rows: the row-major copy, the kernel-row cache (never more than l² values), support vectors and O(l) solver vectors. */
function smoTerms(params: Params, l: number, p: number, variables: number): MemoryTerm[] {
  const cacheMb = num(params, "cache_size", 200);
  return [
    { path: "params.cache_size", bytes: Math.min(cacheMb * MB, values(l * l)) + l * 64, what: `kernel cache (cache_size ${cacheMb} MB, at most ${l.toLocaleString("en")}² kernel values)` },
    { path: "features", bytes: values(2 * l * p + 12 * variables), what: `the training rows as a row-major copy, support vectors and solver state (${l} rows × ${p} features)` },
  ];
}

const svm: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  if (algorithm.tasks.includes("regression") && !algorithm.tasks.includes("classification")) return smoTerms(params, n, p, 2 * n);
  // Platt scaling refits on internal folds: their held-out copies at most double the rows in play.
  const platt = params.probability === true ? [{ path: "params.probability", bytes: values(2 * n * p), what: "Platt scaling's internal cross-validation copies" }] : [];
  return [...smoTerms(params, n, p, n), ...platt, ...multiclassTerms(params, shape, (_problems, rows) => values(rows * (p + 2)), "ovo")];
};

const linear: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const k = Math.max(1, shape.classes);
  const solver = option(params, "solver");
  const terms: MemoryTerm[] = [
    // The design matrix, its standardised copy and a residual / gradient scratch of the same size.
    { path: "features", bytes: values(3 * n * (p + 1)), what: `the design matrix and its working copies (${n} rows × ${p + 1} columns)` },
    { path: "features", bytes: values(n * k * 2), what: "per-row scores and probabilities" },
  ];
  if (algorithm.name === "lda") {
    // A p × p scatter matrix per class, the pooled one, its pseudo-inverse and the eigenproblem's matrices.
    terms.push({ path: "features", bytes: values((k + 6) * p * p), what: `${k + 6} matrices of ${p} × ${p} (class scatters, pooled covariance, eigenproblem)` });
  } else if (solver === "newton" || solver === "bfgs" || solver === "dfp") {
    // Hessian or its inverse approximation over every coefficient (one set per class for multinomial models), plus updates.
    const size = (p + 1) * (shape.classes > 2 ? k : 1);
    terms.push({ path: "params.solver", bytes: values(4 * size * size), what: `${size} × ${size} matrices of the ${solver} solver` });
  } else if (solver === "lstsq" || solver === "cholesky") {
    // Gram matrix, its factor, and the QR / SVD work arrays of the closed form.
    terms.push({ path: "params.solver", bytes: values(5 * (p + 1) * (p + 1)), what: `${p + 1} × ${p + 1} matrices of the ${solver} closed form` });
  }
  // Only the generic wrapper's strategies; logistic regression's "auto" / "multinomial" is the one multinomial model above.
  const strategy = option(params, "multiclass");
  if (strategy === "ovr" || strategy === "ovo" || strategy === "ecoc") terms.push(...multiclassTerms(params, shape, (problems) => values(problems * (p + 2)), "ovr"));
  return terms;
};

/** Units per layer: inputs, hidden layers, outputs (one for two classes or regression, k for k classes). */
function layerSizes(params: Params, shape: MemoryShape): number[] {
  const hidden = Array.isArray(params.hidden_layer_sizes) ? params.hidden_layer_sizes.filter((v): v is number => typeof v === "number") : [100];
  return [shape.features, ...hidden, shape.classes > 2 ? shape.classes : 1];
}

const neural: FamilyEstimate = (_algorithm, params, shape) => {
  const n = shape.rows;
  const sizes = layerSizes(params, shape);
  let weights = 0;
  for (let l = 0; l + 1 < sizes.length; l++) weights += (sizes[l] + 1) * sizes[l + 1];
  const units = sizes.reduce((a, b) => a + b, 0);
  const bp = option(params, "bp") ?? "minibatch";
  const batch = bp === "standard" ? 1 : bp === "accumulated" ? n : Math.min(num(params, "batch_size", 200), n);
  // The network keeps activations and deltas for max(batch, min(n, 1024)) rows (trainer.ts); validation losses use the same buffers.
  const capacity = Math.max(batch, Math.min(n, 1024));
  const out = sizes[sizes.length - 1];
  return [
    // Parameters, gradient, two optimiser moments, the best epoch's and the best restart's copies, and the state's own copy.
    { path: "params.hidden_layer_sizes", bytes: values(7 * weights), what: `${weights.toLocaleString("en")} network weights with gradients, optimiser state and kept copies` },
    {
      path: capacity > 1024 ? (bp === "accumulated" ? "params.bp" : "params.batch_size") : "params.hidden_layer_sizes",
      bytes: values(2 * capacity * units),
      what: `activations and deltas of ${capacity.toLocaleString("en")} rows × ${units.toLocaleString("en")} units`,
    },
    { path: "features", bytes: values(2 * n * (shape.features + out)), what: "the training rows and targets as row-major copies" },
  ];
};

const baseline: FamilyEstimate = (_algorithm, _params, shape) => [{ path: "features", bytes: values(shape.rows * Math.max(1, shape.classes)), what: "per-row predictions" }];

/**
 * knn keeps the training rows as the metric measures them (a categorical column as
 * its indicators under the vector metrics, one code under vdm/hvdm), and the index
 * built at the first prediction copies them once more (in tree order, or into the
 * SIMD kernel's memory with a Float32 copy beside: 1.5 copies); fitting vdm/hvdm adds
 * a levels × classes table per categorical column.
 */
const neighbors: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const codes = option(params, "metric") === "vdm" || option(params, "metric") === "hvdm";
  const levels = shape.levels.reduce((a, b) => a + b, 0);
  const width = codes ? p : p - shape.levels.length + levels;
  const terms: MemoryTerm[] = [{ path: "features", bytes: values(2.5 * n * width + 3 * n), what: `the training rows 2.5 times (state and index: ${n} rows × ${width} coordinates) and their targets` }];
  if (codes) terms.push({ path: "params.metric", bytes: values(levels * Math.max(1, shape.classes)), what: "the metric's class frequencies per level" });
  return terms;
};

const FAMILIES: Readonly<Record<string, FamilyEstimate>> = { tree, svm, linear, neural, baseline, neighbors };

/** Whether this file knows the algorithm's family (a test holds every registered algorithm to it). */
export function hasMemoryModel(algorithm: Algorithm): boolean {
  return Object.hasOwn(FAMILIES, algorithm.family);
}

/** The algorithm's peak memory as named terms (an unknown family gets the data copies a fit usually makes). */
export function estimateAlgorithmMemory(algorithm: Algorithm, params: Params, shape: MemoryShape): MemoryTerm[] {
  const family = Object.hasOwn(FAMILIES, algorithm.family) ? FAMILIES[algorithm.family] : undefined;
  if (family) return family(algorithm, params, shape);
  return [{ path: "features", bytes: values(4 * shape.rows * shape.features), what: "working copies of the training rows" }];
}
