/**
 * bayes_net: a Bayesian network over the attributes and the class (seed 002 §贝叶斯网, the
 * book's 7.5–7.6). Structure given as edges (the class is "$class") or learned by hill
 * climbing on BIC or K2 (bayes-net-structure.ts); parameters with Dirichlet smoothing,
 * θ = (N + alpha) / (N_pa + alpha · L); exact inference by variable elimination
 * (factor.ts), so a row may miss any subset of attributes. When training rows miss values
 * the parameters are fitted by EM (the book's 7.6): the E step completes each row with
 * the posterior of its missing values under the current θ (by enumerating their joint
 * configurations, at most MAX_MISSING_CONFIGS per row), the M step re-estimates θ from the
 * expected counts plus alpha. That maximises log-likelihood + alpha · Σ log θ, the log
 * posterior under the Dirichlet prior, which therefore never decreases; its trace is kept
 * (`em_objective`). Numeric attributes are cut into n_bins equal-frequency bins.
 */
import { z } from "zod";
import type { Frame } from "../../data/frame.js";
import type { Algorithm, FitContext, Prediction, TrainingSet } from "../contract.js";
import { throwIfAborted, UnusableInputError } from "../contract.js";
import { ValueBudget, maxValuesOf } from "../explain-bounds.js";
import { checkClasses, checkFinite, checkUnique, columnSchema, f64, i32, structural } from "../state-schemas.js";
import { classTarget, codeFrame, fitEdges } from "./coded.js";
import { cptFactor, eliminate } from "./factor.js";
import { givenStructure, hillClimb, MAX_FAMILY_TABLE, type Data } from "./bayes-net-structure.js";
import { alphaParam, nBinsParam } from "./params.js";
import { finishScores } from "./scores.js";
import { groupDigits } from "../../data/group-digits.js";

export const CLASS_NODE = "$class";
export const MAX_PARENTS = 10;
export const MAX_EDGES = 10_000;
export const MAX_EM_ITER = 10_000;
export const MAX_SEARCH_STEPS = 10_000;
/** Joint configurations of one training row's missing values the E step may enumerate. */
export const MAX_MISSING_CONFIGS = 1 << 16;

export const bayesNetParams = z
  .object({
    edges: z
      .array(z.tuple([z.string().max(10_000), z.string().max(10_000)]))
      .max(MAX_EDGES)
      .nullable()
      .default(null)
      .describe(`The structure as [parent, child] feature names ("${CLASS_NODE}" is the class); null learns it by hill climbing on the score param. At most ${groupDigits(MAX_EDGES)} edges.`),
    score: z.enum(["bic", "k2"]).default("bic").describe("Structure score for hill climbing: BIC, or K2 (Cooper & Herskovits' log marginal likelihood)."),
    max_parents: z.int().min(1).max(MAX_PARENTS).default(2).describe(`Most parents a variable may have. At most ${MAX_PARENTS}.`),
    max_search_steps: z.int().min(0).max(MAX_SEARCH_STEPS).default(200).describe(`Most edge changes hill climbing makes. At most ${groupDigits(MAX_SEARCH_STEPS)}.`),
    alpha: alphaParam("positive"),
    max_iter: z.int().min(1).max(MAX_EM_ITER).default(100).describe(`Most EM iterations when training rows miss values. At most ${groupDigits(MAX_EM_ITER)}.`),
    tol: z.number().min(0).default(1e-6).describe("EM stops when the objective rises by less than tol × its magnitude."),
    n_bins: nBinsParam,
  })
  .strict();
export type BayesNetParams = z.infer<typeof bayesNetParams>;

const shape = z
  .object({
    classes: z.array(z.string()),
    features: z.array(columnSchema),
    levels: i32,
    edge_offset: i32,
    edges: f64,
    alpha: z.number().gt(0),
    structure: z.enum(["given", "hill_climbing_bic", "hill_climbing_k2"]),
    /** Parents of variable v (features, then the class) are parents[parent_offset[v] ..]; sorted. */
    parent_offset: i32,
    parents: i32,
    /** CPT of v: Π L_parents rows (mixed radix, last parent fastest) × L_v, from cpt_offset[v]. */
    cpt_offset: i32,
    cpt: f64,
    em_objective: f64,
  })
  .strict();
export type BayesNetState = z.infer<typeof shape>;

function cardinalities(s: Pick<BayesNetState, "levels" | "classes">): Int32Array {
  return Int32Array.from([...s.levels, s.classes.length]);
}

