/**
 * POST /v1/metrics against seed 004's worked numbers (SEEDS.md) and scikit-learn's
 * documented examples (hamming_loss, label_ranking_loss, the regression metrics).
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { testApp, type TestApp } from "../helpers/app.js";

let t: TestApp;
before(async () => (t = await testApp()));
after(() => t.close());

const post = (payload: unknown) => t.app.inject({ method: "POST", url: "/v1/metrics", headers: { "content-type": "application/json" }, payload: JSON.stringify(payload) });

async function metrics(payload: unknown) {
  const res = await post(payload);
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

function close(actual: number, expected: number, tol: number, what: string) {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

async function problem(payload: unknown, status: number, code: string, path?: string) {
  const res = await post(payload);
  assert.equal(res.statusCode, status, res.body);
  assert.match(res.headers["content-type"] as string, /application\/problem\+json/);
  assert.equal(res.json().code, code, res.body);
  if (path) assert.ok(res.json().errors?.some((e: { path: string }) => e.path === path), res.body);
}

describe("seed 004, from confusion matrices", () => {
  test("cats and dogs: accuracy 0.867, error rate 0.133", async () => {
    const body = await metrics({ confusion_matrix: { labels: ["dog", "cat"], matrix: [[54, 6], [10, 50]] }, positive_class: "cat" });
    close(body.metrics.accuracy, 0.867, 0.002, "accuracy");
    close(body.metrics.error_rate, 0.133, 0.002, "error rate");
    assert.equal(body.positive_class, "cat");
    assert.deepEqual(body.confusion_matrix, { labels: ["dog", "cat"], matrix: [[54, 6], [10, 50]] });
  });

  test("screening: sensitivity 0.95, specificity 0.9998", async () => {
    const body = await metrics({ confusion_matrix: { labels: ["healthy", "ill"], matrix: [[9998, 2], [1, 19]] }, positive_class: "ill" });
    close(body.metrics.sensitivity, 0.95, 1e-4, "sensitivity");
    close(body.metrics.specificity, 0.9998, 1e-4, "specificity");
  });

  test("fraud: precision 0.941, recall 0.986, F_β 0.9495 / 0.9631 / 0.9770", async () => {
    const cm = { labels: ["normal", "fraud"], matrix: [[687, 23], [5, 365]] };
    for (const [beta, expected] of [[0.5, 0.9495], [1, 0.9631], [2, 0.977]] as const) {
      const body = await metrics({ confusion_matrix: cm, positive_class: "fraud", beta });
      close(body.metrics.precision, 0.941, 0.002, "precision");
      close(body.metrics.recall, 0.986, 0.002, "recall");
      close(body.metrics.fbeta, expected, 1e-4, `fbeta ${beta}`);
    }
  });

  test("traffic lights: micro 0.854, macro P/R/F1 0.808/0.803/0.805, macro_f1_mean 0.8047", async () => {
    const body = await metrics({ confusion_matrix: { labels: ["red", "green", "yellow"], matrix: [[39, 0, 1], [1, 33, 5], [3, 4, 10]] } });
    for (const name of ["micro_precision", "micro_recall", "micro_f1"]) close(body.metrics[name], 0.854, 0.002, name);
    close(body.metrics.macro_precision, 0.808, 0.002, "macro P");
    close(body.metrics.macro_recall, 0.803, 0.002, "macro R");
    close(body.metrics.macro_f1, 0.805, 0.002, "macro F1");
    close(body.metrics.macro_f1_mean, 0.8047, 1e-4, "macro F1 mean");
    close(body.per_class.red.precision, 0.907, 0.002, "red P");
    close(body.per_class.yellow.recall, 0.588, 0.002, "yellow R");
  });

  test("the same counts as labels give the same metrics", async () => {
    const cm = { labels: ["red", "green", "yellow"], matrix: [[39, 0, 1], [1, 33, 5], [3, 4, 10]] };
    const yTrue: string[] = [];
    const yPred: string[] = [];
    cm.matrix.forEach((row, i) => row.forEach((n, j) => { for (let r = 0; r < n; r++) { yTrue.push(cm.labels[i]); yPred.push(cm.labels[j]); } }));
    const fromLabels = await metrics({ y_true: yTrue, y_pred: yPred, labels: cm.labels });
    const fromMatrix = await metrics({ confusion_matrix: cm });
    for (const [name, value] of Object.entries(fromMatrix.metrics)) close(fromLabels.metrics[name], value as number, 1e-12, name);
    assert.deepEqual(fromLabels.confusion_matrix, fromMatrix.confusion_matrix);
  });
});

describe("seed 004, radar ROC (planes are items 1, 3, 6, 7, 11)", () => {
  const yTrue = [1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1];
  test("radar A: AUC 0.9833, average precision 0.9667, with curves", async () => {
    const body = await metrics({ y_true: yTrue, y_score: [0.9, 0.5, 0.75, 0.4, 0.1, 0.98, 0.6, 0.6, 0.3, 0.55, 0.7] });
    assert.equal(body.task, "classification");
    close(body.metrics.auc, 0.9833, 1e-4, "auc");
    close(body.metrics.average_precision, 0.9667, 1e-4, "ap");
    close(body.metrics.bep, 0.9, 1e-12, "bep");
    assert.equal(body.curves.roc.fpr.at(-1), 1);
    assert.equal(body.curves.pr.recall.at(-1), 0);
    assert.ok(typeof body.metrics.log_loss === "number", "scores in [0, 1] are probabilities");
  });
  test("radar B: AUC 0.7667, average precision 0.7226; with y_pred the label metrics too", async () => {
    const score = [0.75, 0.55, 0.65, 0.45, 0.3, 0.8, 0.5, 0.75, 0.4, 0.6, 0.55];
    const body = await metrics({ y_true: yTrue, y_score: score, y_pred: score.map((s) => (s >= 0.6 ? 1 : 0)) });
    close(body.metrics.auc, 0.7667, 1e-4, "auc");
    close(body.metrics.average_precision, 0.7226, 1e-4, "ap");
    assert.equal(typeof body.metrics.precision, "number");
    assert.equal(body.positive_class, "1");
  });
});

describe("curves", () => {
  test("thinned to curve_points (default 1000), end points kept; the metrics come from every score", async () => {
    const n = 3000;
    const yTrue = Array.from({ length: n }, (_, i) => ((i * 7919) % 13 < 5 ? 1 : 0));
    const yScore = Array.from({ length: n }, (_, i) => (((i * 104729) % 997) / 997 + yTrue[i] * 0.3) / 1.3);
    const full = await metrics({ y_true: yTrue, y_score: yScore, curve_points: 100_000 });
    const thin = await metrics({ y_true: yTrue, y_score: yScore, curve_points: 50 });
    const byDefault = await metrics({ y_true: yTrue, y_score: yScore });
    assert.ok(full.curves.roc.fpr.length > 1000, String(full.curves.roc.fpr.length));
    assert.ok(thin.curves.roc.fpr.length <= 50 && thin.curves.pr.recall.length <= 50);
    assert.ok(byDefault.curves.roc.fpr.length <= 1000 && byDefault.curves.pr.precision.length <= 1000);
    assert.deepEqual(thin.metrics, full.metrics);
    assert.deepEqual([thin.curves.roc.fpr[0], thin.curves.roc.fpr.at(-1)], [full.curves.roc.fpr[0], full.curves.roc.fpr.at(-1)]);
  });
});

describe("scikit-learn's documented examples", () => {
  test("hamming_loss([[0, 1], [1, 1]], zeros) = 0.75", async () => {
    const body = await metrics({ y_true: [[0, 1], [1, 1]], y_pred: [[0, 0], [0, 0]] });
    assert.deepEqual(body, { task: "multilabel", metrics: { hamming_loss: 0.75 } });
  });
  test("label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]) = 0.75", async () => {
    const body = await metrics({ y_true: [[1, 0, 0], [0, 0, 1]], y_score: [[0.75, 0.5, 1], [1, 0.2, 0.1]] });
    close(body.metrics.ranking_loss, 0.75, 1e-12, "ranking loss");
  });
  test("regression: y_true [3, -0.5, 2, 7], y_pred [2.5, 0, 2, 8] → mse 0.375, mae 0.5, r2 0.9486", async () => {
    const body = await metrics({ y_true: [3, -0.5, 2, 7], y_pred: [2.5, 0.0, 2, 8] });
    assert.equal(body.task, "regression");
    close(body.metrics.mse, 0.375, 1e-12, "mse");
    close(body.metrics.mae, 0.5, 1e-12, "mae");
    close(body.metrics.r2, 0.9486, 1e-4, "r2");
    const forced = await metrics({ task: "regression", y_true: [1, 2, 3], y_pred: [1, 2, 4] });
    assert.equal(forced.task, "regression");
  });
  test("multiclass scores: one-vs-rest macro auc and log_loss", async () => {
    const body = await metrics({ y_true: ["a", "b", "c", "a"], y_pred: ["a", "b", "b", "a"], y_score: [[0.8, 0.1, 0.1], [0.1, 0.8, 0.1], [0.2, 0.5, 0.3], [0.6, 0.3, 0.1]] });
    close(body.metrics.auc, 1, 1e-12, "auc");
    close(body.metrics.log_loss, -(Math.log(0.8) + Math.log(0.8) + Math.log(0.3) + Math.log(0.6)) / 4, 1e-12, "log loss");
    assert.deepEqual(Object.keys(body.auc_per_class), ["a", "b", "c"]);
  });
});

describe("errors", () => {
  test("mismatched lengths and widths → 422 invalid_request", async () => {
    await problem({ y_true: ["a", "b"], y_pred: ["a"] }, 422, "invalid_request", "y_pred");
    await problem({ y_true: [[0, 1], [1, 0]], y_pred: [[0, 1]] }, 422, "invalid_request", "y_pred");
    await problem({ y_true: [[0, 1], [1, 0]], y_pred: [[0, 1], [1]] }, 422, "invalid_request", "y_pred[1]");
    await problem({ y_true: [[0, 2]], y_pred: [[0, 1]] }, 422, "invalid_request", "y_true[0][1]");
    await problem({ y_true: [1, 0], y_score: [0.1] }, 422, "invalid_request", "y_score");
    await problem({ y_true: ["a", "b", "c"], y_score: [0.1, 0.2, 0.3] }, 422, "invalid_request", "y_score");
    await problem({ confusion_matrix: { labels: ["a", "b"], matrix: [[1, 2], [3]] } }, 422, "invalid_request", "confusion_matrix.matrix[1]");
    await problem({ confusion_matrix: { labels: ["a", "b"], matrix: [[1, 2], [3, 4]] }, y_true: ["a"] }, 422, "invalid_request", "y_true");
  });
  test("values not in labels, a positive class that is no class → 422 unknown_class; one class → 422 single_class", async () => {
    await problem({ y_true: ["a", "b"], y_pred: ["a", "c"], labels: ["a", "b"] }, 422, "unknown_class", "y_pred[1]");
    await problem({ y_true: ["a", "b"], y_pred: ["a", "b"], positive_class: "z" }, 422, "unknown_class", "positive_class");
    await problem({ y_true: ["a", "a"], y_pred: ["a", "a"] }, 422, "single_class");
  });
  test("nothing to score, or what a task cannot use → 422", async () => {
    await problem({}, 422, "invalid_request", "body");
    await problem({ y_true: ["a", "b"] }, 422, "invalid_request", "body");
    await problem({ y_true: [[0, 1]] }, 422, "invalid_request", "body");
    await problem({ task: "regression", y_true: [1.5, 2], y_pred: [1, 2], y_score: [0.1, 0.2] }, 422, "invalid_request", "body");
    await problem({ task: "regression", y_true: ["a"], y_pred: [1] }, 422, "invalid_request", "y_true[0]");
  });
  test("malformed bodies → 400 validation_failed", async () => {
    await problem({ y_true: "abc" }, 400, "validation_failed");
    await problem({ y_true: [1], extra: 1 }, 400, "validation_failed");
    await problem({ y_true: [1, 0], y_pred: [1, 0], beta: -1 }, 400, "validation_failed", "beta");
    await problem({ confusion_matrix: { labels: ["a", "b"], matrix: [[-1, 0], [0, 1]] } }, 400, "validation_failed");
  });
});

describe("any JSON", () => {
  test("answers 200 or a 4xx problem, never a 5xx", async () => {
    const key = fc.constantFrom("y_true", "y_pred", "y_score", "labels", "positive_class", "beta", "task", "confusion_matrix");
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.jsonValue(), fc.dictionary(key, fc.jsonValue(), { maxKeys: 4 })), async (payload) => {
        const res = await post(payload);
        assert.ok(res.statusCode === 200 || (res.statusCode >= 400 && res.statusCode < 500), `${res.statusCode} ${res.body}`);
      }),
      { numRuns: 100 },
    );
  });
});
