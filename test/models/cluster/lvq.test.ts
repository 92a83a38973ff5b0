/**
 * lvq: the book's watermelon 4.0 setup (§9.4.2: rows 9–21 class c2, the rest c1; prototypes from
 * rows 5, 12, 18, 23, 29 with classes c1, c2, c2, c1, c1; η = 0.1), its first update worked by
 * hand, and properties: same-class updates pull, other-class updates push, training moves
 * prototypes towards their own class and separates blobs; same seed, same model.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { makeFrame } from "../../../src/data/frame.js";
import { lvq, lvqParams, lvqStep } from "../../../src/models/cluster/lvq.js";
import { rowMajor } from "../../../src/models/design-matrix.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { blobs, ctx, frameOf, watermelon4 } from "./helpers.js";

const X = watermelon4();
const n = 30;
const flat = rowMajor(X);
/** 0-based rows 8…20 are the book's c2. */
const y = Int32Array.from({ length: n }, (_, i) => (i >= 8 && i <= 20 ? 1 : 0));
const target = { task: "classification" as const, y, classes: ["c1", "c2"] };
const BOOK_ROWS = [4, 11, 17, 22, 28];

test("the book's first step: x1 is nearest p5 (distances 0.283, 0.506, 0.434, 0.260, 0.032), same class, so p5 moves a tenth of the way to it", () => {
  const P = Float64Array.from(BOOK_ROWS.flatMap((r) => [flat[2 * r], flat[2 * r + 1]]));
  const classes = Int32Array.from(BOOK_ROWS.map((r) => y[r]));
  assert.deepEqual(Array.from(classes), [0, 1, 1, 0, 0]);
  const dist = BOOK_ROWS.map((_, c) => Math.hypot(flat[0] - P[2 * c], flat[1] - P[2 * c + 1]));
  assert.deepEqual(dist.map((v) => Number(v.toFixed(3))), [0.283, 0.506, 0.434, 0.26, 0.032]);
  assert.equal(lvqStep(P, classes, flat, y, 0, 2, 0.1), 4);
  assert.ok(Math.abs(P[8] - (0.725 + 0.1 * (0.697 - 0.725))) < 1e-12 && Math.abs(P[9] - (0.445 + 0.1 * (0.46 - 0.445))) < 1e-12);
  assert.deepEqual([P[8], P[9]].map((v) => Number(v.toFixed(4))), [0.7222, 0.4465]);
  // Row 12 (0-based 11) is p2 itself: no move. Row 6 (0-based 5, class c1) is nearest p3 (c2): pushed away.
  const before = Math.hypot(flat[10] - P[4], flat[11] - P[5]);
  assert.equal(lvqStep(P, classes, flat, y, 5, 2, 0.1), 2);
  assert.ok(Math.abs(Math.hypot(flat[10] - P[4], flat[11] - P[5]) - 1.1 * before) < 1e-12, "an other-class update moves the prototype 10 % farther");
});

test("the book's setup trains through fit: explicit rows, classes from their rows, each row's cell counted; predict = nearest prototype's class", () => {
  const params = lvqParams.parse({ init: { kind: "rows", rows: BOOK_ROWS }, learning_rate: 0.1, max_iter: 400 });
  const s = lvq.fit({ X, target }, params, ctx(7));
  assert.deepEqual(Array.from(s.prototype_classes), [0, 1, 1, 0, 0]);
  assert.equal(s.sizes.reduce((a, b) => a + b, 0), 30);
  assert.deepEqual(lvq.fit({ X, target }, params, ctx(7)), s, "same seed, same prototypes");
  const pred = lvq.predict(s, X);
  assert.ok(pred.task === "classification");
  for (let i = 0; i < n; i++) {
    const d = [0, 1, 2, 3, 4].map((c) => Math.hypot(flat[2 * i] - s.prototypes[2 * c], flat[2 * i + 1] - s.prototypes[2 * c + 1]));
    assert.equal(pred.labels[i], s.prototype_classes[d.indexOf(Math.min(...d))], `row ${i}`);
  }
  const e = lvq.explain!(s, {}) as { prototypes: { cluster: number; class: string; rows: number }[] };
  assert.deepEqual(e.prototypes.map((p) => p.class), ["c1", "c2", "c2", "c1", "c1"]);
  assert.deepEqual(lvq.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(s))))), s);
  assert.throws(() => lvq.fit({ X, target: null }, params, ctx()), /categorical target/);
  assert.throws(() => lvq.fit({ X, target }, lvqParams.parse({ init: { kind: "rows", rows: [30] } }), ctx()), /not a training row/);
});

