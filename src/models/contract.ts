/**
 * The Algorithm contract: every learner in xigua is one object of this shape,
 * registered by name in registry.ts. Generic machinery (the pipeline, validation
 * schemes, ensembles, search) only ever talks to this interface.
 *
 * Pure: no I/O, no Fastify, no SQLite. `state` is plain data (numbers, strings,
 * arrays, typed arrays, nested objects) that the artifact codec round-trips exactly.
 */
import type { z } from "zod";
import type { Frame } from "../data/frame.js";
import type { Rng } from "../data/random.js";

export type Task = "classification" | "regression" | "clustering" | "projection" | "anomaly";

/** What the learner is fitted on. X holds feature columns only. */
export interface TrainingSet {
  readonly X: Frame;
  readonly target: Target | null;
  /** Per-row sample weights (default all 1). Only given to algorithms with accepts.weights. */
  readonly weights?: Float64Array;
}

export type Target =
  /**
   * Class index per row into `classes` (sorted; see data/frame.ts sortLevels). −1 only for
   * algorithms with accepts.unlabelled: a row whose target is missing, kept as unlabelled
   * data; every other algorithm gets only labelled rows (the rest are dropped before fitting).
   */
  | { readonly task: "classification"; readonly y: Int32Array; readonly classes: readonly string[] }
  | { readonly task: "regression"; readonly y: Float64Array };

export type Prediction =
  /** labels: class index per row; proba: row-major n × classes.length, when the algorithm has probabilities. */
  | { readonly task: "classification"; readonly labels: Int32Array; readonly proba?: Float64Array }
  | { readonly task: "regression"; readonly values: Float64Array }
  /**
   * Cluster index per row; -1 for noise (DBSCAN). proba: row-major n × clusters, the
   * membership probabilities where the method defines them (gmm).
   */
  | { readonly task: "clustering"; readonly labels: Int32Array; readonly proba?: Float64Array }
  /** Row-major n × dims. */
  | { readonly task: "projection"; readonly values: Float64Array; readonly dims: number }
  /**
   * Outlier detection (isolation_forest): scores, the anomaly score s(x, ψ) = 2^(−E[h(x)]/c(ψ))
   * of Liu, Ting & Zhou (2008) in (0, 1], higher is more anomalous (scikit-learn's
   * score_samples is its negative); labels, 1 for an outlier (score above the model's
   * threshold), 0 for an inlier.
   */
  | { readonly task: "anomaly"; readonly scores: Float64Array; readonly labels: Int32Array };

export interface FitContext {
  readonly rng: Rng;
  /** Fraction done in [0, 1]; cheap to call, throttled by the caller. */
  progress(fraction: number): void;
  /** Long loops check this and throw (the job is then cancelled, timed out or over its memory budget). */
  readonly signal?: AbortFlag;
  /**
   * Spreads independent ensemble members over other threads as well as this one
   * (src/training/member-spread.ts, on a training worker with idle threads beside it);
   * absent, every member grows here. The result never depends on where a member grew.
   */
  readonly members?: MemberSpread;
  /**
   * The fitted state only predicts and is then dropped (a cross-validation fold): the fit may
   * skip what only the saved artifact or explain() reads, provided predictions do not change
   * and explain() still gives the same answer on the state (the tree's pruning path is
   * recomputed there when absent, prune.ts pruningPathOf).
   */
  readonly scoreOnly?: boolean;
}

/**
 * Members [0, count) of an ensemble, in order. `work` is all another thread needs to grow any
 * member (plain data and typed arrays: models/ensemble/member-work.ts grows it there);
 * `growHere(i)` grows member i on this thread. Member i must depend on (work, i) only.
 */
export interface MemberSpread {
  grow<T>(work: MemberWork, count: number, growHere: (i: number) => T): T[];
}

/** What a forest's member needs: the training set the fit sees and the plan (forest-grow.ts ForestPlan). */
export interface MemberWork {
  readonly kind: "forest";
  readonly train: TrainingSet;
  readonly plan: unknown;
  /** What every member reads and the fit computed once (a forest's presorted columns), so another thread need not compute it again. */
  readonly prepared?: unknown;
}

