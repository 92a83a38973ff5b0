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
import { AGNES_MAX_ROWS, DIANA_MAX_ROWS, KMEDOIDS_MAX_ROWS } from "./cluster/limits.js";
import { ELKAN_MAX_BOUNDS } from "./cluster/kmeans-engine.js";
import { CORE_BATCH_NEIGHBOURS } from "./cluster/optics-graph.js";
import { MAX_RBF_ROWS as SEMI_MAX_RBF_ROWS } from "./semi/label-propagation.js";
import { ISOMAP_MAX_ROWS, KERNEL_PCA_MAX_ROWS } from "./projection/limits.js";
import { getAlgorithm } from "./registry.js";
import { groupDigits } from "../data/group-digits.js";

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
      what: `${groupDigits(problems)} binary problems (${strategy}) for ${shape.classes} classes: code matrix, models and per-row scores`,
    },
  ];
}

/** An incremental tree's kept rows (tree-state.ts instances): a value per feature, a class and a weight per row. */
const keptRows = (rows: number, features: number) => values(rows * (features + 2));

const tree: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const width = Math.max(1, shape.classes);
  // Multiway splits add one node per level; counted as if each categorical column were split on once.
  const levels = shape.levels.reduce((a, b) => a + b, 0);
  const nodes = 2 * n + levels;
  const terms: MemoryTerm[] = [
    // Per numeric feature: sorted row ids, values and targets (~24 B a row); split candidates kept for explain (~48 B a feature per internal node).
    { path: "features", bytes: n * p * 72, what: `sorted columns and split candidates (${n} rows × ${p} features)` },
    { path: levels > 2 * n ? "features" : "params.max_depth", bytes: nodes * (96 + values(width)), what: `up to ${groupDigits(nodes)} tree nodes` },
  ];
  if (algorithm.name === "oblique_tree") terms.push({ path: "features", bytes: values(2 * n * p + 4 * p * p), what: "per-node row-major copies for the oblique splits" });
  // A leaf of c classes keeps at most c planes over every feature and c × c cells, and holds at least c rows: n × (p + 1 + classes)
  // values at most, built in a growable list and copied into the state (×3); the rows routed to the leaves, a few values each.
  if (algorithm.name === "oblique_tree" && params.leaf_model === "perceptron") terms.push({ path: "params.leaf_model", bytes: values(3 * n * (p + 1 + width) + 4 * n), what: `perceptron leaves (at most ${groupDigits(n)} rows × (${p} features + 1 + ${width} classes) numbers)` });
  if (params.incremental === true) terms.push({ path: "params.incremental", bytes: keptRows(n, p), what: `the training rows kept for partial_fit (${n} rows × ${p} features)` });
  return terms;
};

/** One SMO fit over l rows: the row-major copy, the kernel-row cache (never more than l² Float32 values), support vectors and O(l) solver vectors. */
function smoTerms(params: Params, l: number, p: number, variables: number): MemoryTerm[] {
  const cacheMb = num(params, "cache_size", 200);
  return [
    { path: "params.cache_size", bytes: Math.min(cacheMb * MB, 4 * l * l) + l * 64, what: `kernel cache (cache_size ${cacheMb} MB, at most ${groupDigits(l)}² kernel values)` },
    { path: "features", bytes: values(3 * l * p + 12 * variables), what: `the training rows as row-major copies (input order, class order, solver positions), support vectors and solver state (${l} rows × ${p} features)` },
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

/**
 * rbf_network: the n × m design (one column per radial unit), k-means' centres and bounds,
 * and one least-squares problem at a time ((m + 1)² Gram matrix, its factor, the QR fallback).
 */
const rbfNetwork: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const m = Math.min(num(params, "n_centers", 10), Math.max(1, n));
  const outputs = Math.max(1, shape.classes);
  return [
    { path: "params.n_centers", bytes: values(n * m + 6 * (m + 1) * (m + 1) + Math.min(n * m, ELKAN_MAX_BOUNDS) + 4 * m * p + outputs * m), what: `the design of ${groupDigits(n)} rows × ${m} radial units, the output layer's least squares and k-means' bounds` },
    { path: "features", bytes: values(3 * n * p + n * (outputs + 4)), what: `the training rows as a row-major copy, targets and per-row scores (${n} rows × ${p} features)` },
  ];
};

/** som / som_projection: the rows' copy and labels, the units' weights and grid positions. */
const selfOrganisingMap: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const units = num(params, "grid_rows", 5) * num(params, "grid_cols", 5);
  return [
    { path: "features", bytes: values(2 * n * p + 2 * n), what: `the training rows as a row-major copy and their best-matching units (${n} rows × ${p} features)` },
    { path: "params.grid_rows", bytes: values(units * (p + 4)), what: `${groupDigits(units)} units' weights, positions and U-matrix` },
  ];
};