export const bayesNetStateSchema = shape.superRefine(
  structural<BayesNetState>((s, report) => {
    if (!checkClasses(s.classes, report) || !checkUnique(s.features.map((f) => f.name), "feature", report, ["features"])) return;
    const d = s.features.length;
    const V = d + 1;
    if (s.levels.length !== d) return report("levels needs one entry per feature", ["levels"]);
    for (let j = 0; j < d; j++) {
      const f = s.features[j];
      const expected = f.type === "categorical" ? f.levels.length : s.edge_offset[j + 1] - s.edge_offset[j] + 1;
      if (s.levels[j] !== expected) return report(`levels[${j}] does not fit feature ${f.name}`, ["levels", j]);
    }
    if (s.edge_offset.length !== d + 1 || s.edge_offset[0] !== 0 || s.edge_offset[d] !== s.edges.length) return report("edge_offset does not fit edges", ["edge_offset"]);
    for (let j = 0; j < d; j++) if (s.edge_offset[j + 1] < s.edge_offset[j] || (s.features[j].type === "categorical" && s.edge_offset[j + 1] !== s.edge_offset[j])) return report("edge_offset must not decrease", ["edge_offset", j]);
    if (!checkFinite(s.edges, "edges", report)) return;
    if (s.parent_offset.length !== V + 1 || s.parent_offset[0] !== 0 || s.parent_offset[V] !== s.parents.length) return report("parent_offset does not fit parents", ["parent_offset"]);
    const card = cardinalities(s);
    const parentsOf: number[][] = [];
    let size = 0;
    for (let v = 0; v < V; v++) {
      const pa = Array.from(s.parents.subarray(s.parent_offset[v], s.parent_offset[v + 1]));
      if (pa.length > MAX_PARENTS || pa.some((p, i) => !(p >= 0 && p < V) || p === v || (i > 0 && p <= pa[i - 1]))) return report(`parents of variable ${v} must be sorted variable indices`, ["parents"]);
      parentsOf.push(pa);
      const rows = pa.reduce((a, p) => a * card[p], 1);
      if (rows * card[v] > MAX_FAMILY_TABLE) return report(`the table of variable ${v} is too large`, ["parents"]);
      if (s.cpt_offset.length !== V + 1 || s.cpt_offset[v] !== size) return report("cpt_offset does not fit the tables", ["cpt_offset", v]);
      size += rows * card[v];
    }
    if (s.cpt_offset[V] !== size || s.cpt.length !== size) return report("cpt does not fit its tables", ["cpt"]);
    // Acyclic: repeatedly remove variables whose parents are all removed.
    const done = new Uint8Array(V);
    for (let round = 0; round < V; round++) for (let v = 0; v < V; v++) if (!done[v] && parentsOf[v].every((p) => done[p])) done[v] = 1;
    if (done.includes(0)) return report("the structure has a cycle", ["parents"]);
    if (!checkFinite(s.cpt, "cpt", report)) return;
    const bad = s.cpt.findIndex((p) => !(p > 0 && p <= 1));
    if (bad >= 0) report(`cpt[${bad}] is not a probability in (0, 1]`, ["cpt", bad]);
    checkFinite(s.em_objective, "em_objective", report);
  }),
);

interface Net {
  parents: number[][];
  card: Int32Array;
  offset: Int32Array<ArrayBuffer>;
}

function layout(parents: number[][], card: Int32Array): Net {
  const offset = new Int32Array(parents.length + 1);
  parents.forEach((pa, v) => (offset[v + 1] = offset[v] + pa.reduce((a, p) => a * card[p], card[v])));
  return { parents, card, offset };
}

/** Index into v's CPT for a full assignment x. */
function cell(net: Net, v: number, x: Int32Array): number {
  let config = 0;
  for (const p of net.parents[v]) config = config * net.card[p] + x[p];
  return net.offset[v] + config * net.card[v] + x[v];
}

/** θ from (expected) counts plus alpha, row by row. */
function normalise(net: Net, counts: Float64Array, alpha: number): Float64Array<ArrayBuffer> {
  const theta = new Float64Array(counts.length);
  for (let v = 0; v < net.parents.length; v++) {
    const L = net.card[v];
    for (let base = net.offset[v]; base < net.offset[v + 1]; base += L) {
      let total = 0;
      for (let k = 0; k < L; k++) total += counts[base + k];
      for (let k = 0; k < L; k++) theta[base + k] = (counts[base + k] + alpha) / (total + alpha * L);
    }
  }
  return theta;
}

