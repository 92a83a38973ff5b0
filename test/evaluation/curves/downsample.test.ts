import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { downsampleCurve, precisionRecallCurve, prToWire, rocCurve, rocToWire, trapezoidArea } from "../../../src/evaluation/index.js";

function randomScores(n: number, seed: number): { y: Int32Array; s: Float64Array } {
  const rng = createRng(seed);
  const y = new Int32Array(n);
  const s = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = rng.next() < 0.4 ? 1 : 0;
    s[i] = rng.next() + 0.6 * y[i] * rng.next();
  }
  return { y, s };
}

/** Area under the upper convex hull of the points: what a thinned ROC must not change. */
function hullArea(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const hx: number[] = [];
  const hy: number[] = [];
  for (let i = 0; i < x.length; i++) {
    while (hx.length >= 2) {
      const a = hx.length - 2;
      const b = hx.length - 1;
      if ((hx[b] - hx[a]) * (y[i] - hy[a]) - (hy[b] - hy[a]) * (x[i] - hx[a]) < 0) break;
      hx.pop();
      hy.pop();
    }
    hx.push(x[i]);
    hy.push(y[i]);
  }
  return trapezoidArea(hx, hy);
}

describe("downsampleCurve", () => {
  const { y, s } = randomScores(3000, 11);
  const roc = rocToWire(rocCurve(y, s, { dropIntermediate: false }));

  test("a ROC curve keeps its end points, its convex hull, and stays a subset in order", () => {
    const small = downsampleCurve(roc, 60);
    assert.equal(small.fpr.length, 60);
    assert.equal(small.thresholds.length, 60);
    assert.deepEqual([small.fpr[0], small.tpr[0]], [0, 0]);
    assert.deepEqual([small.fpr.at(-1), small.tpr.at(-1)], [1, 1]);
    const fullHull = hullArea(roc.fpr as number[], roc.tpr as number[]);
    assert.equal(hullArea(small.fpr as number[], small.tpr as number[]), fullHull);
    // every kept point is an original point with its own threshold, thresholds still descending
    const index = new Map((roc.thresholds as number[]).map((t, i) => [t, i]));
    let last = -1;
    small.thresholds.forEach((t, r) => {
      const i = index.get(t as number)!;
      assert.ok(i > last);
      assert.deepEqual([roc.fpr[i], roc.tpr[i]], [small.fpr[r], small.tpr[r]]);
      last = i;
    });
    // and the thinned curve's area stays close to the original's
    const area = trapezoidArea(roc.fpr as number[], roc.tpr as number[]);
    assert.ok(Math.abs(trapezoidArea(small.fpr as number[], small.tpr as number[]) - area) < 0.01);
  });

  test("when the hull alone exceeds the budget it is thinned, ends kept", () => {
    const n = 500;
    const fpr = Array.from({ length: n }, (_, i) => i / (n - 1));
    const tpr = fpr.map(Math.sqrt); // strictly concave: every point is on the hull
    const thresholds = fpr.map((_, i) => n - i);
    const small = downsampleCurve({ fpr, tpr, thresholds }, 25);
    assert.equal(small.fpr.length, 25);
    assert.deepEqual([small.fpr[0], small.fpr.at(-1)], [0, 1]);
    assert.ok(Math.abs(trapezoidArea(small.fpr as number[], small.tpr as number[]) - 2 / 3) < 0.005);
  });

  test("a P-R curve keeps one threshold fewer than points and both end points", () => {
    const pr = prToWire(precisionRecallCurve(y, s));
    const small = downsampleCurve(pr, 40);
    assert.equal(small.precision.length, 40);
    assert.equal(small.recall.length, 40);
    assert.equal(small.thresholds.length, 39);
    assert.deepEqual([small.precision[0], small.recall[0]], [pr.precision[0], pr.recall[0]]);
    assert.deepEqual([small.precision.at(-1), small.recall.at(-1)], [1, 0]);
  });

  test("short curves come back unchanged; too small a budget is an error", () => {
    const tiny = { fpr: [0, 0.5, 1], tpr: [0, 1, 1], thresholds: [2, 1, 0] };
    assert.deepEqual(downsampleCurve(tiny, 3), tiny);
    assert.throws(() => downsampleCurve(tiny, 1), RangeError);
  });

  test("a curve with null coordinates is thinned evenly", () => {
    const n = 101;
    const curve = { fpr: Array(n).fill(null), tpr: Array.from({ length: n }, (_, i) => i / 100), thresholds: Array.from({ length: n }, (_, i) => -i) };
    const small = downsampleCurve(curve, 5);
    assert.deepEqual(small.thresholds, [-0, -25, -50, -75, -100]);
    assert.deepEqual(small.fpr, [null, null, null, null, null]);
  });
});