/** art: the rows' unit-length copy and labels, each epoch's visiting order, up to max_categories prototypes. */
const adaptiveResonance: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const q = num(params, "max_categories", 100);
  return [
    { path: "features", bytes: values(2 * n * p + 3 * n), what: `the training rows as unit vectors, their categories and a visiting order (${n} rows × ${p} features)` },
    { path: "params.max_categories", bytes: values(2 * q * p + q), what: `up to ${groupDigits(q)} category prototypes` },
  ];
};

/**
 * cascade_correlation: the n × (features + units) columns of the cascade (one more while a
 * unit is tried), a candidate's activations and deltas, one least-squares problem at a time.
 */
const cascade: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const units = num(params, "max_hidden_units", 10);
  const m = p + units + 1;
  const outputs = Math.max(1, shape.classes);
  return [
    { path: "params.max_hidden_units", bytes: values(n * m + 6 * (m + 1) * (m + 1) + (units * (units + 2 * p)) / 2), what: `the cascade's ${m} columns over ${groupDigits(n)} rows, the output layer's least squares and the frozen units` },
    { path: "features", bytes: values(n * (p + 3 * outputs + 4)), what: `the training rows, targets, residuals and a candidate's activations (${n} rows)` },
  ];
};

/** Per algorithm of the neural family; the rest are mlp-shaped. */
const NEURAL: Readonly<Record<string, FamilyEstimate>> = { rbf_network: rbfNetwork, som: selfOrganisingMap, som_projection: selfOrganisingMap, art: adaptiveResonance, cascade_correlation: cascade };

const neural: FamilyEstimate = (algorithm, params, shape) => {
  const own = Object.hasOwn(NEURAL, algorithm.name) ? NEURAL[algorithm.name] : undefined;
  if (own) return own(algorithm, params, shape);
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
  // Dropout keeps a mask beside the activations and deltas.
  const buffers = num(params, "dropout", 0) > 0 ? 3 : 2;
  return [
    // Parameters, gradient, two optimiser moments, the best epoch's and the best restart's copies, and the state's own copy.
    { path: "params.hidden_layer_sizes", bytes: values(7 * weights), what: `${groupDigits(weights)} network weights with gradients, optimiser state and kept copies` },
    {
      path: capacity > 1024 ? (bp === "accumulated" ? "params.bp" : "params.batch_size") : "params.hidden_layer_sizes",
      bytes: values(buffers * capacity * units),
      what: `activations, deltas${buffers === 3 ? " and dropout masks" : ""} of ${groupDigits(capacity)} rows × ${groupDigits(units)} units`,
    },
    { path: "features", bytes: values(2 * n * (shape.features + out)), what: "the training rows and targets as row-major copies" },
    ...searchTerms(params, weights),
  ];
};

/** mlp's weight_search: a genetic population (and its next generation) of whole weight vectors; annealing keeps three. */
function searchTerms(params: Params, weights: number): MemoryTerm[] {
  const search = params.weight_search as { kind?: unknown; population?: unknown } | undefined;
  if (search?.kind === "genetic") {
    const population = typeof search.population === "number" ? search.population : 30;
    return [{ path: "params.weight_search.population", bytes: values(2 * population * weights), what: `two generations of ${population} weight vectors` }];
  }
  return search?.kind === "simulated_annealing" ? [{ path: "params.weight_search", bytes: values(3 * weights), what: "the current, proposed and best weight vectors" }] : [];
}

const baseline: FamilyEstimate = (_algorithm, _params, shape) => [{ path: "features", bytes: values(shape.rows * Math.max(1, shape.classes)), what: "per-row predictions" }];

