import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRng } from "../../../src/data/random.js";
import { exhaustiveCode, oneVsOne, oneVsRest, randomCode } from "../../../src/models/multiclass/code-matrix.js";
import { DECODERS } from "../../../src/models/multiclass/decoders.js";
import { PairwiseCoupling } from "../../../src/models/multiclass/pairwise-coupling.js";
import { multiclassParamsShape, type MulticlassOptions } from "../../../src/models/multiclass/params.js";
import { fitMulticlass, multiclassStateSchema, predictMulticlass } from "../../../src/models/multiclass/wrapper.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { z } from "zod";
import { accuracy, labelsOf, context, loadDataset, split, standardised } from "../../fixtures/svm-mlp/load.js";
import { centroidLearner } from "./centroid-learner.js";

const options = (o: Partial<MulticlassOptions>): MulticlassOptions => ({ ...z.object(multiclassParamsShape("ovr")).parse({}), ...o });

function columns(code: Int8Array, k: number, m: number): number[][] {
  return Array.from({ length: m }, (_, j) => Array.from({ length: k }, (_, c) => code[c * m + j]));
}

describe("code matrices", () => {
  test("one-vs-rest: k problems, each class positive in its own", () => {
    const { m, code } = oneVsRest(4);
    assert.equal(m, 4);
    assert.deepEqual(columns(code, 4, 4)[2], [-1, -1, 1, -1]);
  });

  test("one-vs-one: k(k−1)/2 problems in libsvm's pair order, the higher class positive", () => {
    const { m, code } = oneVsOne(4);
    assert.equal(m, 6);
    const pairs = columns(code, 4, m).map((col) => [col.indexOf(-1), col.indexOf(1), col.filter((v) => v === 0).length]);
    assert.deepEqual(pairs, [[0, 1, 2], [0, 2, 2], [0, 3, 2], [1, 2, 2], [1, 3, 2], [2, 3, 2]]);
  });

  test("exhaustive: 2^(k−1)−1 distinct, non-complementary splits (Dietterich & Bakiri's k = 4 table)", () => {
    const { m, code } = exhaustiveCode(4);
    assert.equal(m, 7);
    const rows = Array.from({ length: 4 }, (_, c) => Array.from(code.subarray(c * 7, c * 7 + 7)));
    assert.deepEqual(rows, [
      [1, 1, 1, 1, 1, 1, 1],
      [-1, -1, -1, -1, 1, 1, 1],
      [-1, -1, 1, 1, -1, -1, 1],
      [-1, 1, -1, 1, -1, 1, -1],
    ]);
    assert.throws(() => exhaustiveCode(11), /random/);
  });

  test("random: seeded, every column splits, every row distinct", () => {
    const a = randomCode(6, 9, createRng(1));
    assert.deepEqual(a.code, randomCode(6, 9, createRng(1)).code);
    assert.notDeepEqual(a.code, randomCode(6, 9, createRng(2)).code);
    const cols = columns(a.code, 6, 9);
    for (const col of cols) assert.ok(col.includes(1) && col.includes(-1));
    const rows = new Set(Array.from({ length: 6 }, (_, c) => a.code.subarray(c * 9, c * 9 + 9).join()));
    assert.equal(rows.size, 6);
  });
});

describe("decoders", () => {
  test("ovr takes the most confident class even when several (or none) say yes", () => {
    const { code } = oneVsRest(3);
    const scores = Float64Array.of(0.2, 0.9, -0.1, -0.5, -0.2, -0.9);
    const out = DECODERS.ovr({ n: 2, k: 3, m: 3, code, scores, positives: null, decoding: "hamming" });
    assert.deepEqual(Array.from(out.labels), [1, 1]);
  });

  test("ovo votes, and a three-way tie goes to the largest summed confidence", () => {
    const { code } = oneVsOne(3); // pairs (0,1), (0,2), (1,2)
    // Row 0: 1 beats 0, 2 beats 0, 2 beats 1 → class 2 by votes.
    // Row 1: 1 beats 0 (by 3), 0 beats 2 (by 0.5), 2 beats 1 (by 0.5): one vote each; class 1 has +3 −0.5.
    const scores = Float64Array.of(1, 1, 1, 3, -0.5, 0.5);
    const out = DECODERS.ovo({ n: 2, k: 3, m: 3, code, scores, positives: null, decoding: "hamming" });
    assert.deepEqual(Array.from(out.labels), [2, 1]);
  });

  test("ecoc: Hamming on signs with ties by Euclidean; Euclidean on raw scores", () => {
    const code = Int8Array.of(1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, 1); // 3 classes × 4 columns
    const decode = (scores: number[], decoding: "hamming" | "euclidean") =>
      DECODERS.ecoc({ n: 1, k: 3, m: 4, code, scores: Float64Array.from(scores), positives: null, decoding }).labels[0];
    // Signs (+,+,+,−): one bit off class 0 and one off class 1; Euclidean is nearer class 1.
    assert.equal(decode([0.2, 0.2, 1, -3], "hamming"), 1);
    // Signs (−,−,−,−): Hamming 1 from class 2, yet the raw scores are nearest class 1.
    assert.equal(decode([-0.1, -0.1, -0.1, -5], "hamming"), 2);
    assert.equal(decode([-0.1, -0.1, -0.1, -5], "euclidean"), 1);
  });

  test("pairwise coupling recovers consistent class probabilities", () => {
    const p = [0.5, 0.3, 0.2];
    const r = new Float64Array(9);
    for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) if (i !== j) r[i * 3 + j] = p[i] / (p[i] + p[j]);
    const out = new Float64Array(4);
    new PairwiseCoupling(3).solve(r, out, 1);
    assert.equal(out[0], 0);
    for (let i = 0; i < 3; i++) assert.ok(Math.abs(out[i + 1] - p[i]) < 2e-3, `${out[i + 1]} vs ${p[i]}`);
  });
});

