/**
 * What every ensemble owes the generic machinery: the same seed gives the same model
 * bit for bit, a forest is the same whether its trees grow in one run or in chunks,
 * a state survives the artifact codec and its schema with identical predictions, and
 * nested learners' params are checked by their own schemas at their full path.
 */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { getAlgorithm } from "../../../src/models/registry.js";
import { growTrees, presort } from "../../../src/models/ensemble/forest-grow.js";
import { ensembleSeed } from "../../../src/models/ensemble/bootstrap.js";
import { forestPlan, randomForest, randomForestParams } from "../../../src/models/ensemble/random-forest.js";
import { baggingParams } from "../../../src/models/ensemble/bagging.js";
import { adaboostParams } from "../../../src/models/ensemble/adaboost.js";
import { votingParams } from "../../../src/models/ensemble/voting.js";
import { engineOptions } from "../../../src/models/tree/params.js";
import { createRng } from "../../../src/data/random.js";
import { takeRows } from "../../../src/data/frame.js";
import { ctx, realData, watermelon } from "../tree/fixtures.js";

const CONFIGS: [string, object][] = [
  ["random_forest", { n_estimators: 15 }],
  ["random_forest", { n_estimators: 10, max_features: "log2", bootstrap: false, max_samples: 0.7 }],
  ["bagging", { n_estimators: 6, max_features: 2, bootstrap_features: true }],
  ["bagging", { base: { algorithm: "logistic_regression", params: {} }, n_estimators: 4 }],
  ["adaboost", { n_estimators: 10 }],
  ["adaboost", { n_estimators: 10, algorithm: "SAMME.R", boosting: "resample" }],
  ["voting", { voting: "soft", weights: [1, 2, 0.5] }],
];

const json = (s: unknown) => JSON.stringify(encodeState(s));

describe("same seed, same ensemble; save → load, same predictions", () => {
  const iris = realData("iris");
  for (const [name, raw] of CONFIGS) {
    test(`${name} ${JSON.stringify(raw)}`, () => {
      const algorithm = getAlgorithm(name)!;
      const params = algorithm.params.parse(raw);
      const a = algorithm.fit(iris.train, params, ctx(7));
      const b = algorithm.fit(iris.train, params, ctx(7));
      assert.equal(json(a), json(b), "same seed, same state");
      const c = algorithm.fit(iris.train, params, ctx(8));
      if (name !== "voting" && !(name === "adaboost" && !("boosting" in raw))) assert.notEqual(json(a), json(c), "another seed, another ensemble");
      const loaded = algorithm.state.parse(decodeState(JSON.parse(json(a))));
      assert.deepEqual(algorithm.predict(loaded, iris.testX), algorithm.predict(a, iris.testX));
    });
  }

  test("regression: random_forest, bagging, adaboost (R2), voting", () => {
    const diabetes = realData("diabetes");
    for (const [name, raw] of [["random_forest", { n_estimators: 5 }], ["bagging", { n_estimators: 3 }], ["adaboost", { n_estimators: 5 }], ["voting", {}]] as const) {
      const algorithm = getAlgorithm(name)!;
      const s = algorithm.fit(diabetes.train, algorithm.params.parse(raw), ctx(3));
      assert.equal(json(s), json(algorithm.fit(diabetes.train, algorithm.params.parse(raw), ctx(3))), name);
      const loaded = algorithm.state.parse(decodeState(JSON.parse(json(s))));
      assert.deepEqual(algorithm.predict(loaded, diabetes.testX), algorithm.predict(s, diabetes.testX), name);
    }
  });
});