/**
 * Clustering: every method keeps a row-major copy of the rows and their labels; then
 * kmedoids its n × n distance matrix, k-means-like methods k × d centres (and k-means++'s candidate potentials, 2 + ln k rows each),
 * gmm n × k responsibilities and k d × d covariances and factors, agnes its condensed n × n
 * distance matrix (single linkage excepted: Prim's tree needs O(n)), diana its condensed matrix too, dbscan O(n) buffers,
 * lvq its prototypes, optics its neighbour index, the reachability graph and, with a max_eps, one radius query's result.
 */
/** Prototypes given as explicit init rows (lvq), else undefined. */
function init(params: Params): number | undefined {
  const i = params.init as { kind?: unknown; rows?: unknown } | undefined;
  return i?.kind === "rows" && Array.isArray(i.rows) ? i.rows.length : undefined;
}

const cluster: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const k = Math.min(num(params, "n_clusters", num(params, "n_components", 8)), Math.max(1, n));
  const terms: MemoryTerm[] = [{ path: "features", bytes: values(2 * n * p + 4 * n), what: `the training rows as a row-major copy, labels and distances (${n} rows × ${p} features)` }];
  const name = algorithm.name;
  if (name === "kmedoids") {
    // Beyond the row limit the fit refuses before allocating.
    const m = Math.min(n, KMEDOIDS_MAX_ROWS);
    terms.push({ path: "features", bytes: values(m * m + 4 * n), what: `the full distance matrix of ${groupDigits(m)} rows (PAM)` });
  } else if (name === "kmeans" || name === "bisecting_kmeans") {
    const bounds = Math.min(n * (name === "kmeans" ? k : 2), ELKAN_MAX_BOUNDS);
    terms.push({ path: "params.n_clusters", bytes: values(4 * k * p + (4 + Math.log(k)) * n + bounds), what: `${k} centres, Elkan's distance bounds and the k-means++ candidates' distances` });
  } else if (name === "gmm") {
    terms.push({ path: "params.n_components", bytes: values(3 * n * k + 4 * k * p * p), what: `responsibilities (${n} rows × ${k} components) and ${k} covariance matrices with their factors` });
  } else if (name === "agnes") {
    const linkage = option(params, "linkage") ?? "ward";
    // Beyond the row limit the fit refuses before allocating, so the matrix is counted at most at the limit.
    const m = Math.min(n, AGNES_MAX_ROWS);
    if (linkage !== "single") terms.push({ path: "params.linkage", bytes: values((m * (m - 1)) / 2), what: `the condensed distance matrix of ${groupDigits(m)} rows (${linkage} linkage; single linkage needs none)` });
    terms.push({ path: "features", bytes: values(8 * n), what: "the merge list and the nearest-neighbour chain" });
  } else if (name === "diana") {
    // Beyond the row limit the fit refuses before allocating.
    const m = Math.min(n, DIANA_MAX_ROWS);
    terms.push({ path: "features", bytes: values((m * (m - 1)) / 2 + 8 * n), what: `the condensed distance matrix of ${groupDigits(m)} rows, the split sums and the merge list` });
  } else if (name === "lvq") {
    const perClass = init(params) ?? num(params, "prototypes_per_class", 1) * Math.max(2, shape.classes);
    terms.push({ path: "params.prototypes_per_class", bytes: values(perClass * (p + 1)), what: `${perClass} prototypes × ${p} features` });
  } else if (name === "optics") {
    const minSamples = Math.min(num(params, "min_samples", 5), Math.max(1, n));
    // Per row: reachability, core distance, heap and its positions, ordering, predecessor; one kNN batch
    // (distances and indices) of at most CORE_BATCH_NEIGHBOURS; a bounded radius query may return every row.
    const batch = Math.min(n * minSamples, Math.max(minSamples, CORE_BATCH_NEIGHBOURS));
    terms.push({ path: "params.min_samples", bytes: values(4 * n + 1.5 * batch), what: `the reachability graph of ${n} rows, its queue and a batch of ${minSamples}-neighbour queries` });
    terms.push({ path: "params.max_eps", bytes: values(4 * n), what: "one radius query's neighbours (at most every row) and the neighbour index" });
  } else if (name === "dbscan") {
    // dbscan.ts: neighbourhoods kept from the core pass up to 2²⁵ row ids (beyond, queried again);
    // a block of 256 radius queries may return every row for each (ids, distances and their lists).
    terms.push({ path: "params.eps", bytes: 4 * Math.min(n * n, 2 ** 25) + 64 * n, what: "the core rows' neighbourhoods, kept up to 2²⁵ row ids" });
    terms.push({ path: "features", bytes: values(4 * Math.min(n, 256) * n) + values(n) + 4 * n, what: "one block of 256 radius queries' results, core flags and the search frontier" });
  }
  return terms;
};

