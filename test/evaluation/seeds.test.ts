/**
 * The worked numbers of the seeds (SEEDS.md "Classification metrics (seed 004)").
 * The seeds round their intermediate results, so (as SEEDS.md says) the check is ±0.002
 * around the printed value; where the exact value is a simple fraction it is checked to 1e-12.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import {
  binaryMetrics,
  breakEvenPoint,
  confusionFromMatrix,
  multiclassMetrics,
  perClassScores,
  rocAuc,
  rocCurve,
  summarizeClassification,
} from "../../src/evaluation/index.js";
import { assertClose, f64, i32 } from "./helpers.js";

const printed = (actual: number | null | undefined, value: number, what: string) => assertClose(actual, value, 0.002, what);

describe("seed 004 binary metrics", () => {
  test("cats and dogs: accuracy 0.867, error rate 0.133", () => {
    const m = binaryMetrics({ tp: 50, fn: 10, fp: 6, tn: 54 });
    printed(m.accuracy, 0.867, "accuracy");
    printed(m.error_rate, 0.133, "error rate");
    assertClose(m.accuracy, 104 / 120, 1e-12, "accuracy exact");
  });

  test("screening: sensitivity 0.95, specificity 0.9998", () => {
    const m = binaryMetrics({ tp: 19, fn: 1, fp: 2, tn: 9998 });
    assertClose(m.sensitivity, 0.95, 1e-12, "sensitivity");
    assertClose(m.specificity, 0.9998, 1e-12, "specificity");
  });

  test("fraud: precision 0.941, recall 0.986, F_beta 0.949 / 0.962 / 0.976", () => {
    const counts = { tp: 365, fn: 5, fp: 23, tn: 687 };
    const m = binaryMetrics(counts);
    printed(m.precision, 0.941, "precision");
    printed(m.recall, 0.986, "recall");
    printed(binaryMetrics(counts, 0.5).fbeta, 0.949, "F0.5");
    printed(binaryMetrics(counts, 1).fbeta, 0.962, "F1");
    printed(binaryMetrics(counts, 2).fbeta, 0.976, "F2");
    assert.equal(binaryMetrics(counts, 1).fbeta, m.f1);
  });

  test("fraud through summarizeClassification with the positive class named", () => {
    // rows: 365 刷单→刷单, 5 刷单→正常, 23 正常→刷单, 687 正常→正常; classes sorted: 刷单 < 正常
    const yTrue: number[] = [];
    const yPred: number[] = [];
    const add = (t: number, p: number, count: number) => {
      for (let i = 0; i < count; i++) {
        yTrue.push(t);
        yPred.push(p);
      }
    };
    add(0, 0, 365);
    add(0, 1, 5);
    add(1, 0, 23);
    add(1, 1, 687);
    const s = summarizeClassification({ yTrue: i32(yTrue), yPred: i32(yPred), classes: ["刷单", "正常"], positiveClass: "刷单", beta: 2 });
    assert.equal(s.positive_class, "刷单");
    printed(s.metrics.precision as number, 0.941, "precision");
    printed(s.metrics.fbeta as number, 0.976, "F2");
    assert.deepEqual(s.confusion_matrix, { labels: ["刷单", "正常"], matrix: [[365, 5], [23, 687]] });
  });
});

describe("seed 004 traffic lights (multiclass)", () => {
  const c = confusionFromMatrix([
    [39, 0, 1],
    [1, 33, 5],
    [3, 4, 10],
  ]);

  test("micro P = R = F1 = 0.854", () => {
    const m = multiclassMetrics(c);
    printed(m.micro_precision, 0.854, "micro P");
    printed(m.micro_recall, 0.854, "micro R");
    printed(m.micro_f1, 0.854, "micro F1");
    assertClose(m.accuracy, 82 / 96, 1e-12, "accuracy");
  });

  test("per class precision/recall: red 0.907/0.975, green 0.892/0.846, yellow 0.625/0.588", () => {
    const [red, green, yellow] = perClassScores(c);
    printed(red.precision, 0.907, "red P");
    printed(red.recall, 0.975, "red R");
    printed(green.precision, 0.892, "green P");
    printed(green.recall, 0.846, "green R");
    printed(yellow.precision, 0.625, "yellow P");
    printed(yellow.recall, 0.588, "yellow R");
    assert.deepEqual([red.support, green.support, yellow.support], [40, 39, 17]);
  });

  test("macro P 0.808, macro R 0.803, seed macro F1 0.805, scikit-learn's macro F1 0.8047", () => {
    const m = multiclassMetrics(c);
    printed(m.macro_precision, 0.808, "macro P");
    printed(m.macro_recall, 0.803, "macro R");
    printed(m.macro_f1, 0.805, "macro F1 (seed)");
    assertClose(m.macro_f1_mean, 0.8047, 0.00005, "macro F1 (mean of per-class)");
    assert.notEqual(m.macro_f1, m.macro_f1_mean);
  });
});

describe("seed 004 radar ROC", () => {
  // items 1, 3, 6, 7, 11 are planes
  const planes = [1, 0, 1, 0, 0, 1, 1, 0, 0, 0, 1];
  const radarA = [0.9, 0.5, 0.75, 0.4, 0.1, 0.98, 0.6, 0.6, 0.3, 0.55, 0.7];
  const radarB = [0.75, 0.55, 0.65, 0.45, 0.3, 0.8, 0.5, 0.75, 0.4, 0.6, 0.55];

  test("AUC A = 0.9833 and B = 0.7667, ties counting half", () => {
    assertClose(rocAuc(planes, radarA), 29.5 / 30, 1e-12, "radar A");
    assertClose(rocAuc(planes, radarB), 23 / 30, 1e-12, "radar B");
    printed(rocAuc(planes, radarA) as number, 0.9833, "radar A printed");
    printed(rocAuc(planes, radarB) as number, 0.7667, "radar B printed");
  });

  test("radar A's ROC passes through the slide's table points", () => {
    const all = rocCurve(planes, radarA, { dropIntermediate: false });
    const points = Array.from(all.fpr, (f, i) => `${f.toFixed(2)},${all.tpr[i].toFixed(1)}`);
    // slide rows 11 → 1: thresholds 1 … 0.1 (the slide's 0.95 row is not a distinct score)
    for (const p of ["0.00,0.0", "0.00,0.2", "0.00,0.4", "0.00,0.6", "0.00,0.8", "0.17,1.0", "0.33,1.0", "0.50,1.0", "0.67,1.0", "0.83,1.0", "1.00,1.0"]) {
      assert.ok(points.includes(p), `missing ${p} in ${points.join(" ")}`);
    }
  });

  test("break-even points: A 0.9 (a tie straddles the cut-off), B 0.6", () => {
    assertClose(breakEvenPoint(planes, radarA), 0.9, 1e-12, "A");
    assertClose(breakEvenPoint(planes, radarB), 0.6, 1e-12, "B");
  });

  test("summarizeClassification gives the same AUC from a probability matrix", () => {
    const proba = f64(radarA.flatMap((p) => [1 - p, p]));
    const yPred = i32(radarA.map((p) => (p >= 0.5 ? 1 : 0)));
    const s = summarizeClassification({ yTrue: i32(planes), yPred, proba, classes: ["bird", "plane"] });
    assert.equal(s.positive_class, "plane");
    assertClose(s.metrics.auc as number, 29.5 / 30, 1e-12, "auc");
    assertClose(s.metrics.bep as number, 0.9, 1e-12, "bep");
  });
});