describe("the generic wrapper with a non-SVM learner", () => {
  const digits = loadDataset("digits");
  const sd = split(digits, standardised(digits));
  const cases = [
    // Floors far above chance (0.1); ECOC is lower because a centroid cannot describe a side made of several classes.
    { name: "ovo", o: options({ multiclass: "ovo" }), models: 45, floor: 0.9, fits: (rows: number[]) => rows.every((r) => r < 320) },
    { name: "ovr", o: options({ multiclass: "ovr" }), models: 10, floor: 0.85, fits: (rows: number[]) => rows.every((r) => r === 1347) },
    { name: "ecoc random", o: options({ multiclass: "ecoc" }), models: 15, floor: 0.6, fits: (rows: number[]) => rows.every((r) => r === 1347) },
  ];
  for (const c of cases) {
    test(`digits, ${c.name}: ${c.models} binary models, each fitted on the right rows`, () => {
      const calls = { fits: 0, rows: [] as number[], classes: [] as string[][] };
      const learner = centroidLearner(true, calls);
      const state = fitMulticlass(learner, sd.train, {}, c.o, context());
      assert.equal(state.models.length, c.models);
      assert.equal(calls.fits, c.models);
      assert.ok(c.fits(calls.rows));
      const acc = accuracy(labelsOf(predictMulticlass(learner, state, sd.testX)), sd.testY);
      assert.ok(acc >= c.floor, `${c.name}: ${acc}`);
    });
  }

  test("ovo side names are the pair; ovr's negative side is every other class", () => {
    const iris = loadDataset("iris");
    const s = split(iris);
    const calls = { fits: 0, rows: [] as number[], classes: [] as string[][] };
    fitMulticlass(centroidLearner(true, calls), s.train, {}, options({ multiclass: "ovo" }), context());
    assert.deepEqual(calls.classes, [["0", "1"], ["0", "2"], ["1", "2"]]);
    const count = (c: number) => s.train.target!.y.filter((v) => v === c).length;
    assert.deepEqual(calls.rows, [count(0) + count(1), count(0) + count(2), count(1) + count(2)]);
    calls.classes = [];
    fitMulticlass(centroidLearner(true, calls), s.train, {}, options({ multiclass: "ovr" }), context());
    assert.deepEqual(calls.classes[0], ["1|2", "0"]);
  });

  test("iris: exhaustive ECOC gives 3 problems (2^(3−1) − 1)", () => {
    const iris = loadDataset("iris");
    const s = split(iris, standardised(iris));
    const learner = centroidLearner(true);
    const state = fitMulticlass(learner, s.train, {}, options({ multiclass: "ecoc", code_matrix: "exhaustive", decoding: "euclidean" }), context());
    assert.equal(state.models.length, 3);
    assert.ok(accuracy(labelsOf(predictMulticlass(learner, state, s.testX)), s.testY) >= 0.5);
  });

  test("digits without a decision hook: the wrappers fall back to predicted labels", () => {
    // OvO votes need signs only (same accuracy as with scores); OvR and ECOC lose their tie breaking.
    for (const [multiclass, floor] of [["ovo", 0.9], ["ovr", 0.65], ["ecoc", 0.55]] as const) {
      const learner = centroidLearner(false);
      const st = fitMulticlass(learner, sd.train, {}, options({ multiclass }), context());
      const acc = accuracy(labelsOf(predictMulticlass(learner, st, sd.testX)), sd.testY);
      assert.ok(acc >= floor, `${multiclass} on labels only: ${acc}`);
    }
  });

  test("two classes: one model, the learner's own predictions", () => {
    const ds = loadDataset("toy-classification");
    const s = split(ds);
    const learner = centroidLearner(true);
    for (const multiclass of ["ovr", "ovo", "ecoc"] as const) {
      const state = fitMulticlass(learner, s.train, {}, options({ multiclass }), context());
      assert.equal(state.models.length, 1);
      assert.deepEqual(predictMulticlass(learner, state, s.testX), learner.predict(state.models[0], s.testX));
    }
  });

  test("state round-trips through the artifact codec; same seed → same ECOC state", () => {
    const iris = loadDataset("iris");
    const s = split(iris);
    const learner = centroidLearner(true);
    const o = options({ multiclass: "ecoc", code_size: 3 });
    const state = fitMulticlass(learner, s.train, {}, o, context(9));
    assert.deepEqual(state, fitMulticlass(learner, s.train, {}, o, context(9)));
    const schema = multiclassStateSchema(learner.state);
    const loaded = schema.parse(decodeState(JSON.parse(JSON.stringify(encodeState(state)))));
    assert.deepEqual(predictMulticlass(learner, loaded, s.testX), predictMulticlass(learner, state, s.testX));
    assert.throws(() => schema.parse({ ...state, code: new Int8Array(2) }));
  });
});