/**
 * Semi-supervised: the graph methods keep their graph and every row's label distribution;
 * self_training its base learner's fit (on all rows at the last round); seeded_kmeans a
 * copy of the rows, a centre per class and Elkan's bounds; constrained_kmeans a copy of the
 * rows, k centres and every row's constraint partners; semi_supervised_gmm the gmm's
 * responsibilities and covariances, one component per class; tsvm the svm's SMO terms on all rows.
 */
const semi: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const c = Math.max(2, shape.classes);
  const rowsCopy: MemoryTerm = { path: "features", bytes: values(2 * n * p + 4 * n), what: `the training rows as a row-major copy, labels and distances (${n} rows × ${p} features)` };
  if (algorithm.name === "self_training") {
    return [{ path: "features", bytes: values(3 * n + n * c), what: `the transduction, the rounds and the base learner's probabilities (${n} rows × ${c} classes)` }, ...nestedTerms(params.base, { algorithm: "logistic_regression", params: {} }, "params.base", shape)];
  }
  if (algorithm.name === "seeded_kmeans") {
    const bounds = Math.min(n * c, ELKAN_MAX_BOUNDS);
    return [rowsCopy, { path: "features", bytes: values(4 * c * p + 4 * n + bounds), what: `${c} centres (one per class) and Elkan's distance bounds` }];
  }
  if (algorithm.name === "semi_supervised_gmm") {
    return [rowsCopy, { path: "features", bytes: values(3 * n * c + 4 * c * p * p), what: `responsibilities (${n} rows × ${c} classes) and ${c} covariance matrices with their factors` }];
  }
  if (algorithm.name === "tsvm") {
    return [...smoTerms(params, n, p, n), { path: "features", bytes: values(4 * n), what: "decision values, slacks, labels and bounds of every row" }];
  }
  if (algorithm.name === "constrained_kmeans") {
    const k = Math.min(num(params, "n_clusters", 8), Math.max(1, n));
    const links = (key: string) => (Array.isArray(params[key]) ? (params[key] as unknown[]).length : 0);
    return [
      rowsCopy,
      { path: "params.n_clusters", bytes: values(4 * k * p + (4 + Math.log(k)) * n), what: `${k} centres and the k-means++ candidates' distances` },
      // Each pair is listed under both of its rows (4-byte ids) beside one offset per row.
      { path: "params.must_link", bytes: 8 * (links("must_link") + links("cannot_link")) + 8 * (n + 1), what: "the must-link and cannot-link partners of every row" },
    ];
  }
  const kernel = params.kernel as { kind?: unknown; n_neighbors?: unknown } | undefined;
  // Each graph entry: a column index (4 bytes), its weight and the normalised weight (8 each).
  const knn = kernel?.kind === "knn";
  const entries = knn ? n * Math.min(n, typeof kernel.n_neighbors === "number" ? kernel.n_neighbors : 7) : Math.min(n, SEMI_MAX_RBF_ROWS) ** 2;
  return [
    { path: "params.kernel", bytes: entries * 20, what: knn ? `the kNN graph (${n} rows × n_neighbors)` : `the dense rbf graph of ${groupDigits(Math.min(n, SEMI_MAX_RBF_ROWS))}² pairs` },
    { path: "features", bytes: values(n * p + 3 * n * c), what: `the training rows kept in the model and the label distributions (${n} rows × ${c} classes)` },
  ];
};

