/**
 * The `select` step (seed 001 ch. 3, 特征选择): keep some of the candidate
 * columns, drop the others; columns outside `columns` pass through untouched.
 *
 *   filter    variance · pearson · mutual_info · info_gain · chi2 · relief
 *             score each feature (data/feature-scores), keep the best
 *   wrapper   rfe (recursive feature elimination with an estimator's importances)
 *             lvw (Las Vegas Wrapper: random subsets, cross-validated, seeded)
 *   embedded  l1 (features with non-zero lasso / L1-logistic coefficients)
 *
 * `k` says how many to keep, `threshold` how good a score must be (score >
 * threshold); a filter takes either or both (variance defaults to threshold 0:
 * drop constant columns). rfe takes k (default half); lvw chooses its own size;
 * l1 takes threshold on |coefficient| (default 1e-5) and optionally k.
 */
import { z } from "zod";
import { DataError } from "../../data/errors.js";
import type { Column, Frame } from "../../data/frame.js";
import { FILTER_FEATURE_TYPES, scoreColumns, type ScoreTarget } from "../../data/feature-scores/index.js";
import { byColumn, pickColumns, type PlannedColumn } from "../../data/transforms/transform.js";
import type { ColumnType } from "../../data/frame.js";
import type { Target } from "../../models/contract.js";
import { columnCountParam, MAX_FEATURE_COUNT } from "../../models/limits.js";
import { getAlgorithm } from "../../models/lazy-registry.js";
import { f64, i32 } from "../../models/state-schemas.js";
import { featureScores } from "../../models/tree/feature-scores.js";
import { L1_DEFAULT_THRESHOLD, l1Coefficients, l1Estimator } from "./l1.js";
import { lasVegasWrapper } from "./lvw.js";
import { recursiveFeatureElimination } from "./rfe.js";
import type { StepIssue, TypedStep, TypedStepContext } from "./typed-step.js";
import { groupDigits } from "../../data/group-digits.js";

const STEP = "select";
const MAX_RELIEF_PROBES = 100_000;

const FILTERS = ["variance", "pearson", "mutual_info", "info_gain", "chi2", "relief"] as const;
const METHODS = [...FILTERS, "rfe", "lvw", "l1"] as const;
type Method = (typeof METHODS)[number];
type Filter = (typeof FILTERS)[number];

const isFilter = (m: Method): m is Filter => (FILTERS as readonly string[]).includes(m);

const FEATURE_TYPES: Record<Method, readonly ColumnType[]> = {
  ...FILTER_FEATURE_TYPES,
  info_gain: ["numeric", "categorical"],
  rfe: ["numeric", "categorical"],
  lvw: ["numeric", "categorical"],
  l1: ["numeric", "categorical"],
};

