import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { candidateThresholds, featureScores } from "../../../src/models/tree/feature-scores.js";
import type { FeatureScore } from "../../../src/models/tree/feature-scores.js";
import { getColumn } from "../../../src/data/frame.js";
import { readCsv } from "./fixtures.js";

const close = (actual: number, expected: number, tol = 0.002): void => assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected} ± ${tol}`);
const byName = (scores: FeatureScore[]): Record<string, FeatureScore> => Object.fromEntries(scores.map((s) => [s.feature, s]));
const SIX = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"];

describe("feature scores: the seeds' numbers for watermelon 2.0 (root node, log base 2)", () => {
  const frame = readCsv("watermelon-2.0.csv");
  const gain = byName(featureScores(frame, "好瓜", "info_gain", SIX));
  const ratio = byName(featureScores(frame, "好瓜", "gain_ratio", SIX));
  const gini = byName(featureScores(frame, "好瓜", "gini_index", SIX));

  test("information gains 0.108 · 0.143 · 0.141 · 0.381 · 0.289 · 0.006", () => {
    const expected = [0.108, 0.143, 0.141, 0.381, 0.289, 0.006];
    SIX.forEach((f, i) => close(gain[f].score, expected[i]));
  });

  test("intrinsic values 1.580 · 1.402 · 1.333 · 1.447 · 1.549 · 0.874 (gain / ratio); gain ratios 纹理 0.263, 脐部 0.187", () => {
    const expected = [1.58, 1.402, 1.333, 1.447, 1.549, 0.874];
    SIX.forEach((f, i) => close(gain[f].score / ratio[f].score, expected[i]));
    close(ratio["纹理"].score, 0.263);
    close(ratio["脐部"].score, 0.187);
  });

  test("Gini indices 0.427 · 0.422 · 0.424 · 0.277 · 0.345 · 0.494, sorted best (lowest) first", () => {
    const expected = [0.427, 0.422, 0.424, 0.277, 0.345, 0.494];
    SIX.forEach((f, i) => close(gini[f].score, expected[i]));
    const sorted = featureScores(frame, "好瓜", "gini_index", SIX).map((s) => s.feature);
    assert.deepEqual(sorted, ["纹理", "脐部", "根蒂", "敲声", "色泽", "触感"]);
  });

  test("default features are every column but the target: the row id 编号 (rows 1–8 good) splits perfectly at 8.5", () => {
    const all = featureScores(frame, "好瓜", "info_gain");
    assert.equal(all[0].feature, "编号");
    assert.equal(all[0].threshold, 8.5);
    close(all[0].score, 0.998); // all of Ent(D): why the seeds drop the id column
    assert.equal(all[1].feature, "纹理");
    for (let i = 1; i < all.length; i++) assert.ok(all[i - 1].score >= all[i].score);
  });
});

describe("feature scores: watermelon 3.0 continuous bi-partition", () => {
  const frame = readCsv("watermelon-3.0.csv");
  const features = [...SIX, "密度", "含糖率"];

  test("密度 has 16 candidate thresholds, the midpoints the seed lists", () => {
    const t = candidateThresholds((getColumn(frame, "密度") as { values: Float64Array }).values);
    const seed = [0.244, 0.294, 0.351, 0.381, 0.42, 0.459, 0.518, 0.574, 0.6, 0.621, 0.636, 0.648, 0.661, 0.681, 0.708, 0.746];
    assert.equal(t.length, 16);
    t.forEach((v, i) => close(v, seed[i], 0.001));
  });

  test("密度: threshold 0.3815, gain 0.262; 含糖率: threshold 0.126, gain 0.349; 纹理 still best (0.381)", () => {
    const scores = featureScores(frame, "好瓜", "info_gain", features);
    const s = byName(scores);
    close(s["密度"].threshold as number, 0.3815, 1e-9);
    close(s["密度"].score, 0.262);
    close(s["含糖率"].threshold as number, 0.126, 1e-9);
    close(s["含糖率"].score, 0.349);
    assert.equal(scores[0].feature, "纹理");
    close(scores[0].score, 0.381);
    assert.equal(s["纹理"].threshold, undefined);
  });
});

describe("feature scores: watermelon 2.0α, missing values by C4.5 weighting", () => {
  test("色泽 0.252 (ρ = 14/17), 根蒂 0.171, 敲声 0.145, 纹理 0.424, 脐部 0.289, 触感 0.006", () => {
    const frame = readCsv("watermelon-2.0-alpha.csv");
    const s = byName(featureScores(frame, "好瓜", "info_gain", SIX));
    const expected = [0.252, 0.171, 0.145, 0.424, 0.289, 0.006];
    SIX.forEach((f, i) => close(s[f].score, expected[i]));
  });

  test("a numeric target is refused; a target among the features is refused", () => {
    const frame = readCsv("watermelon-3.0.csv");
    assert.throws(() => featureScores(frame, "密度", "info_gain"), /categorical target/);
    assert.throws(() => featureScores(frame, "好瓜", "info_gain", ["好瓜"]));
    assert.throws(() => featureScores(frame, "甜度", "info_gain"), /no column 甜度/);
  });
});
