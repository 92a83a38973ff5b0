/**
 * tsvm (the book's Algorithm 13.2): on two blobs whose few labelled rows tilt the labelled-only
 * SVM, the transduction moves the boundary into the gap; when it stops no pair of opposite
 * unlabelled labels has slacks summing over 2; labelled rows keep their labels; with
 * C_u_initial ≥ C the model is the svm's on the labelled rows; more than two classes are refused.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { takeRows } from "../../../src/data/frame.js";
import { createRng } from "../../../src/data/random.js";
import { UnusableInputError, type Algorithm, type TrainingSet } from "../../../src/models/contract.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import { decisionValues } from "../../../src/models/svm/support-vector-model.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { ctx, frameOf } from "../cluster/helpers.js";

const tsvm = getAlgorithm("tsvm") as Algorithm;
type State = { model: Parameters<typeof decisionValues>[0]; labels: Int32Array; swaps: number; solves: number; final_C_u: number };

/**
 * Blobs at x = −3 and x = 3 (spread 0.5 across, 2 along y); labelled: the top two rows of class 0 and the bottom
 * two of class 1, so the labelled-only SVM's boundary is tilted across the blobs. (With the blobs at ±2, spread 0.7,
 * the narrower gap, TSVM's local search does not find it: measured 0.615, 0.455, 0.603 against the SVM's 0.615,
 * 0.583, 0.641 — the book's caveat that the swaps only reach a local optimum.)
 */
function blobs(seed: number) {
  const rng = createRng(seed);
  const n = 160;
  const X: number[] = [];
  const truth: number[] = [];
  for (let i = 0; i < n; i++) {
    const c = i % 2;
    X.push((c === 0 ? -3 : 3) + 0.5 * rng.normal(), 2 * rng.normal());
    truth.push(c);
  }
  const byY = Array.from({ length: n }, (_, i) => i).sort((a, b) => X[2 * a + 1] - X[2 * b + 1]);
  const labelled = new Set([...byY.filter((i) => truth[i] === 0).slice(-2), ...byY.filter((i) => truth[i] === 1).slice(0, 2)]);
  const y = Int32Array.from(truth, (c, i) => (labelled.has(i) ? c : -1));
  const train: TrainingSet = { X: frameOf(X, n, 2), target: { task: "classification", y, classes: ["left", "right"] } };
  return { train, truth, labelled };
}

const accuracy = (labels: ArrayLike<number>, truth: number[], skip: Set<number>) => truth.filter((c, i) => !skip.has(i) && labels[i] === c).length / (truth.length - skip.size);

test("two blobs, two tilted labels per class: the transduction beats the labelled-only SVM and ends with no pair to swap", () => {
  for (const seed of [1, 2, 3]) {
    const { train, truth, labelled } = blobs(seed);
    const params = tsvm.params.parse({ kernel: "linear", C: 1 });
    const s = tsvm.fit(train, params, ctx()) as State;
    const svm = getAlgorithm("svm")!;
    const rows = [...labelled].sort((a, b) => a - b);
    const y = (train.target as { y: Int32Array }).y;
    const inductive = svm.fit({ X: takeRows(train.X, rows), target: { task: "classification", y: Int32Array.from(rows, (i) => y[i]), classes: ["left", "right"] } }, svm.params.parse({ kernel: "linear", C: 1 }), ctx());
    const before = accuracy((svm.predict(inductive, train.X) as { labels: Int32Array }).labels, truth, labelled);
    const after = accuracy(s.labels, truth, labelled);
    // Measured (seeds 1–3): 0.942, 0.936, 1.000 against 0.840, 0.795, 0.885.
    assert.ok(after >= 0.93 && after > before + 0.05, `seed ${seed}: transduction ${after.toFixed(3)} vs labelled-only SVM ${before.toFixed(3)} (${s.swaps} swaps, ${s.solves} solves)`);
    for (const i of labelled) assert.equal(s.labels[i], truth[i], `labelled row ${i}`);
    // The stopping rule of the inner loop, checked on the model kept.
    assert.ok(s.swaps < params.max_swaps);
    const f = decisionValues(s.model, rowMajor(train.X), truth.length);
    const slack = (i: number) => Math.max(0, 1 - (s.labels[i] === 1 ? f[i] : -f[i]));
    let max0 = 0;
    let max1 = 0;
    for (let i = 0; i < truth.length; i++) {
      if (labelled.has(i)) continue;
      if (s.labels[i] === 1) max1 = Math.max(max1, slack(i));
      else max0 = Math.max(max0, slack(i));
    }
    assert.ok(max0 === 0 || max1 === 0 || max0 + max1 <= 2, `a pair with slacks ${max0} + ${max1} > 2 is left`);
    assert.ok(s.final_C_u >= 0.5 && s.final_C_u < 1, `C_u doubled from 0.001 towards C = 1: last ${s.final_C_u}`);
  }
});

test("C_u_initial ≥ C: the model is the svm's on the labelled rows", () => {
  const { train, labelled } = blobs(4);
  const s = tsvm.fit(train, tsvm.params.parse({ kernel: "linear", C: 1, C_u_initial: 1 }), ctx()) as State;
  assert.equal(s.solves, 1);
  const rows = [...labelled].sort((a, b) => a - b);
  const y = (train.target as { y: Int32Array }).y;
  const svm = getAlgorithm("svm")!;
  const inductive = svm.fit({ X: takeRows(train.X, rows), target: { task: "classification", y: Int32Array.from(rows, (i) => y[i]), classes: ["left", "right"] } }, svm.params.parse({ kernel: "linear", C: 1 }), ctx());
  assert.deepEqual(Array.from((tsvm.predict(s, train.X) as { labels: Int32Array }).labels), Array.from((svm.predict(inductive, train.X) as { labels: Int32Array }).labels));
});

test("more than two classes, or labelled rows of one class only, are refused", () => {
  const X = frameOf([0, 0, 1, 1, 2, 2, 3, 3], 4, 2);
  const fit = (y: number[], classes: string[]) => () => tsvm.fit({ X, target: { task: "classification", y: Int32Array.from(y), classes } }, tsvm.params.parse({}), ctx());
  assert.throws(fit([0, 1, 2, -1], ["a", "b", "c"]), (e: unknown) => e instanceof UnusableInputError && /two-class/.test(e.message));
  assert.throws(fit([0, 0, -1, -1], ["a", "b"]), /both classes/);
});