/** A nested learner ({ algorithm, params } under `path`) fitted on `rows` rows: its own terms, their paths under the ensemble's. */
function nestedTerms(spec: unknown, fallback: { algorithm: string; params: Params }, path: string, shape: MemoryShape): MemoryTerm[] {
  const s = spec !== null && typeof spec === "object" ? (spec as { algorithm?: unknown; params?: unknown }) : fallback;
  const algorithm = typeof s.algorithm === "string" ? getAlgorithm(s.algorithm) : undefined;
  if (!algorithm || algorithm.family === "ensemble") return [];
  const params = s.params !== null && typeof s.params === "object" ? (s.params as Params) : {};
  return estimateAlgorithmMemory(algorithm, params, shape).map((t) => ({ ...t, path: t.path.startsWith("params.") ? `${path}.params.${t.path.slice(7)}` : t.path }));
}

/**
 * What `count` fitted members keep: a tree's nodes (at most twice its rows, or 2^(depth+1)),
 * otherwise as much as a member could copy of its rows (support vectors, say).
 */
function keptMembers(spec: unknown, count: number, rows: number, shape: MemoryShape, path: string): MemoryTerm {
  const s = spec !== null && typeof spec === "object" ? (spec as { algorithm?: unknown; params?: Params }) : { algorithm: "cart", params: {} };
  const width = Math.max(1, shape.classes);
  let each: number;
  if (s.algorithm === "cart" || s.algorithm === "id3" || s.algorithm === "c45") {
    const depth = num(s.params ?? {}, "max_depth", Infinity);
    each = Math.min(2 * rows + 1, 2 ** Math.min(depth + 1, 40)) * (64 + values(width));
    if (s.params?.incremental === true) each += keptRows(rows, shape.features);
  } else each = values(rows * (shape.features + width));
  return { path, bytes: count * each, what: `${groupDigits(count)} fitted members` };
}

/**
 * gradient_boosting: the Uint8Array bin columns (twice: as binned, and in the SIMD
 * histogram kernels' memory with the interleaved gradients and row ids), per-row raw scores,
 * gradients and hessians (one set per tree of an iteration), the binning's sorted copy of one
 * column, a histogram (features × 256 bins × 3 sums) per pending leaf and two more, and the trees.
 */
const gradientBoosting: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const outputs = shape.classes > 2 ? shape.classes : 1;
  const leaves = Math.max(2, Math.min(num(params, "max_leaf_nodes", 31), Math.ceil(n / Math.max(1, num(params, "min_samples_leaf", 20)))));
  const trees = num(params, "max_iter", 100) * outputs;
  return [
    { path: "features", bytes: 2 * n * p + values(n * (5 * outputs + 9)), what: `bin columns and per-row scores, gradients and hessians (${n} rows × ${p} features)` },
    { path: "params.max_leaf_nodes", bytes: (leaves + 2) * values(p * 256 * 3), what: `histograms of up to ${groupDigits(leaves)} leaves × ${p} features` },
    { path: "params.max_iter", bytes: trees * (2 * leaves) * 80, what: `${groupDigits(trees)} trees of up to ${groupDigits(leaves)} leaves` },
  ];
};

/**
 * random_forest's out-of-bag permutation importances: each tree's out-of-bag rows
 * (kept while the forest grows), the scored rows' copy and one summed output per
 * repeat, row and class.
 */
function permutationTerms(params: Params, shape: MemoryShape, trees: number, outOfBag: number): MemoryTerm[] {
  const repeats = num(params, "permutation_n_repeats", 0);
  if (repeats <= 0) return [];
  const m = Math.min(shape.rows, num(params, "permutation_max_rows", 10_000));
  const width = Math.max(1, shape.classes);
  return [
    { path: "params.permutation_n_repeats", bytes: values((repeats + 2) * m * width + (repeats + 1) * m) + 4 * trees * Math.max(1, outOfBag), what: `${repeats} shuffled copies of a column and their summed outputs (${groupDigits(m)} rows) and every tree's out-of-bag rows` },
    { path: "params.permutation_max_rows", bytes: values(m * shape.features), what: "the scored rows' copy" },
  ];
}

