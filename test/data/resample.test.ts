import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { resample, resampledCounts } from "../../src/data/resample.js";
import { numeric, texts, throwsDataError } from "./helpers.js";

/** 40 rows of class 0 around (0, 0), 8 of class 1 around (5, 5), a categorical tag per row. */
function imbalanced(): { frame: Frame; y: Int32Array } {
  const rng = createRng(7);
  const n0 = 40;
  const n1 = 8;
  const n = n0 + n1;
  const x1 = new Float64Array(n);
  const x2 = new Float64Array(n);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = i < n0 ? 0 : 1;
    x1[i] = (y[i] === 1 ? 5 : 0) + rng.normal();
    x2[i] = (y[i] === 1 ? 5 : 0) + rng.normal();
  }
  const frame = makeFrame([
    { type: "numeric", name: "x1", values: x1 },
    { type: "categorical", name: "tag", levels: ["p", "q", "r"], codes: Int32Array.from({ length: n }, (_, i) => i % 3) },
    { type: "numeric", name: "x2", values: x2 },
  ]);
  return { frame, y };
}

const counts = (y: Int32Array) => [0, 1].map((c) => y.filter((v) => v === c).length);

describe("resample", () => {
  const { frame, y } = imbalanced();
  const x1 = numeric(frame, "x1");
  const x2 = numeric(frame, "x2");

  test("target counts: ratio = minority / majority after resampling", () => {
    assert.deepEqual(resampledCounts([40, 8], "oversample", 1), [40, 40]);
    assert.deepEqual(resampledCounts([40, 8], "smote", 0.5), [40, 20]);
    assert.deepEqual(resampledCounts([40, 8], "undersample", 0.5), [16, 8]);
    assert.deepEqual(resampledCounts([40, 8, 25, 0], "oversample", 0.75), [40, 30, 30, 0]);
  });

  test("SMOTE: every synthetic row lies on the segment from its row to one of that row's 5 nearest same-class neighbours, and the ratio is met", () => {
    const out = resample(frame, y, 2, { method: "smote", ratio: 1, neighbours: 5, rng: createRng(1) });
    assert.deepEqual(counts(out.y), [40, 40]);
    assert.equal(out.frame.rowCount, 80);
    const o1 = numeric(out.frame, "x1");
    const o2 = numeric(out.frame, "x2");
    const minority = Array.from({ length: 8 }, (_, t) => 40 + t);
    for (let r = 0; r < 48; r++) assert.equal(out.source[r], r, "the original rows come first, in order");
    for (let r = 48; r < 80; r++) {
      const i = out.source[r];
      assert.equal(y[i], 1, "synthetic rows start from a minority row");
      assert.equal(out.y[r], 1);
      assert.equal(texts(out.frame, "tag")[r], texts(frame, "tag")[i], "categorical cells copied from the starting row");
      const nearest = minority
        .filter((j) => j !== i)
        .sort((a, b) => (x1[a] - x1[i]) ** 2 + (x2[a] - x2[i]) ** 2 - ((x1[b] - x1[i]) ** 2 + (x2[b] - x2[i]) ** 2))
        .slice(0, 5);
      const onSegment = nearest.some((j) => {
        const u = (o1[r] - x1[i]) / (x1[j] - x1[i]);
        return u >= 0 && u < 1 && Math.abs(x2[i] + u * (x2[j] - x2[i]) - o2[r]) < 1e-12;
      });
      assert.ok(onSegment, `synthetic row ${r} is not between row ${i} and one of its neighbours`);
    }
  });

  test("random oversampling copies minority rows; undersampling keeps a subset in order", () => {
    const over = resample(frame, y, 2, { method: "oversample", ratio: 0.5, neighbours: 5, rng: createRng(2) });
    assert.deepEqual(counts(over.y), [40, 20]);
    for (let r = 48; r < over.frame.rowCount; r++) {
      assert.equal(y[over.source[r]], 1);
      assert.equal(numeric(over.frame, "x1")[r], x1[over.source[r]]);
    }
    const under = resample(frame, y, 2, { method: "undersample", ratio: 1, neighbours: 5, rng: createRng(2) });
    assert.deepEqual(counts(under.y), [8, 8]);
    for (let r = 1; r < under.source.length; r++) assert.ok(under.source[r] > under.source[r - 1]);
    assert.ok(under.source.slice(8).every((i) => i >= 40), "all minority rows kept");
  });

  test("seeded: the same seed gives the same rows, another seed other rows", () => {
    const a = resample(frame, y, 2, { method: "smote", ratio: 1, neighbours: 5, rng: createRng(3) });
    const b = resample(frame, y, 2, { method: "smote", ratio: 1, neighbours: 5, rng: createRng(3) });
    const c = resample(frame, y, 2, { method: "smote", ratio: 1, neighbours: 5, rng: createRng(4) });
    assert.deepEqual([...numeric(a.frame, "x1")], [...numeric(b.frame, "x1")]);
    assert.notDeepEqual([...numeric(a.frame, "x1")], [...numeric(c.frame, "x1")]);
  });

  test("a class of one row is copied (no neighbour to interpolate towards); missing numeric cells stop SMOTE", () => {
    const single = resample(frame, Int32Array.from(y, (v, i) => (i === 47 ? 1 : i >= 40 ? 2 : 0)), 3, { method: "smote", ratio: 0.1, neighbours: 5, rng: createRng(5) });
    const copies = Array.from(single.source).filter((i) => i === 47).length;
    assert.equal(copies, 4);
    const gappy = makeFrame([{ type: "numeric", name: "x", values: Float64Array.of(1, 2, 3, NaN, 5) }]);
    throwsDataError(() => resample(gappy, Int32Array.of(0, 0, 0, 1, 1), 2, { method: "smote", ratio: 1, neighbours: 1, rng: createRng(0) }), "method", "impute");
  });
});