export const selectSpec = z
  .object({
    /** Candidate columns; default: every column the method can judge. The others pass through. */
    columns: z.array(z.string()).optional(),
    method: z.enum(METHODS).default("variance"),
    /** How many features to keep. */
    k: columnCountParam("How many features to keep.", "the candidates"),
    /** How good a feature must be: its score must exceed this. */
    threshold: z.number().nullable().default(null),
    /** mutual_info (default 3) and relief (default 10): neighbours of the k-NN estimators. */
    n_neighbors: z
      .number()
      .int()
      .min(1)
      .max(100)
      .nullable()
      .default(null)
      .describe("mutual_info (default 3) and relief (default 10): neighbours of the k-NN estimators. At most 100: each estimate keeps that many nearest rows per row, and the estimators are meant for a handful."),
    /** relief: probe rows (default every row, or 1000 drawn with the seed when there are more). */
    sample_size: z
      .number()
      .int()
      .min(1)
      .max(MAX_RELIEF_PROBES)
      .nullable()
      .default(null)
      .describe(`relief: probe rows (default every row, or 1000 drawn with the seed when there are more). At most ${groupDigits(MAX_RELIEF_PROBES)}: each probe searches every row for its neighbours.`),
    /** rfe / lvw (default cart); l1 (default lasso or logistic_regression by target). */
    estimator: z.string().min(1).nullable().default(null),
    estimator_params: z.record(z.string(), z.unknown()).default({}),
    /** rfe: features dropped per round. */
    step_size: z
      .number()
      .int()
      .min(1)
      .max(MAX_FEATURE_COUNT)
      .default(1)
      .describe(`rfe: features dropped per round. At most ${groupDigits(MAX_FEATURE_COUNT)} (the widest useful table).`),
    /** lvw: cross-validation folds per subset. */
    cv: z.number().int().min(2).max(20).default(5).describe("lvw: cross-validation folds per subset. At most 20: every subset is fitted once per fold."),
    /** lvw: draws in a row without improvement before it stops. */
    max_tries: z
      .number()
      .int()
      .min(1)
      .max(10_000)
      .default(50)
      .describe("lvw: draws in a row without improvement before it stops (at most 10 · max_tries subsets in all). At most 10,000: each draw is cv fits."),
  })
  .strict()
  .superRefine((s, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (s.k !== null && s.columns && s.k > s.columns.length) issue("k", `k = ${s.k} is more than the ${s.columns.length} columns named`);
    if (s.method === "rfe" && s.threshold !== null) issue("threshold", "rfe keeps k features; threshold does not apply");
    if (s.method === "lvw" && s.k !== null) issue("k", "lvw chooses how many features to keep; k does not apply");
    if (s.method === "lvw" && s.threshold !== null) issue("threshold", "lvw chooses how many features to keep; threshold does not apply");
    if (isFilter(s.method) && s.method !== "variance" && s.k === null && s.threshold === null) issue("k", `${s.method} needs k (how many to keep) or threshold (how good a score must be), or both`);
    if (isFilter(s.method) && s.estimator !== null) issue("estimator", "filter methods use no estimator");
  });

export const selectFitted = z
  .object({
    method: z.enum(METHODS),
    candidates: z.array(z.string()),
    selected: z.array(z.string()),
    /** Per candidate: the filter score, or |coefficient| for l1; NaN where the method gives none. */
    scores: f64,
    /** rfe: per candidate, 1 for kept, higher for dropped earlier; empty otherwise. */
    ranking: i32,
    /** lvw: the cross-validated error of the chosen subset, and how many subsets were tried. */
    cv_error: z.number().nullable(),
    subsets_tried: z.number().int().nullable(),
  })
  .strict()
  .refine(
    (f) => {
      const candidates = new Set(f.candidates);
      return f.scores.length === f.candidates.length && f.selected.every((s) => candidates.has(s));
    },
    { message: "selected features must be candidates" },
  );

export type SelectSpec = z.infer<typeof selectSpec>;
export type SelectFitted = z.infer<typeof selectFitted>;

function scoreTarget(target: Target): ScoreTarget {
  return target.task === "classification" ? { kind: "classes", y: target.y, classes: target.classes.length } : { kind: "values", y: target.y };
}

/** The step has no `target` field: a target that does not suit the method is the method's problem. */
function targetProblemsAtMethod<T>(fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (e instanceof DataError && e.path === "target") throw new DataError(e.message, "method");
    throw e;
  }
}

function needTarget(target: Target | null, method: Method): Target {
  if (!target) throw new DataError(`${method} selection needs a target`, "method");
  return target;
}

/** Candidates best first (ties: column order), above the threshold, at most k. */
function keepBest(candidates: readonly string[], scores: Float64Array, k: number | null, threshold: number | null): string[] {
  const order = candidates.map((_, j) => j).sort((a, b) => scores[b] - scores[a] || a - b);
  const passing = threshold === null ? order : order.filter((j) => scores[j] > threshold);
  const kept = new Set(k === null ? passing : passing.slice(0, k));
  return candidates.filter((_, j) => kept.has(j));
}