/** One function per ensemble algorithm (ensemble/): members are fitted one at a time, and all are kept. */
const ENSEMBLE: Readonly<Record<string, FamilyEstimate>> = {
  gradient_boosting: gradientBoosting,
  random_forest: (_algorithm, params, shape) => {
    const n = shape.rows;
    const trees = num(params, "n_estimators", 100);
    const drawn = Math.max(1, Math.round(num(params, "max_samples", 1) * n));
    // Distinct rows of a bootstrap of `drawn` from n: n·(1 − e^(−drawn/n)); a tree has fewer than twice as many nodes.
    const distinct = params.bootstrap === false ? drawn : n * (1 - Math.exp(-drawn / n));
    const depth = num(params, "max_depth", Infinity);
    const nodes = Math.min(2 * distinct + 1, 2 ** Math.min(depth + 1, 40));
    return [
      { path: "features", bytes: n * shape.features * 76 + values(4 * n), what: `one tree's sorted columns, the forest's presort and the bootstrap (${n} rows × ${shape.features} features)` },
      // Trees spread over other training threads (training/member-spread.ts): the training rows once more, in shared memory.
      { path: "features", bytes: values(n * (shape.features + 2)), what: `the training rows shared with the threads that grow trees beside the job's (${n} rows × ${shape.features} features)` },
      { path: "params.n_estimators", bytes: trees * nodes * (80 + values(Math.max(1, shape.classes))), what: `${groupDigits(trees)} trees of up to ${groupDigits(Math.round(nodes))} nodes` },
      ...permutationTerms(params, shape, trees, n - distinct),
    ];
  },
  bagging: (_algorithm, params, shape) => {
    const count = num(params, "n_estimators", 10);
    const rows = Math.max(1, Math.round(num(params, "max_samples", 1) * shape.rows));
    const fallback = { algorithm: "cart", params: {} };
    return [
      ...nestedTerms(params.base, fallback, "params.base", { ...shape, rows }),
      keptMembers(params.base ?? fallback, count, rows, shape, "params.n_estimators"),
      { path: "features", bytes: values(rows * (shape.features + 2)), what: "each member's bootstrap as a copy of its rows" },
    ];
  },
  adaboost: (_algorithm, params, shape) => {
    const count = num(params, "n_estimators", 50);
    const fallback = { algorithm: "cart", params: { max_depth: shape.classes > 0 ? 1 : 3 } };
    const base = params.base ?? fallback;
    return [
      ...nestedTerms(base, fallback, "params.base", shape),
      keptMembers(base, count, shape.rows, shape, "params.n_estimators"),
      { path: "features", bytes: values(shape.rows * (4 + 2 * Math.max(1, shape.classes))), what: "the distribution, per-row losses and one round's predictions" },
    ];
  },
  easy_ensemble: (_algorithm, params, shape) => {
    // A subset holds every class at the smallest class's count: at most the rows, at least 2 per class.
    const subsets = num(params, "n_subsets", 10);
    const rows = shape.rows;
    const fallback = { algorithm: "cart", params: { max_depth: 1 } };
    const base = params.base ?? fallback;
    return [
      ...nestedTerms(base, fallback, "params.base", shape),
      keptMembers(base, subsets * num(params, "n_estimators", 10), rows, shape, "params.n_subsets"),
      { path: "features", bytes: values(rows * (shape.features + 4 + 2 * Math.max(1, shape.classes))), what: "one subset's copy of its rows, its distribution and one round's predictions" },
    ];
  },
  voting: (_algorithm, params, shape) => {
    const given = Array.isArray(params.estimators) ? params.estimators : [{ algorithm: "cart", params: {} }, { algorithm: "cart", params: {} }, { algorithm: "cart", params: {} }];
    const terms = given.flatMap((e, i) => [...nestedTerms(e, { algorithm: "cart", params: {} }, `params.estimators.${i}`, shape), keptMembers(e, 1, shape.rows, shape, `params.estimators.${i}`)]);
    return [...terms, { path: "features", bytes: values(shape.rows * 2 * Math.max(1, shape.classes)), what: "the combined votes or values" }];
  },
  stacking: (_algorithm, params, shape) => {
    const given = Array.isArray(params.estimators) ? params.estimators : [{ algorithm: "cart", params: {} }, { algorithm: "cart", params: {} }, { algorithm: "cart", params: {} }];
    const width = Math.max(1, shape.classes);
    const meta = given.length * width + (params.passthrough === true ? shape.features : 0);
    const terms = given.flatMap((e, i) => [...nestedTerms(e, { algorithm: "cart", params: {} }, `params.estimators.${i}`, shape), keptMembers(e, 1, shape.rows, shape, `params.estimators.${i}`)]);
    const finalSpec = params.final_estimator ?? { algorithm: shape.classes > 0 ? "logistic_regression" : "ridge", params: {} };
    return [
      ...terms,
      ...nestedTerms(finalSpec, { algorithm: "ridge", params: {} }, "params.final_estimator", { ...shape, features: meta, levels: [] }),
      { path: "params.estimators", bytes: values(2 * shape.rows * (meta + shape.features)), what: `the out-of-fold meta-features (${meta} columns) and each fold's copy of the rows` },
    ];
  },
};

