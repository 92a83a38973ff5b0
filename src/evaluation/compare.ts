/**
 * Which significance tests apply to a set of evaluations, and their results
 * (seed 004 / book §2.4). Pure: it reads evaluation results as stored.
 *
 * - two evaluations on the same splits (same folds_fingerprint): the paired t-test
 *   over per-fold scores, and for 5×2 cross-validation Dietterich's 5×2cv t-test;
 * - two classifiers scored on the same rows (same row_outcomes.rows): McNemar's test
 *   (χ² with continuity correction; the exact binomial form when b + c < 25);
 * - k ≥ 3 learners on N ≥ 2 datasets, each learner once per dataset: the Friedman
 *   test (χ² and Iman–Davenport F) with the Nemenyi critical difference.
 */
import { fiveByTwoCvTTest } from "./significance/five-by-two.js";
import { friedmanNemenyi } from "./significance/friedman.js";
import { mcnemarTest } from "./significance/mcnemar.js";
import { pairedTTest } from "./significance/paired-t.js";
import type { TestResult } from "./significance/result.js";

export interface ComparedEvaluation {
  id: string;
  dataset_id: string;
  /** Learner identity: algorithm and parameters (two configurations of one algorithm are two learners). */
  learner: string;
  method: string;
  task: string;
  metrics: Record<string, number | null>;
  folds?: { metrics: Record<string, number | null> }[];
  folds_fingerprint?: string;
  row_outcomes?: { rows: string; correct: string; count: number };
}

export interface Comparison {
  metric: string;
  alpha: number;
  higher_is_better: boolean;
  tests: TestResult[];
  learners?: string[];
  datasets?: string[];
  average_ranks?: number[];
  critical_difference?: number;
  nemenyi_pairs?: { a: string; b: string; rank_difference: number; p_value: number; significant: boolean }[];
}

export class ComparisonError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ComparisonError";
  }
}

const LOWER_IS_BETTER = new Set(["error_rate", "mse", "rmse", "mae", "log_loss", "hamming_loss", "davies_bouldin", "bias2", "variance", "noise"]);

export function defaultMetric(task: string): string {
  return task === "regression" ? "mse" : "accuracy";
}

function foldScores(e: ComparedEvaluation, metric: string): number[] {
  const scores = (e.folds ?? []).map((f) => f.metrics[metric]);
  if (scores.some((s) => typeof s !== "number")) throw new ComparisonError(`evaluation ${e.id} has no ${metric} in every fold`);
  return scores as number[];
}

function outcomeBits(e: ComparedEvaluation): Uint8Array {
  return new Uint8Array(Buffer.from(e.row_outcomes!.correct, "base64"));
}

function twoWay(a: ComparedEvaluation, b: ComparedEvaluation, metric: string, alpha: number): TestResult[] {
  const tests: TestResult[] = [];
  const sameFolds = a.folds && b.folds && a.folds.length >= 2 && a.folds_fingerprint !== undefined && a.folds_fingerprint === b.folds_fingerprint;
  if (sameFolds) {
    const sa = foldScores(a, metric);
    const sb = foldScores(b, metric);
    tests.push({ ...pairedTTest(sa, sb, { alpha }), name: "paired_t_test" });
    if (a.method === "five_by_two" && sa.length === 10) tests.push({ ...fiveByTwoCvTTest(sa, sb, { alpha }), name: "five_by_two_cv_t_test" });
  }
  if (a.row_outcomes && b.row_outcomes && a.row_outcomes.rows === b.row_outcomes.rows) {
    const bitsA = outcomeBits(a);
    const bitsB = outcomeBits(b);
    let aRight = 0;
    let bRight = 0;
    for (let i = 0; i < a.row_outcomes.count; i++) {
      const ra = (bitsA[i >> 3] >> (i & 7)) & 1;
      const rb = (bitsB[i >> 3] >> (i & 7)) & 1;
      if (ra && !rb) aRight++;
      else if (!ra && rb) bRight++;
    }
    const exact = aRight + bRight < 25;
    tests.push({ ...mcnemarTest({ a_right_b_wrong: aRight, a_wrong_b_right: bRight }, { alpha, method: exact ? "exact" : "chi2" }), name: exact ? "mcnemar_exact" : "mcnemar" });
  }
  if (tests.length === 0) {
    throw new ComparisonError(
      "no paired test applies: the two evaluations used different folds (same dataset, scheme and seed give the same folds) and were not scored on the same rows",
    );
  }
  return tests;
}

function friedman(evaluations: readonly ComparedEvaluation[], metric: string, alpha: number, higher: boolean): Omit<Comparison, "metric" | "alpha" | "higher_is_better"> {
  const datasets = [...new Set(evaluations.map((e) => e.dataset_id))];
  const learners = [...new Set(evaluations.map((e) => e.learner))];
  if (datasets.length < 2 || learners.length < 3) {
    throw new ComparisonError(`the Friedman test needs at least 3 learners on at least 2 datasets; got ${learners.length} on ${datasets.length}`);
  }
  const cell = new Map<string, number>();
  for (const e of evaluations) {
    const key = `${e.dataset_id}\u0000${e.learner}`;
    if (cell.has(key)) throw new ComparisonError(`learner ${e.learner} appears twice on dataset ${e.dataset_id}`);
    const v = e.metrics[metric];
    if (typeof v !== "number") throw new ComparisonError(`evaluation ${e.id} has no ${metric}`);
    cell.set(key, v);
  }
  const scores = datasets.map((d) =>
    learners.map((l) => {
      const v = cell.get(`${d}\u0000${l}`);
      if (v === undefined) throw new ComparisonError(`learner ${l} has no evaluation on dataset ${d}: the Friedman test needs every learner on every dataset`);
      return v;
    }),
  );
  const r = friedmanNemenyi(scores, { alpha, higherIsBetter: higher });
  return {
    tests: [r.friedman, r.iman_davenport],
    learners,
    datasets,
    average_ranks: r.average_ranks,
    critical_difference: r.nemenyi.critical_difference,
    nemenyi_pairs: r.nemenyi.pairs.map((p) => ({ a: learners[p.i], b: learners[p.j], rank_difference: p.rank_difference, p_value: p.p_value, significant: p.significant })),
  };
}

export function compareEvaluations(evaluations: readonly ComparedEvaluation[], options: { alpha?: number; metric?: string } = {}): Comparison {
  const alpha = options.alpha ?? 0.05;
  const tasks = new Set(evaluations.map((e) => e.task));
  if (tasks.size !== 1) throw new ComparisonError("the evaluations mix tasks");
  const metric = options.metric ?? defaultMetric([...tasks][0]);
  const higher = !LOWER_IS_BETTER.has(metric);
  for (const e of evaluations) if (typeof e.metrics[metric] !== "number") throw new ComparisonError(`evaluation ${e.id} has no metric ${metric}`);
  const base = { metric, alpha, higher_is_better: higher };
  if (evaluations.length === 2) return { ...base, tests: twoWay(evaluations[0], evaluations[1], metric, alpha) };
  return { ...base, ...friedman(evaluations, metric, alpha, higher) };
}
