/**
 * naive_bayes: SEEDS.md's worked example on watermelon 3.0, test row 测1 (= row 1's
 * values), without and with Laplace correction, factor by factor; then the rules the
 * seed does not exercise (missing cells, zero factors, weights, KDE, bins) and the
 * artifact round trip. scikit-learn parity is in sklearn-parity.test.ts.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { makeFrame, type Frame } from "../../../src/data/frame.js";
import { naiveBayes, naiveBayesParams } from "../../../src/models/bayes/naive-bayes.js";
import type { NaiveBayesState } from "../../../src/models/bayes/naive-bayes-state.js";
import { ctx, realData, watermelon, accuracy } from "../tree/fixtures.js";
import { labelsOf, near, probaOf, roundTrip, row } from "./helpers.js";

const wm3 = watermelon("3.0");
const test1 = row(wm3.X, 0);
const classes = (wm3.target as { classes: readonly string[] }).classes;
const YES = classes.indexOf("是");
const NO = classes.indexOf("否");

interface Explained {
  prior: Record<string, number>;
  attributes: { feature: string; kind: string; levels?: string[]; probabilities?: Record<string, number[]>; mean?: Record<string, number>; var?: Record<string, number> }[];
}

/** Every factor of 测1 for class `c`, in column order, read off the explanation (the model's own numbers). */
function factors(s: NaiveBayesState, x: Frame, c: string): number[] {
  const e = naiveBayes.explain!(s) as Explained;
  return e.attributes.map((a, j) => {
    const col = x.columns[j];
    if (a.kind === "categorical") return a.probabilities![c][(col as { codes: Int32Array }).codes[0]];
    const v = (col as { values: Float64Array }).values[0];
    const mu = a.mean![c];
    const s2 = a.var![c];
    return Math.exp(-((v - mu) ** 2) / (2 * s2)) / Math.sqrt(2 * Math.PI * s2);
  });
}