/**
 * One E step: expected counts under θ (rows with missing values spread over their
 * completions by posterior weight) and the observed-data log-likelihood.
 */
function expectedCounts(net: Net, data: Data, theta: Float64Array, ctx: FitContext): { counts: Float64Array<ArrayBuffer>; logLik: number } {
  const V = net.parents.length;
  const counts = new Float64Array(theta.length);
  const x = new Int32Array(V);
  let logLik = 0;
  const missing: number[] = [];
  let posterior = new Float64Array(0);
  for (let i = 0; i < data.n; i++) {
    if ((i & 4095) === 0) throwIfAborted(ctx.signal);
    const wi = data.w ? data.w[i] : 1;
    missing.length = 0;
    let configs = 1;
    for (let v = 0; v < V; v++) {
      x[v] = data.codes[v][i];
      if (x[v] < 0) {
        missing.push(v);
        configs *= net.card[v];
      }
    }
    if (configs > MAX_MISSING_CONFIGS) throw new UnusableInputError(`training row ${i} misses values with ${configs} joint configurations; EM enumerates at most ${MAX_MISSING_CONFIGS}`);
    if (posterior.length < configs) posterior = new Float64Array(configs);
    let total = 0;
    for (let z = 0; z < configs; z++) {
      let rest = z;
      for (let m = missing.length - 1; m >= 0; m--) {
        x[missing[m]] = rest % net.card[missing[m]];
        rest = Math.floor(rest / net.card[missing[m]]);
      }
      let p = 1;
      for (let v = 0; v < V; v++) p *= theta[cell(net, v, x)];
      posterior[z] = p;
      total += p;
    }
    logLik += wi * Math.log(total);
    for (let z = 0; z < configs; z++) {
      let rest = z;
      for (let m = missing.length - 1; m >= 0; m--) {
        x[missing[m]] = rest % net.card[missing[m]];
        rest = Math.floor(rest / net.card[missing[m]]);
      }
      const share = (wi * posterior[z]) / total;
      for (let v = 0; v < V; v++) counts[cell(net, v, x)] += share;
    }
  }
  return { counts, logLik };
}

function logPrior(theta: Float64Array, alpha: number): number {
  let s = 0;
  for (let t = 0; t < theta.length; t++) s += alpha * Math.log(theta[t]);
  return s;
}

function fit(train: TrainingSet, p: BayesNetParams, ctx: FitContext): BayesNetState {
  const { y, classes, w } = classTarget(train, "bayes_net");
  const cut = fitEdges(train.X, p.n_bins);
  const coded = codeFrame({ features: cut.schema, ...cut }, train.X);
  const names = [...cut.schema.map((f) => f.name), CLASS_NODE];
  const card = Int32Array.from([...cut.levels, classes.length]);
  const data: Data = { n: coded.n, codes: [...coded.codes.map((c) => c as Int32Array), y], card, w };
  const parents = p.edges ? givenStructure(p.edges, names, card, p.max_parents) : hillClimb(data, p.max_parents, p.max_search_steps, ctx, p.score);
  const net = layout(parents, card);
  // Start from the available-case estimate: each family counted over the rows where it is complete.
  const start = new Float64Array(net.offset[net.parents.length]);
  const x = new Int32Array(card.length);
  let hasMissing = false;
  for (let i = 0; i < data.n; i++) {
    for (let v = 0; v < card.length; v++) {
      x[v] = data.codes[v][i];
      if (x[v] < 0) hasMissing = true;
    }
    for (let v = 0; v < card.length; v++) {
      if (x[v] < 0 || parents[v].some((q) => x[q] < 0)) continue;
      start[cell(net, v, x)] += w ? w[i] : 1;
    }
  }
  let theta = normalise(net, start, p.alpha);
  const trace: number[] = [];
  if (hasMissing) {
    for (let iter = 0; iter < p.max_iter; iter++) {
      const { counts, logLik } = expectedCounts(net, data, theta, ctx);
      const objective = logLik + logPrior(theta, p.alpha);
      trace.push(objective);
      if (iter > 0 && objective - trace[iter - 1] <= p.tol * Math.abs(objective)) break;
      theta = normalise(net, counts, p.alpha);
    }
  }
  return {
    classes,
    features: cut.schema,
    levels: cut.levels,
    edge_offset: cut.edge_offset,
    edges: cut.edges,
    alpha: p.alpha,
    structure: p.edges ? "given" : p.score === "k2" ? "hill_climbing_k2" : "hill_climbing_bic",
    parent_offset: Int32Array.from(parents.reduce<number[]>((acc, pa) => [...acc, acc[acc.length - 1] + pa.length], [0])),
    parents: Int32Array.from(parents.flat()),
    cpt_offset: net.offset,
    cpt: theta,
    em_objective: Float64Array.from(trace),
  };
}