const ensemble: FamilyEstimate = (algorithm, params, shape) => {
  const estimate = Object.hasOwn(ENSEMBLE, algorithm.name) ? ENSEMBLE[algorithm.name] : undefined;
  if (estimate) return estimate(algorithm, params, shape);
  return [{ path: "features", bytes: values(4 * shape.rows * shape.features), what: "working copies of the training rows" }];
};

/**
 * Bayesian classifiers: the coded copy of the table (a level or bin per cell), per-row
 * class scores, and the count tables. Naive Bayes keeps class × level counts (and, for
 * KDE, every numeric value); the one-dependence models (spode, aode, tan) count every
 * ordered attribute pair jointly with the class, Σ_{i≠j} K·L_i·L_j, with a numeric
 * attribute's L its n_bins — spode keeps one super-parent's K·L_p·ΣL_j (twice while
 * cross-validating, plus the folds' copies of the coded table).
 */
const bayes: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const k = Math.max(1, shape.classes);
  const bins = num(params, "n_bins", 5);
  const numeric = p - shape.levels.length;
  const levels = [...shape.levels, ...Array.from({ length: Math.max(0, numeric) }, () => bins)];
  const sumL = levels.reduce((a, b) => a + b, 0);
  const terms: MemoryTerm[] = [{ path: "features", bytes: values(n * p + 2 * n * k), what: `the coded table and per-row class scores (${n} rows × ${p} features)` }];
  if (algorithm.name === "bayes_net") {
    // Every variable's table is capped at MAX_FAMILY_TABLE entries; hill climbing caches one score per family tried.
    const parents = num(params, "max_parents", 2);
    const widest = levels.reduce((a, b) => Math.max(a, b), k);
    const table = Math.min(2 ** 20, widest ** (parents + 1));
    terms.push({ path: "params.max_parents", bytes: values(2 * (p + 1) * table), what: `conditional probability tables of ${p + 1} variables (up to ${groupDigits(table)} entries each) and their expected counts` });
    return terms;
  }
  if (algorithm.name === "naive_bayes") {
    terms.push({ path: "features", bytes: values(k * sumL + (option(params, "numeric") === "kde" ? 2 * n * p : 0)), what: "class × level counts (and the KDE samples)" });
    return terms;
  }
  const path = numeric > 0 ? "params.n_bins" : "features";
  if (algorithm.name === "spode") {
    const widest = levels.reduce((a, b) => Math.max(a, b), 0);
    const cv = params.super_parent == null;
    terms.push({ path, bytes: values(k * widest * sumL * (cv ? 3 : 1) + (cv ? n * p : 0)), what: "one super-parent's class × attribute-pair counts (and the cross-validation folds)" });
    return terms;
  }
  const sumSq = levels.reduce((a, b) => a + b * b, 0);
  const pairs = k * (sumL * sumL - sumSq);
  terms.push({ path, bytes: values(pairs), what: `${groupDigits(pairs)} class × attribute-pair counts` });
  return terms;
};


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