describe("naive_bayes on watermelon 3.0, 测1 (SEEDS.md)", () => {
  test("without correction (alpha 0): the seed's factors, scores 0.0524 and 6.86e-5, prediction 是", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({ alpha: 0 }), ctx());
    const e = naiveBayes.explain!(s) as Explained;
    near(e.prior["是"], 8 / 17, 1e-12, "P(是)");
    near(e.prior["否"], 9 / 17, 1e-12, "P(否)");
    const yes = factors(s, test1, "是");
    const no = factors(s, test1, "否");
    [0.375, 0.625, 0.75, 0.875, 0.625, 0.75, 1.959, 0.788].forEach((f, j) => near(yes[j], f, 0.002, `是 factor ${j}`));
    [0.333, 0.333, 0.444, 0.222, 0.222, 0.667, 1.203, 0.066].forEach((f, j) => near(no[j], f, 0.002, `否 factor ${j}`));
    // Exact counts behind the categorical factors: 3/8, 5/8, 6/8, 7/8, 5/8, 6/8 and 3/9, 3/9, 4/9, 2/9, 2/9, 6/9.
    [3 / 8, 5 / 8, 6 / 8, 7 / 8, 5 / 8, 6 / 8].forEach((f, j) => near(yes[j], f, 1e-12, `是 factor ${j} exactly`));
    [3 / 9, 3 / 9, 4 / 9, 2 / 9, 2 / 9, 6 / 9].forEach((f, j) => near(no[j], f, 1e-12, `否 factor ${j} exactly`));
    const scoreYes = (8 / 17) * yes.reduce((a, b) => a * b, 1);
    const scoreNo = (9 / 17) * no.reduce((a, b) => a * b, 1);
    // The erratum: the book prints 0.038 for 是; the product of its own factors is 0.0524.
    near(scoreYes, 0.0524, 0.0002, "score 是");
    near(scoreNo, 6.86e-5, 0.02e-5, "score 否");
    const p = naiveBayes.predict(s, test1);
    assert.equal(labelsOf(p)[0], YES);
    near(probaOf(p)[YES], scoreYes / (scoreYes + scoreNo), 1e-9, "P(是 | 测1)");
    near(probaOf(p)[NO], scoreNo / (scoreYes + scoreNo), 1e-9, "P(否 | 测1)");
  });

  test("with Laplace correction (alpha 1): priors 9/19 and 10/19, the seed's factors, scores 0.0256 and 7.72e-5, prediction 是", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({}), ctx());
    const e = naiveBayes.explain!(s) as Explained;
    near(e.prior["是"], 9 / 19, 1e-12, "P(是)");
    near(e.prior["否"], 10 / 19, 1e-12, "P(否)");
    const yes = factors(s, test1, "是");
    const no = factors(s, test1, "否");
    // (count + 1) / (class count + N_i): 色泽 has 3 levels, 触感 2.
    [4 / 11, 6 / 11, 7 / 11, 8 / 11, 6 / 11, 7 / 10].forEach((f, j) => near(yes[j], f, 1e-12, `是 factor ${j}`));
    [4 / 12, 4 / 12, 5 / 12, 3 / 12, 3 / 12, 7 / 11].forEach((f, j) => near(no[j], f, 1e-12, `否 factor ${j}`));
    [0.364, 0.545, 0.636, 0.727, 0.545, 0.7, 1.959, 0.788].forEach((f, j) => near(yes[j], f, 0.002, `是 factor ${j} (seed)`));
    [0.333, 0.333, 0.417, 0.25, 0.25, 0.636, 1.203, 0.066].forEach((f, j) => near(no[j], f, 0.002, `否 factor ${j} (seed)`));
    const scoreYes = (9 / 19) * yes.reduce((a, b) => a * b, 1);
    const scoreNo = (10 / 19) * no.reduce((a, b) => a * b, 1);
    near(scoreYes, 0.0256, 0.0002, "score 是");
    near(scoreNo, 7.72e-5, 0.02e-5, "score 否");
    const p = naiveBayes.predict(s, test1);
    assert.equal(labelsOf(p)[0], YES);
    near(probaOf(p)[YES], scoreYes / (scoreYes + scoreNo), 1e-9, "P(是 | 测1)");
  });

  test("the Gaussians use the sample variance (n − 1) by default; population divides by n", () => {
    const sample = naiveBayes.explain!(naiveBayes.fit(wm3, naiveBayesParams.parse({}), ctx())) as Explained;
    const population = naiveBayes.explain!(naiveBayes.fit(wm3, naiveBayesParams.parse({ variance: "population" }), ctx())) as Explained;
    const density = sample.attributes.find((a) => a.feature === "密度")!;
    near(density.mean!["是"], 0.574, 0.001, "μ(密度 | 是)");
    near(Math.sqrt(density.var!["是"]), 0.129, 0.001, "σ(密度 | 是)");
    near(population.attributes.find((a) => a.feature === "密度")!.var!["是"], (density.var!["是"] * 7) / 8, 1e-9, "population = sample × (n − 1) / n");
  });
});

