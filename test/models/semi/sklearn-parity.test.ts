/**
 * label_propagation / label_spreading against scikit-learn's LabelPropagation /
 * LabelSpreading on digits with 90 % of the labels hidden (fixture:
 * scripts/fixtures/semi_sklearn.py). The rbf graph is exact arithmetic on both sides:
 * same labels, distributions to 1e-6, same iteration count. The kNN graph may pick other
 * neighbours among rows at equal distance (digits has duplicate rows), so there the
 * labels agree on all but a few rows. And the point of the method: with 10 % of the
 * labels, it beats a supervised learner that sees only those.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { readCsv } from "../../../src/data/read-csv.js";
import { getColumn, selectColumns, takeRows } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import type { Algorithm, FitContext, TrainingSet } from "../../../src/models/contract.js";
import { fixture } from "../../helpers/app.js";

interface Case {
  algorithm: string;
  params: Record<string, unknown>;
  n_iter: number;
  transduction: number[];
  distributions_head: number[][];
  query_proba: number[][];
  hidden_accuracy: number;
}
interface SelfTrainingCase {
  params: Record<string, unknown>;
  hidden_accuracy: number;
  n_iter: number;
  termination: string;
}
const fx = JSON.parse(readFileSync(new URL("../../fixtures/semi/semi.json", import.meta.url), "utf8")) as { hidden: number[]; queries: number[][]; cases: Case[]; self_training: SelfTrainingCase[] };

const frame = readCsv(fixture("digits.csv"), { columnTypes: { target: "categorical" } });
const pixels = frame.columns.filter((c) => c.name !== "target").map((c) => c.name);
const X = selectColumns(frame, pixels);
const digit = getColumn(frame, "target");
if (digit.type !== "categorical") throw new Error("target must be categorical");
const classes = [...digit.levels].sort();
const truth = Int32Array.from(digit.codes, (c) => classes.indexOf(digit.levels[c]));
const hidden = new Set(fx.hidden);
const partial = Int32Array.from(truth, (y, i) => (hidden.has(i) ? -1 : y));
const train: TrainingSet = { X, target: { task: "classification", y: partial, classes } };
const ctx = (): FitContext => ({ rng: createRng(1), progress: () => {} });
const queries = { rowCount: fx.queries.length, columns: pixels.map((name, j) => ({ type: "numeric" as const, name, values: Float64Array.from(fx.queries, (q) => q[j]) })) };

let knnPropagation: unknown;

function hiddenAccuracy(labels: Int32Array): number {
  let right = 0;
  for (const i of fx.hidden) if (labels[i] === truth[i]) right++;
  return right / fx.hidden.length;
}

describe("graph-based semi-supervised learners against scikit-learn on digits, 90 % unlabelled", () => {
  for (const c of fx.cases) {
    const kernel = (c.params.kernel as { kind: string }).kind;
    test(`${c.algorithm}, ${kernel} graph`, () => {
      const algorithm = getAlgorithm(c.algorithm) as Algorithm;
      const state = algorithm.fit(train, algorithm.params.parse(c.params), ctx());
      if (c.algorithm === "label_propagation" && kernel === "knn") knnPropagation = state;
      const labels = algorithm.trainingLabels ? algorithm.trainingLabels(state) : (algorithm.predict(state, X) as { labels: Int32Array }).labels;
      const distributions = (state as { distributions: Float64Array }).distributions;
      const proba = algorithm.predict(state, queries);
      assert.equal(proba.task, "classification");
      if (kernel === "rbf") {
        assert.equal((state as { n_iter: number }).n_iter, c.n_iter, "iterations");
        assert.deepEqual(Array.from(labels), c.transduction);
        c.distributions_head.forEach((row, i) => row.forEach((v, k) => assert.ok(Math.abs(distributions[i * 10 + k] - v) < 1e-6, `row ${i} class ${k}: ${distributions[i * 10 + k]} vs ${v}`)));
        c.query_proba.forEach((row, i) => row.forEach((v, k) => assert.ok(Math.abs(proba.proba![i * 10 + k] - v) < 1e-6, `query ${i} class ${k}`)));
      } else {
        const differ = c.transduction.filter((v, i) => v !== labels[i]).length;
        assert.ok(differ <= 10, `${differ} of ${labels.length} rows labelled differently`);
        assert.ok(Math.abs(hiddenAccuracy(labels) - c.hidden_accuracy) < 0.01, `accuracy on the hidden rows ${hiddenAccuracy(labels)} vs scikit-learn's ${c.hidden_accuracy}`);
      }
    });
  }

  // scikit-learn's SelfTrainingClassifier wraps its own LogisticRegression (lbfgs, C = 1), ours
  // wraps ours: the rounds differ a little, the accuracy on the hidden rows may not by more than 0.02.
  for (const c of fx.self_training) {
    test(`self_training (logistic regression), ${JSON.stringify(c.params.criterion)}`, () => {
      const st = getAlgorithm("self_training")!;
      const state = st.fit(train, st.params.parse(c.params), ctx()) as { termination: string };
      const accuracy = hiddenAccuracy((st.predict(state, X) as { labels: Int32Array }).labels);
      assert.ok(Math.abs(accuracy - c.hidden_accuracy) < 0.02, `accuracy on the hidden rows ${accuracy} vs scikit-learn's ${c.hidden_accuracy}`);
      assert.equal(state.termination, c.termination);
    });
  }

  test("with 10 % of the labels, label_propagation beats logistic regression fitted on those labels alone", () => {
    const lp = getAlgorithm("label_propagation")!;
    // The kNN propagation fitted above (n_neighbors 7, as here), or a fresh fit if that test was skipped.
    const state = knnPropagation ?? lp.fit(train, lp.params.parse({ kernel: { kind: "knn", n_neighbors: 7 } }), ctx());
    const semi = hiddenAccuracy(lp.trainingLabels!(state));
    const labelled = Int32Array.from(Array.from({ length: truth.length }, (_, i) => i).filter((i) => !hidden.has(i)));
    const logistic = getAlgorithm("logistic_regression")!;
    const fitted = logistic.fit({ X: takeRows(X, labelled), target: { task: "classification", y: Int32Array.from(labelled, (i) => truth[i]), classes } }, logistic.params.parse({}), ctx());
    const supervised = hiddenAccuracy((logistic.predict(fitted, X) as { labels: Int32Array }).labels);
    // Measured with seed 0's mask: 0.973 against 0.92–0.93 (scikit-learn's LogisticRegression: 0.926).
    assert.ok(semi - supervised > 0.02, `semi-supervised ${semi.toFixed(3)} vs supervised ${supervised.toFixed(3)}`);
  });
});