describe("random_forest", () => {
  test("trees grown in chunks are the trees grown in one run (each tree's generator is (seed, index))", () => {
    const data = realData("wine").train;
    const seed = ensembleSeed(createRng(5));
    const engine = engineOptions({ ...randomForestParams.parse({}), max_features: 3, pruning: "none", ccp_alpha: 0 }, { criterion: "gini_index", categoricalSplit: "binary" });
    const plan = { trees: 9, bootstrap: true, samples: data.X.rowCount, oob: false, engine, seed };
    const order = presort(data);
    const whole = growTrees(data, plan, order, 0, 9, ctx(0), null);
    const chunks = [...growTrees(data, plan, order, 0, 4, ctx(1), null), ...growTrees(data, plan, order, 4, 7, ctx(2), null), ...growTrees(data, plan, order, 7, 9, ctx(3), null)];
    assert.equal(json(chunks), json(whole));
  });

  test("forestPlan + growTrees in 1, 2 or 3 chunks (separate presorts, as separate workers would) give fit's trees", () => {
    const data = realData("wine").train;
    const p = randomForestParams.parse({ n_estimators: 7, max_features: "log2", max_depth: 5 });
    const fitted = randomForest.fit(data, p, { ...ctx(0), rng: createRng(11) });
    const bounds = [[0, 7], [0, 3, 7], [0, 2, 5, 7]];
    for (const cuts of bounds) {
      const trees = [];
      for (let c = 0; c + 1 < cuts.length; c++) {
        // Each chunk draws the plan from a fresh generator with the fit's seed, as a worker would.
        const plan = forestPlan(data, p, createRng(11));
        trees.push(...growTrees(data, plan, presort(data), cuts[c], cuts[c + 1], ctx(c), null));
      }
      for (const t of trees) t.features = fitted.features;
      assert.equal(json(trees), json(fitted.trees), `chunks ${cuts.join(",")}`);
    }
    // A different seed gives different trees: the comparison above can fail.
    const other = forestPlan(data, p, createRng(12));
    assert.notEqual(json(growTrees(data, other, presort(data), 0, 7, ctx(0), null).map((t) => ({ ...t, features: fitted.features }))), json(fitted.trees));
  });

  test("takes categorical and missing values natively (watermelon 2.0α)", () => {
    const data = watermelon("2.0-alpha");
    const s = randomForest.fit(data, randomForestParams.parse({ n_estimators: 20 }), ctx(1));
    const p = randomForest.predict(s, data.X);
    assert.equal(p.task, "classification");
    if (p.task === "classification") for (let i = 0; i < data.X.rowCount; i++) assert.ok(Math.abs(p.proba!.subarray(i * 2, i * 2 + 2).reduce((a, b) => a + b, 0) - 1) < 1e-9);
  });

  test("row by row (the single-row walk) equals the batch walk, with categorical and missing values too", () => {
    for (const data of [watermelon("2.0-alpha"), realData("iris").train]) {
      const s = randomForest.fit(data, randomForestParams.parse({ n_estimators: 25 }), ctx(2));
      const batch = randomForest.predict(s, data.X) as { proba: Float64Array };
      const K = s.classes.length;
      for (let i = 0; i < data.X.rowCount; i++) {
        const one = randomForest.predict(s, takeRows(data.X, [i])) as { proba: Float64Array };
        assert.deepEqual(Array.from(one.proba), Array.from(batch.proba.subarray(i * K, i * K + K)), `row ${i}`);
      }
    }
  });

  test("impurity importances sum to 1 and favour the informative features", () => {
    const s = randomForest.fit(realData("iris").train, randomForestParams.parse({ n_estimators: 30 }), ctx(1));
    const e = randomForest.explain!(s) as { feature_importances: Record<string, number>; oob: { score: number } };
    const values = Object.values(e.feature_importances);
    assert.ok(Math.abs(values.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    // Petal length and width carry iris; the sepal measurements far less.
    assert.ok(e.feature_importances["petal width (cm)"] + e.feature_importances["petal length (cm)"] > 0.6, JSON.stringify(e.feature_importances));
    assert.ok(e.oob.score > 0.85);
  });

  test("max_features: a fraction, a count, sqrt and log2 resolve as documented; both spellings at once are refused", () => {
    const train = realData("digits").train; // 64 features
    const k = (raw: object) => randomForest.fit(train, randomForestParams.parse({ n_estimators: 1, max_depth: 2, ...raw }), ctx(0)).max_features;
    assert.deepEqual([k({}), k({ max_features: "log2" }), k({ max_features: 10 }), k({ max_features_fraction: 0.25 }), k({ max_features: "all" })], [8, 6, 10, 16, 64]);
    const both = randomForestParams.safeParse({ max_features: 3, max_features_fraction: 0.5 });
    assert.deepEqual(both.error?.issues[0].path, ["max_features_fraction"]);
  });

  test("a forest whose trees disagree with it on features is refused on load", () => {
    const s = randomForest.fit(realData("iris").train, randomForestParams.parse({ n_estimators: 2 }), ctx(1));
    const bad = decodeState(JSON.parse(json(s))) as { trees: { features: { name: string }[] }[] };
    bad.trees[1].features = bad.trees[1].features.map((f, j) => ({ ...f, name: j === 0 ? "other" : f.name }));
    assert.equal(randomForest.state.safeParse(bad).success, false);
  });
});

describe("nested learners are checked by their own schemas", () => {
  test("a bad nested param is an issue at base.params.<field>", () => {
    const r = baggingParams.safeParse({ base: { algorithm: "cart", params: { max_depth: 0 } } });
    assert.deepEqual(r.error?.issues[0].path, ["base", "params", "max_depth"]);
    const a = adaboostParams.safeParse({ base: { algorithm: "svm", params: { kernel: "cubic" } } });
    assert.deepEqual(a.error?.issues[0].path, ["base", "params", "kernel"]);
    const v = votingParams.safeParse({ estimators: [{ algorithm: "cart" }, { algorithm: "mlp", params: { hidden_layer_sizes: [0] } }] });
    assert.deepEqual(v.error?.issues[0].path.slice(0, 4), ["estimators", 1, "params", "hidden_layer_sizes"]);
  });

  test("unknown learners, ensembles inside ensembles and mismatched weights are refused", () => {
    assert.deepEqual(baggingParams.safeParse({ base: { algorithm: "nope" } }).error?.issues[0].path, ["base", "algorithm"]);
    assert.deepEqual(baggingParams.safeParse({ base: { algorithm: "random_forest" } }).error?.issues[0].path, ["base", "algorithm"]);
    assert.deepEqual(votingParams.safeParse({ weights: [1, 2] }).error?.issues[0].path, ["weights"]);
  });

  test("soft voting over a learner without probabilities fails at fit with a reason", () => {
    const v = getAlgorithm("voting")!;
    const params = v.params.parse({ voting: "soft", estimators: [{ algorithm: "cart" }, { algorithm: "perceptron" }] });
    assert.throws(() => v.fit(realData("iris").train, params, ctx(0)), /probabilities/);
  });
});