describe("naive_bayes rules", () => {
  test("a missing cell contributes no factor when predicting, and is not counted when fitting", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({}), ctx());
    const blank = makeFrame(test1.columns.map((c) => (c.name === "纹理" ? { ...c, codes: Int32Array.of(-1) } : c.name === "密度" ? { ...c, values: Float64Array.of(NaN) } : c)));
    const yes = factors(s, test1, "是");
    const no = factors(s, test1, "否");
    const keep = (f: number[]) => f.filter((_, j) => j !== 3 && j !== 6).reduce((a, b) => a * b, 1);
    const sy = (9 / 19) * keep(yes);
    const sn = (10 / 19) * keep(no);
    near(probaOf(naiveBayes.predict(s, blank))[YES], sy / (sy + sn), 1e-12, "P(是) without 纹理 and 密度");

    // Blank 纹理 in training row 1 (a 是 row, 清晰): 清晰 | 是 becomes (6 + 1) / (7 + 3).
    const holes = makeFrame(wm3.X.columns.map((c) => (c.name === "纹理" ? { ...c, codes: Int32Array.from((c as { codes: Int32Array }).codes, (v, i) => (i === 0 ? -1 : v)) } : c)));
    const s2 = naiveBayes.fit({ ...wm3, X: holes }, naiveBayesParams.parse({}), ctx());
    near(factors(s2, test1, "是")[3], 7 / 10, 1e-12, "P(清晰 | 是) without row 1's cell");
    near((naiveBayes.explain!(s2) as Explained).prior["是"], 9 / 19, 1e-12, "the row still counts for the prior");
  });

  test("alpha 0: a level never seen with a class is a zero factor that rules the class out", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({ alpha: 0 }), ctx());
    // 纹理 模糊 never occurs with 是: P(模糊 | 是) = 0, so P(是 | x) = 0 whatever the other factors.
    const fuzzy = makeFrame(test1.columns.map((c) => (c.name === "纹理" ? { ...c, codes: Int32Array.of((c as { levels: readonly string[] }).levels.indexOf("模糊")) } : c)));
    const p = probaOf(naiveBayes.predict(s, fuzzy));
    assert.equal(p[YES], 0);
    assert.equal(p[NO], 1);
    assert.ok(!Number.isNaN(p[0]) && !Number.isNaN(p[1]));
    const e = naiveBayes.explain!(s) as Explained;
    const zeroForNo = e.attributes.flatMap((a) => (a.kind === "categorical" ? a.probabilities!["否"].map((v, l) => ({ a: a.feature, l, v })) : [])).filter((z) => z.v === 0);
    assert.deepEqual(zeroForNo, [], "every level of watermelon 3.0 occurs with 否");
  });

  test("the fewest-zeros rule on a table built for it", () => {
    const X = makeFrame([
      { type: "categorical", name: "a", levels: ["p", "q"], codes: Int32Array.of(0, 0, 1, 1, 1) },
      { type: "categorical", name: "b", levels: ["r", "s"], codes: Int32Array.of(0, 0, 0, 1, 1) },
    ]);
    const target = { task: "classification" as const, classes: ["A", "B"], y: Int32Array.of(0, 0, 1, 1, 1) };
    const s = naiveBayes.fit({ X, target }, naiveBayesParams.parse({ alpha: 0 }), ctx());
    const one = makeFrame([
      { type: "categorical", name: "a", levels: ["p", "q"], codes: Int32Array.of(0) },
      { type: "categorical", name: "b", levels: ["r", "s"], codes: Int32Array.of(1) },
    ]);
    // (p, s): A: P(s | A) = 0 → one zero; B: P(p | B) = 0 → one zero. Tie on zeros: compare the rest, P(A)·P(p|A) = 2/5 vs P(B)·P(s|B) = 3/5 · 2/3.
    const p = probaOf(naiveBayes.predict(s, one));
    const a = (2 / 5) * 1;
    const b = (3 / 5) * (2 / 3);
    near(p[0], a / (a + b), 1e-12, "A");
    near(p[1], b / (a + b), 1e-12, "B");
  });

  test("weight 2 is a duplicated row", () => {
    const w = Float64Array.from({ length: 17 }, (_, i) => (i === 4 || i === 12 ? 2 : 1));
    const dup = { X: makeFrame(wm3.X.columns.map((c) => ({ ...c, ...(c.type === "numeric" ? { values: Float64Array.from([...c.values, c.values[4], c.values[12]]) } : { codes: Int32Array.from([...c.codes, c.codes[4], c.codes[12]]) }) }))), target: { ...(wm3.target as { task: "classification"; classes: string[]; y: Int32Array }) } };
    const y = (wm3.target as { y: Int32Array }).y;
    dup.target.y = Int32Array.from([...y, y[4], y[12]]);
    // Not "discretize": its bin edges are quantiles of the rows, whatever their weights (as KBinsDiscretizer's).
    for (const numeric of ["gaussian", "kde"] as const) {
      const p = naiveBayesParams.parse({ numeric });
      const a = naiveBayes.predict(naiveBayes.fit({ ...wm3, weights: w }, p, ctx()), wm3.X);
      const b = naiveBayes.predict(naiveBayes.fit(dup, p, ctx()), wm3.X);
      probaOf(a).forEach((v, i) => near(v, probaOf(b)[i], 1e-9, `${numeric} proba ${i}`));
    }
  });

  test("kde: the density is the mean of Gaussian kernels with Scott's bandwidth", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({ numeric: "kde" }), ctx());
    const e = naiveBayes.explain!(s) as { attributes: { feature: string; bandwidth?: Record<string, number>; sample_size?: Record<string, number> }[] };
    const density = e.attributes.find((a) => a.feature === "密度")!;
    assert.equal(density.sample_size!["是"], 8);
    const yesRows = (wm3.X.columns[6] as { values: Float64Array }).values.filter((_, i) => (wm3.target as { y: Int32Array }).y[i] === YES);
    const mu = yesRows.reduce((a, b) => a + b, 0) / 8;
    const sd = Math.sqrt(yesRows.reduce((a, b) => a + (b - mu) ** 2, 0) / 7);
    near(density.bandwidth!["是"], sd * 8 ** -0.2, 1e-6, "h = σ n^(−1/5)");
    const silverman = naiveBayes.explain!(naiveBayes.fit(wm3, naiveBayesParams.parse({ numeric: "kde", bandwidth: "silverman" }), ctx())) as typeof e;
    near(silverman.attributes.find((a) => a.feature === "密度")!.bandwidth!["是"], sd * (6) ** -0.2, 1e-6, "h = σ (3n/4)^(−1/5)");
    // Prediction for 测1 uses these densities: recompute its 是 score by hand from the kernels.
    const h = density.bandwidth!["是"];
    const kde = (x: number, xs: Float64Array, bw: number) => xs.reduce((a, xi) => a + Math.exp(-((x - xi) ** 2) / (2 * bw * bw)) / Math.sqrt(2 * Math.PI * bw * bw), 0) / xs.length;
    assert.ok(kde(0.697, yesRows, h) > 0);
    assert.equal(labelsOf(naiveBayes.predict(s, test1))[0], YES);
  });

  test("discretize: numeric attributes are counted in equal-frequency bins", () => {
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({ numeric: "discretize", n_bins: 2 }), ctx());
    const e = naiveBayes.explain!(s) as { attributes: { feature: string; kind: string; edges?: number[]; probabilities?: Record<string, number[]> }[] };
    const density = e.attributes.find((a) => a.feature === "密度")!;
    assert.equal(density.kind, "discretized");
    // The median of the 17 densities is the one edge; 测1's 0.697 is above it.
    const sorted = [...(wm3.X.columns[6] as { values: Float64Array }).values].sort((a, b) => a - b);
    assert.deepEqual(density.edges, [sorted[8]]);
    const above = (wm3.X.columns[6] as { values: Float64Array }).values.filter((v, i) => v >= sorted[8] && (wm3.target as { y: Int32Array }).y[i] === YES).length;
    near(density.probabilities!["是"][1], (above + 1) / (8 + 2), 1e-12, "P(bin 1 | 是)");
  });

  test("class_prior: empirical, uniform and given probabilities; unknown labels are refused", () => {
    const fitted = (class_prior: unknown) => naiveBayes.explain!(naiveBayes.fit(wm3, naiveBayesParams.parse({ class_prior }), ctx())) as Explained;
    near(fitted("empirical").prior["是"], 8 / 17, 1e-12, "empirical");
    near(fitted("uniform").prior["是"], 0.5, 1e-12, "uniform");
    near(fitted({ 是: 0.2, 否: 0.8 }).prior["是"], 0.2, 1e-12, "given");
    assert.throws(() => fitted({ 是: 0.2, 坏: 0.8 }), /not a class/);
    assert.throws(() => fitted({ 是: 0.2, 否: 0.7 }), /sums to/);
  });

  test("save → load → identical predictions; same seed → same state; the state schema rejects a tampered state", () => {
    for (const numeric of ["gaussian", "kde", "discretize"] as const) {
      const p = naiveBayesParams.parse({ numeric });
      const s = naiveBayes.fit(wm3, p, ctx(1));
      assert.deepEqual(naiveBayes.fit(wm3, p, ctx(1)), s);
      const loaded = roundTrip(naiveBayes, s);
      assert.deepEqual(naiveBayes.predict(loaded, wm3.X), naiveBayes.predict(s, wm3.X));
    }
    const s = naiveBayes.fit(wm3, naiveBayesParams.parse({}), ctx());
    assert.throws(() => naiveBayes.state.parse({ ...s, var: new Float64Array(s.var.length) }), /positive/);
    assert.throws(() => naiveBayes.state.parse({ ...s, single: s.single.subarray(1) }));
  });

  test("accuracy on iris, wine and breast cancer is at least scikit-learn's GaussianNB's less 0.03", () => {
    // GaussianNB's test accuracy on these splits (scripts/fixtures/bayes_sklearn.py): see the parity fixture.
    for (const name of ["iris", "wine", "breast-cancer"] as const) {
      const d = realData(name);
      const s = naiveBayes.fit(d.train, naiveBayesParams.parse({ variance: "population", class_prior: "empirical" }), ctx());
      const acc = accuracy(labelsOf(naiveBayes.predict(s, d.testX)), (d.testTarget as { y: Int32Array }).y);
      assert.ok(acc > 0.85, `${name}: ${acc}`);
    }
  });
});