/**
 * Projections: pca a p × p covariance and its eigendecomposition (ml-matrix's EVD keeps
 * about six p × p arrays) plus the projections its sign rule reads; mds, kernel_pca and
 * isomap an m × m matrix (landmarks; the kernel; the geodesic distances) centred and
 * eigendecomposed densely — about six m × m arrays at the peak. Beyond their row limits
 * the fits refuse before allocating, so m is counted at most at the limit. lda_projection
 * and nca_projection cost what their preprocessing steps do (training/memory-estimate.ts):
 * K class scatters and a generalised eigenproblem of p × p; one n × n matrix per NCA
 * evaluation (n at most max_rows, beyond which the fit refuses); lmnn_projection none, but
 * per-row pair weights and target neighbours.
 */
const projection: FamilyEstimate = (algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const terms: MemoryTerm[] = [{ path: "features", bytes: values(2 * n * p), what: `the training rows as a row-major copy (${n} rows × ${p} features)` }];
  if (algorithm.name === "lda_projection") {
    const d = Math.min(num(params, "n_components", Math.max(1, shape.classes - 1)), p);
    terms.push({ path: "features", bytes: values((shape.classes + 6) * p * p + n * d), what: `the scatter matrices and generalised eigenproblem of ${p} features and ${d} projections of every row` });
    return terms;
  }
  if (algorithm.name === "nca_projection") {
    const m = Math.min(n, num(params, "max_rows", 5_000));
    const d = Math.min(num(params, "n_components", p), p);
    terms.push({ path: "params.max_rows", bytes: values(m * m + m * (p + 2 * d) + 25 * d * p), what: `a ${groupDigits(m)} × ${groupDigits(m)} matrix per evaluation` });
    return terms;
  }
  if (algorithm.name === "lmnn_projection") {
    const m = Math.min(n, num(params, "max_rows", 5_000));
    const d = Math.min(num(params, "n_components", p), p);
    const k = num(params, "n_neighbors", 3);
    terms.push({ path: "params.max_rows", bytes: values(m * (2 * p + d + 4) + p * p + 25 * d * p) + 4 * m * k, what: `${groupDigits(m)} rows' input, embedding and pair weights (no n × n matrix)` });
    return terms;
  }
  if (algorithm.name === "pca") {
    const d = Math.min(num(params, "n_components", p), p, n);
    terms.push({ path: "features", bytes: values(6 * p * p + n * d), what: `the ${p} × ${p} covariance, its eigendecomposition and ${d} projections of every row` });
    return terms;
  }
  const [m, path, what] =
    algorithm.name === "mds"
      ? [Math.min(n, num(params, "max_landmarks", 500)), "params.max_landmarks", "landmark squared distances"]
      : algorithm.name === "kernel_pca"
        ? [Math.min(n, KERNEL_PCA_MAX_ROWS), "features", "kernel matrix"]
        : [Math.min(n, ISOMAP_MAX_ROWS), "features", "geodesic distances"];
  terms.push({ path, bytes: values(6 * m * m), what: `the ${groupDigits(m)} × ${groupDigits(m)} ${what}, centred and eigendecomposed` });
  if (algorithm.name === "isomap") terms.push({ path: "params.n_neighbors", bytes: values(4 * n * num(params, "n_neighbors", 5)), what: "the neighbour graph" });
  return terms;
};

/**
 * Anomaly (isolation_forest): the rows' row-major copy, a row permutation per tree drawn
 * at a time, the training scores and their sorted copy (the contamination quantile), and
 * every tree kept: at most 2ψ − 1 nodes of five entries, built in plain arrays first.
 */
const anomaly: FamilyEstimate = (_algorithm, params, shape) => {
  const { rows: n, features: p } = shape;
  const fraction = params.max_samples_fraction;
  const asked = params.max_samples;
  const psi = typeof fraction === "number" ? Math.max(1, Math.floor(fraction * n)) : typeof asked === "number" ? Math.min(asked, n) : Math.min(256, n);
  const trees = num(params, "n_estimators", 100);
  return [
    { path: "features", bytes: values(n * p + 4 * n), what: `the training rows as a row-major copy (${n} rows × ${p} features), a row draw and the training scores` },
    { path: "params.n_estimators", bytes: values(trees * (2 * psi) * 10), what: `${trees} isolation trees of up to ${2 * psi - 1} nodes` },
  ];
};

const FAMILIES: Readonly<Record<string, FamilyEstimate>> = { tree, svm, linear, neural, baseline, ensemble, cluster, semi, bayes, neighbors, projection, anomaly };

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