function infoGainScores(columns: readonly Column[], target: Target): Float64Array<ArrayBuffer> {
  if (target.task !== "classification") throw new DataError("info_gain scores features against classes; this target is numeric", "method");
  let name = "target";
  while (columns.some((c) => c.name === name)) name = `_${name}`;
  const frame: Frame = { rowCount: target.y.length, columns: [...columns, { type: "categorical", name, codes: target.y, levels: target.classes }] };
  const scored = new Map(featureScores(frame, name, "info_gain", columns.map((c) => c.name)).map((s) => [s.feature, s.score]));
  return Float64Array.from(columns, (c) => scored.get(c.name) ?? 0);
}

function estimatorFor(spec: SelectSpec): { algorithm: NonNullable<ReturnType<typeof getAlgorithm>>; params: unknown } {
  const name = spec.estimator ?? "cart";
  const algorithm = getAlgorithm(name);
  if (!algorithm) throw new DataError(`unknown estimator "${name}"`, "estimator");
  return { algorithm, params: parseParams(algorithm, spec.estimator_params, {}) };
}

function parseParams(algorithm: NonNullable<ReturnType<typeof getAlgorithm>>, given: Record<string, unknown>, defaults: Record<string, unknown>): unknown {
  const parsed = algorithm.params.safeParse({ ...defaults, ...given });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new DataError(`${algorithm.name}: ${issue.message}`, ["estimator_params", ...issue.path.map(String)].join("."));
  }
  return parsed.data;
}