/**
 * What long loops poll. An AbortSignal satisfies it; so does the worker's flag in
 * shared memory (src/training/task-signal.ts), which is the only thing that can reach
 * a synchronous fit on a worker thread: messages and events wait for the fit to return.
 */
export interface AbortFlag {
  readonly aborted: boolean;
  readonly reason?: unknown;
}

export interface Accepts {
  /** Takes categorical columns as codes; otherwise the pipeline one-hot encodes them. */
  readonly categorical: boolean;
  /** Takes NaN / -1 cells; otherwise the pipeline imputes them. */
  readonly missing: boolean;
  /** Honours TrainingSet.weights. */
  readonly weights: boolean;
  /** Semi-supervised: keeps rows whose (categorical) target is missing, as class −1, instead of dropping them. */
  readonly unlabelled?: boolean;
  /** Most classes a categorical target may have (a two-class method: 2); a target with more is refused when the request is read, not as a failed job. */
  readonly maxClasses?: number;
  /**
   * A supervised projection (lda_projection, nca_projection, lmnn_projection): fitted against a categorical
   * target, it still answers projections — the request's task is "projection", with a target.
   */
  readonly classes?: boolean;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export interface Algorithm<P = any, S = any> {
  readonly name: string;
  readonly family: string;
  readonly tasks: readonly Task[];
  readonly description: string;
  /** Strict zod object with a default for every field: the single declaration of the parameters. */
  readonly params: z.ZodType<P>;
  /** Validates a state read back from an artifact: nothing is trusted, nothing evaluated. */
  readonly state: z.ZodType<S>;
  readonly accepts: Accepts;
  /**
   * Whether the fitted model depends on the units of numeric inputs (a column in
   * grams instead of kilograms changes the predictions): distances and kernels (svm,
   * svr), gradient training from a fixed initialisation (mlp, perceptron), penalties
   * on coefficients (ridge, lasso, …). The pipeline then standardises the numeric
   * inputs unless the request says `auto_scale: false`. Trees, OLS and LDA are not.
   */
  readonly scaleSensitive: boolean;
  /** The task this fit will perform, given the target (null for unsupervised). Throws a ParamError-like message if unsupported. */
  fit(train: TrainingSet, params: P, ctx: FitContext): S;
  /**
   * Incremental learning (POST /v1/models/{id}/partial-fit): the state updated with new labelled rows,
   * without refitting from scratch; `train` has the fitted model's columns (already through its
   * preprocessing steps) and, for a classifier, its classes. The old state is not modified.
   * Algorithms without it answer 422 there.
   */
  partialFit?(state: S, train: TrainingSet, params: P, ctx: FitContext): S;
  /**
   * Rows a fitted state keeps for later updates (an incremental tree's instances). partial_fit
   * works on them and the new rows together, so its memory check estimates a fit on both;
   * absent means the state keeps none (an update costs about a fit on the new rows).
   */
  keptRows?(state: S): number;
  predict(state: S, X: Frame): Prediction;
  /**
   * Clustering methods that label only the rows they were fitted on (agnes, diana, optics):
   * they define no cluster for a new row, so /predict answers 422 transductive_model and
   * `predict` is never called; the labels come from `trainingLabels`.
   */
  readonly transductive?: boolean;
  /**
   * The label of every training row, in training-row order: clustering's clusters (−1 noise;
   * GET /v1/models/{id}/labels), a graph-based semi-supervised learner's transduction (class indices).
   */
  trainingLabels?(state: S): Int32Array;
  /**
   * Projections: the name of each output coordinate (pc1, pc2, …), in Prediction order —
   * the columns POST /v1/models/{id}/transform writes.
   */
  outputNames?(state: S): readonly string[];
  /** Family-specific explanation (API.md /explain). */
  explain?(state: S, options?: { format?: string; maxNodes?: number; maxDepth?: number; maxValues?: number }): unknown;
}

/** Thrown by fit for input that is well-formed but unusable (becomes a 422 or a failed job with this message). */
export class UnusableInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnusableInputError";
  }
}

export function throwIfAborted(signal: AbortFlag | undefined): void {
  if (signal?.aborted) throw signal.reason instanceof Error ? signal.reason : new Error("aborted");
}
