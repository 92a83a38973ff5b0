/**
 * Filter scores (seed 001 §3.2): one number per feature saying how much it tells
 * about the target, with no learner involved. Shared by the `select` step and by
 * POST /v1/datasets/{id}/feature-scores. Higher is better for every method here.
 *
 *   variance     population variance (no target)                 numeric features
 *   pearson      |r| with a numeric target                        numeric features
 *   mutual_info  nats; plug-in for discrete pairs, k-NN otherwise any features, any target
 *   chi2         χ² against classes                               non-negative numeric or categorical
 *   relief       Relief-F weight against classes                  any features
 *
 * The tree criteria (info_gain, gain_ratio, gini_index) live with the trees
 * (models/tree/feature-scores.ts), which share their split search.
 */
import { DataError } from "../errors.js";
import type { Column, ColumnType, Frame } from "../frame.js";
import { createRng, type Rng } from "../random.js";
import { chi2Categorical, chi2Numeric, NegativeValueError } from "./chi2.js";
import { continuousDiscreteMutualInfo, continuousMutualInfo, discreteMutualInfo, prepareContinuous } from "./mutual-info.js";
import { pearsonScore } from "./pearson.js";
import { reliefScores } from "./relief.js";
import { needClasses, targetOfColumn, type ScoreTarget } from "./target.js";
import { varianceScore } from "./variance.js";

export type { ScoreTarget } from "./target.js";

export const FILTER_METHODS = ["variance", "pearson", "mutual_info", "chi2", "relief"] as const;
export type FilterMethod = (typeof FILTER_METHODS)[number];

/** Which feature types each method can score. */
export const FILTER_FEATURE_TYPES: Readonly<Record<FilterMethod, readonly ColumnType[]>> = {
  variance: ["numeric"],
  pearson: ["numeric"],
  mutual_info: ["numeric", "categorical"],
  chi2: ["numeric", "categorical"],
  relief: ["numeric", "categorical"],
};

export const MUTUAL_INFO_NEIGHBOURS = 3;
export const RELIEF_NEIGHBOURS = 10;
export const RELIEF_PROBES = 1000;

export interface ScoreOptions {
  /** k of the k-NN estimators: mutual_info (default 3) and relief (default 10). */
  readonly neighbours?: number | null;
  /** relief: how many probe rows (default: every row, or 1000 drawn at random when there are more). */
  readonly probes?: number | null;
  /** relief's probe draw and mutual_info's jitter; default a generator seeded with 0. */
  readonly rng?: Rng;
}

export interface FilterScore {
  feature: string;
  score: number;
}

/**
 * One score per column, in column order. Errors are DataErrors whose path comes
 * from `pathOf(j)` for a problem with column j, or "target".
 */
export function scoreColumns(columns: readonly Column[], target: ScoreTarget | null, method: FilterMethod, options: ScoreOptions = {}, pathOf: (j: number) => string = (j) => `features[${j}]`): Float64Array<ArrayBuffer> {
  columns.forEach((c, j) => {
    if (!FILTER_FEATURE_TYPES[method].includes(c.type)) throw new DataError(`${method} scores numeric features; "${c.name}" is categorical`, pathOf(j));
  });
  switch (method) {
    case "variance":
      return Float64Array.from(columns, (c) => (c.type === "numeric" ? varianceScore(c.values) : 0));
    case "pearson": {
      if (target?.kind !== "values") throw new DataError(`pearson correlates features with a numeric target${target ? "; this target is categorical" : ""}`, "target");
      const y = target.y;
      return Float64Array.from(columns, (c) => (c.type === "numeric" ? pearsonScore(c.values, y) : 0));
    }
    case "mutual_info": {
      if (!target) throw new DataError("mutual_info needs a target", "target");
      const k = options.neighbours ?? MUTUAL_INFO_NEIGHBOURS;
      // scikit-learn's order of draws: the continuous features' jitter, then the target's.
      const rng = options.rng ?? createRng(0);
      const jittered = columns.map((c) => (c.type === "numeric" ? prepareContinuous(c.values, rng) : null));
      const y = target.kind === "values" ? prepareContinuous(target.y, rng) : null;
      return Float64Array.from(columns, (c, j) => {
        const x = jittered[j];
        if (target.kind === "classes") {
          return c.type === "categorical" ? discreteMutualInfo(c.codes, c.levels.length, target.y, target.classes) : continuousDiscreteMutualInfo(x!, target.y, target.classes, k);
        }
        return c.type === "categorical" ? continuousDiscreteMutualInfo(y!, c.codes, c.levels.length, k) : continuousMutualInfo(x!, y!, k);
      });
    }
    case "chi2": {
      const t = needClasses(target, "chi2");
      return Float64Array.from(columns, (c, j) => {
        if (c.type === "categorical") return chi2Categorical(c.codes, c.levels.length, t.y, t.classes);
        try {
          return chi2Numeric(c.values, t.y, t.classes);
        } catch (e) {
          if (e instanceof NegativeValueError) throw new DataError(`chi2 needs non-negative values (counts, frequencies or 0/1 indicators), and "${c.name}" has ${e.value}`, pathOf(j));
          throw e;
        }
      });
    }
    case "relief": {
      const t = needClasses(target, "relief");
      const probes = options.probes === undefined ? (t.y.length > RELIEF_PROBES ? RELIEF_PROBES : null) : options.probes;
      return reliefScores(columns, t.y, t.classes, { neighbours: options.neighbours ?? RELIEF_NEIGHBOURS, probes, rng: options.rng ?? createRng(0) });
    }
  }
}

/** Features sorted best first; ties keep column order. */
export function rankScores(names: readonly string[], scores: ArrayLike<number>): FilterScore[] {
  const order = names.map((_, j) => j).sort((a, b) => scores[b] - scores[a] || a - b);
  return order.map((j) => ({ feature: names[j], score: scores[j] }));
}

/**
 * POST /v1/datasets/{id}/feature-scores for the filter methods: every feature
 * (default: every column but the target that the method can score) with its
 * score, best first. `target` may be null for variance only.
 */
export function filterScores(frame: Frame, target: string | null, method: FilterMethod, features?: readonly string[], options: ScoreOptions = {}): FilterScore[] {
  if (!(FILTER_METHODS as readonly string[]).includes(method)) throw new DataError(`unknown filter method "${method}"; one of ${FILTER_METHODS.join(", ")}`, "method");
  let scoreTarget: ScoreTarget | null = null;
  if (target !== null) {
    const t = frame.columns.find((c) => c.name === target);
    if (!t) throw new DataError(`target "${target}" is not a column`, "target");
    scoreTarget = targetOfColumn(t);
  }
  const accepted = FILTER_FEATURE_TYPES[method];
  const columns =
    features === undefined
      ? frame.columns.filter((c) => c.name !== target && accepted.includes(c.type))
      : features.map((name, j) => {
          const c = frame.columns.find((col) => col.name === name);
          if (!c) throw new DataError(`feature "${name}" is not a column`, `features[${j}]`);
          if (name === target) throw new DataError(`the target "${name}" cannot be scored as a feature`, `features[${j}]`);
          return c;
        });
  const scores = scoreColumns(columns, method === "variance" ? null : scoreTarget, method, options);
  return rankScores(
    columns.map((c) => c.name),
    scores,
  );
}