const nets = new WeakMap<BayesNetState, Net>();
function netOf(s: BayesNetState): Net {
  let net = nets.get(s);
  if (!net) {
    const V = s.features.length + 1;
    net = layout(
      Array.from({ length: V }, (_, v) => Array.from(s.parents.subarray(s.parent_offset[v], s.parent_offset[v + 1]))),
      cardinalities(s),
    );
    nets.set(s, net);
  }
  return net;
}

/** P(class | the row's observed attributes), unnormalised logs, written into scores[o..o+K). */
export function classScores(s: BayesNetState, observed: Int32Array, scores: Float64Array, o: number): void {
  const net = netOf(s);
  const V = net.parents.length;
  const C = V - 1;
  const K = s.classes.length;
  let complete = true;
  for (let v = 0; v < C; v++) if (observed[v] < 0) complete = false;
  if (complete) {
    // Every variable observed but the class: only the families that contain the class vary with it.
    for (let k = 0; k < K; k++) {
      observed[C] = k;
      let sum = 0;
      for (let v = 0; v < V; v++) if (v === C || net.parents[v].includes(C)) sum += Math.log(s.cpt[cell(net, v, observed)]);
      scores[o + k] = sum;
    }
    observed[C] = -1;
    return;
  }
  observed[C] = -1;
  const factors = net.parents.map((pa, v) => cptFactor(v, Int32Array.from(pa), s.cpt, net.offset[v], net.card, observed));
  const f = eliminate(factors, [C], net.card);
  let total = 0;
  for (let k = 0; k < K; k++) total += f.values[k];
  // Elimination multiplies probabilities without rescaling: in a very wide net every class can
  // underflow to 0, and the row then gets uniform probabilities rather than NaN.
  for (let k = 0; k < K; k++) scores[o + k] = total > 0 && f.values[k] > 0 ? Math.log(f.values[k]) : total > 0 ? -745 : 0;
}

function predict(s: BayesNetState, X: Frame): Prediction {
  const coded = codeFrame(s, X);
  const n = coded.n;
  const K = s.classes.length;
  const d = s.features.length;
  const scores = new Float64Array(n * K);
  const observed = new Int32Array(d + 1);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < d; j++) observed[j] = (coded.codes[j] as Int32Array)[i];
    classScores(s, observed, scores, i * K);
  }
  const { labels, proba } = finishScores(scores, null, n, K);
  return { task: "classification", labels, proba };
}

function explain(s: BayesNetState, options?: { maxValues?: number }) {
  const net = netOf(s);
  const names = [...s.features.map((f) => f.name), CLASS_NODE];
  const budget = new ValueBudget(maxValuesOf(options?.maxValues));
  return {
    classes: s.classes,
    structure: s.structure,
    alpha: s.alpha,
    edges: net.parents.flatMap((pa, v) => pa.map((p) => [names[p], names[v]])),
    cpts: net.parents.map((pa, v) => {
      const table = budget.take(s.cpt.subarray(net.offset[v], net.offset[v + 1]));
      return { variable: names[v], parents: pa.map((p) => names[p]), rows: net.offset[v + 1] - net.offset[v], probabilities: table.values, ...(table.truncated ? { truncated: true } : {}) };
    }),
    em_objective: Array.from(s.em_objective),
  };
}

export const bayesNet: Algorithm<BayesNetParams, BayesNetState> = {
  name: "bayes_net",
  family: "bayes",
  tasks: ["classification"],
  description: "Bayesian network over the attributes and the class: structure given or learned by hill climbing on BIC or K2, Dirichlet-smoothed CPTs, EM when training rows miss values, exact inference by variable elimination.",
  params: bayesNetParams,
  state: bayesNetStateSchema,
  accepts: { categorical: true, missing: true, weights: true },
  scaleSensitive: false,
  fit,
  predict,
  explain,
};