test("property: a same-class update brings the prototype closer by the factor 1 − η, an other-class one pushes it by 1 + η", () => {
  fc.assert(
    fc.property(fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: 6, maxLength: 6 }), fc.double({ min: 0.01, max: 1, noNaN: true }), fc.boolean(), (v, eta, same) => {
      const P = Float64Array.from(v.slice(0, 2));
      const x = Float64Array.from(v.slice(2, 4));
      const before = Math.hypot(x[0] - P[0], x[1] - P[1]);
      lvqStep(P, Int32Array.of(0), x, Int32Array.of(same ? 0 : 1), 0, 2, eta);
      const after = Math.hypot(x[0] - P[0], x[1] - P[1]);
      assert.ok(Math.abs(after - (same ? 1 - eta : 1 + eta) * before) <= 1e-9 * (1 + before));
    }),
  );
});

test("on labelled blobs, training moves prototypes towards their own class and classifies the rows", () => {
  const { X: B, truth } = blobs(300, 3, 3, 11);
  const frame = frameOf(B, 300, 3);
  const t = { task: "classification" as const, y: truth, classes: ["a", "b", "c"] };
  // One prototype per class: it should settle near its class (a random row of it at the start).
  const params = lvqParams.parse({ prototypes_per_class: 1, learning_rate: 0.05, max_iter: 3000 });
  const untrained = lvq.fit({ X: frame, target: t }, { ...params, max_iter: 1 }, ctx(3));
  const s = lvq.fit({ X: frame, target: t }, params, ctx(3));
  assert.equal(s.prototype_classes.length, 3);
  const meanDistToClass = (P: Float64Array, c: number) => {
    let sum = 0;
    let count = 0;
    for (let i = 0; i < 300; i++) {
      if (truth[i] !== s.prototype_classes[c]) continue;
      sum += Math.hypot(...[0, 1, 2].map((j) => B[i * 3 + j] - P[c * 3 + j]));
      count++;
    }
    return sum / count;
  };
  for (let c = 0; c < 3; c++) assert.ok(meanDistToClass(s.prototypes, c) < meanDistToClass(untrained.prototypes, c), `prototype ${c} moved towards its class`);
  const two = lvq.fit({ X: frame, target: t }, { ...params, prototypes_per_class: 2 }, ctx(3));
  assert.equal(two.prototype_classes.length, 6);
  const pred = lvq.predict(two, frame);
  assert.ok(pred.task === "classification");
  const accuracy = pred.labels.filter((l, i) => l === truth[i]).length / 300;
  assert.ok(accuracy >= 0.95, `training accuracy ${accuracy}`);
  // One class with a single row: it gets one prototype whatever prototypes_per_class says.
  const tiny = makeFrame([{ type: "numeric", name: "x", values: Float64Array.of(0, 1, 2, 10) }]);
  const one = lvq.fit({ X: tiny, target: { task: "classification", y: Int32Array.of(0, 0, 0, 1), classes: ["p", "q"] } }, lvqParams.parse({ prototypes_per_class: 3 }), ctx());
  assert.deepEqual(Array.from(one.prototype_classes), [0, 0, 0, 1]);
});