export const selectStep: TypedStep<SelectSpec, SelectFitted> = {
  name: STEP,
  description: "Feature selection: filter (variance, pearson, mutual_info, info_gain, chi2, relief), wrapper (rfe, lvw) or embedded (l1); k = how many, threshold = how good.",
  spec: selectSpec,
  fitted: selectFitted,

  fit(frame, spec, ctx: TypedStepContext) {
    const columns = pickColumns(frame.columns, spec.columns, FEATURE_TYPES[spec.method], STEP);
    const candidates = columns.map((c) => c.name);
    if (candidates.length === 0) throw new DataError(`${STEP}: no column for ${spec.method} to judge`, "columns");
    if (spec.k !== null && spec.k > candidates.length) throw new DataError(`${STEP}: k = ${spec.k} is more than the ${candidates.length} candidate features`, "k");
    const base = { method: spec.method, candidates, ranking: new Int32Array(0), cv_error: null, subsets_tried: null };
    const pathOf = (j: number) => (spec.columns ? `columns[${j}]` : "columns");

    if (isFilter(spec.method)) {
      const method = spec.method;
      const scores =
        method === "info_gain"
          ? infoGainScores(columns, needTarget(ctx.target, method))
          : targetProblemsAtMethod(() =>
              scoreColumns(
                columns,
                method === "variance" ? null : scoreTarget(needTarget(ctx.target, method)),
                method,
                { neighbours: spec.n_neighbors, probes: spec.sample_size ?? undefined, rng: ctx.rng },
                pathOf,
              ),
            );
      const threshold = spec.method === "variance" && spec.k === null && spec.threshold === null ? 0 : spec.threshold;
      const selected = keepBest(candidates, scores, spec.k, threshold);
      if (selected.length === 0) throw new DataError(`${STEP}: no feature's ${spec.method} score exceeds the threshold ${threshold}`, "threshold");
      return { ...base, selected, scores };
    }

    const target = needTarget(ctx.target, spec.method);
    if (spec.method === "rfe") {
      const { algorithm, params } = estimatorFor(spec);
      const keep = spec.k ?? Math.max(1, Math.floor(candidates.length / 2));
      const result = recursiveFeatureElimination(frame, candidates, target, algorithm, params, keep, spec.step_size, ctx.rng, ctx.signal);
      return { ...base, selected: result.selected, scores: new Float64Array(candidates.length).fill(NaN), ranking: result.ranking };
    }
    if (spec.method === "lvw") {
      const { algorithm, params } = estimatorFor(spec);
      const result = lasVegasWrapper(frame, candidates, target, algorithm, params, spec.cv, spec.max_tries, ctx.rng, ctx.signal);
      return { ...base, selected: result.selected, scores: new Float64Array(candidates.length).fill(NaN), cv_error: result.cvError, subsets_tried: result.evaluated };
    }
    const { algorithm, defaults } = l1Estimator(target.task, spec.estimator);
    const scores = l1Coefficients(frame, candidates, target, algorithm, parseParams(algorithm, spec.estimator_params, defaults), ctx.rng, ctx.signal);
    const threshold = spec.threshold ?? L1_DEFAULT_THRESHOLD;
    const selected = keepBest(candidates, scores, spec.k, threshold);
    if (selected.length === 0) throw new DataError(`${STEP}: every |coefficient| is at most ${threshold}; lower the penalty (alpha, or raise C) or the threshold`, "threshold");
    return { ...base, selected, scores };
  },

  apply(fitted, frame) {
    const kept = new Set(fitted.selected);
    const dropped = new Set(fitted.candidates.filter((c) => !kept.has(c)));
    if (dropped.size === 0) return frame;
    return { rowCount: frame.rowCount, columns: frame.columns.filter((c) => !dropped.has(c.name)) };
  },

  describe(fitted) {
    const kept = new Set(fitted.selected);
    return {
      method: fitted.method,
      selected: [...fitted.selected],
      dropped: fitted.candidates.filter((c) => !kept.has(c)),
      ...(fitted.scores.some((s) => !Number.isNaN(s)) ? { scores: byColumn(fitted.candidates, fitted.scores) } : {}),
      ...(fitted.ranking.length ? { ranking: Object.fromEntries(fitted.candidates.map((c, j) => [c, fitted.ranking[j]])) } : {}),
      ...(fitted.cv_error !== null ? { cv_error: fitted.cv_error, subsets_tried: fitted.subsets_tried } : {}),
    };
  },

  check(spec): StepIssue | null {
    if (spec.method === "rfe" || spec.method === "lvw") {
      try {
        estimatorFor(spec);
      } catch (e) {
        if (e instanceof DataError) return { message: e.message, path: e.path ?? "estimator" };
        throw e;
      }
    }
    if (spec.method === "l1" && spec.estimator === null && !getAlgorithm("lasso") && !getAlgorithm("logistic_regression")) {
      return { message: "l1 selection needs the linear models (lasso, logistic_regression), which this server does not have yet", path: "method" };
    }
    if (spec.method === "l1" && spec.estimator !== null && !getAlgorithm(spec.estimator)) return { message: `unknown estimator "${spec.estimator}"`, path: "estimator" };
    return null;
  },

  plan(spec, columns, target) {
    const candidates = pickColumns(columns, spec.columns, FEATURE_TYPES[spec.method], STEP);
    if (spec.k !== null && spec.k > candidates.length) throw new DataError(`${STEP}: k = ${spec.k} is more than the ${candidates.length} candidate features`, "k");
    if (target) {
      const classes = target.type === "categorical";
      if (!classes && ["info_gain", "chi2", "relief"].includes(spec.method)) throw new DataError(`${spec.method} scores features against classes; this target is numeric`, "method");
      if (classes && spec.method === "pearson") throw new DataError("pearson correlates features with a numeric target; this target is categorical", "method");
      if (spec.method === "l1") l1Estimator(classes ? "classification" : "regression", spec.estimator);
    } else if (spec.method !== "variance") {
      throw new DataError(`${spec.method} selection needs a target`, "method");
    }
    // Which columns survive depends on the data.
    return null as PlannedColumn[] | null;
  },
};
