import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { isLogisticOvr, logisticRegression, type LogisticOvrState, type LogisticState } from "../../../src/models/linear/logistic-regression.js";
import { binaryLogistic } from "../../../src/models/linear/logistic-ovr.js";
import { sigmoid } from "../../../src/models/linear/scores.js";
import { oneVsRest } from "../../../src/models/multiclass/code-matrix.js";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { accuracy, assertClose, classificationSet, ctx, fixture, frame, roundTrip } from "./helpers.js";

const iris = fixture<{ features: string[]; X: number[][]; y: number[] }>("iris_logistic.json");
const irisX = frame(iris.features, iris.X);
const set = classificationSet(irisX, iris.y);
const tight = { tol: 1e-10, max_iter: 10000 };

/*
 * scikit-learn 1.2.1 on the same 150 raw iris rows, generated once with
 *   /usr/bin/python3 -c "from sklearn.datasets import load_iris; from sklearn.linear_model import LogisticRegression as L;
 *     X,y=load_iris(return_X_y=True); o=L(multi_class='ovr',solver='newton-cg',tol=1e-10,max_iter=10000).fit(X,y);
 *     d=L(multi_class='ovr').fit(X,y); print(o.coef_.tolist(), o.intercept_.tolist(), o.score(X,y), d.score(X,y),
 *     o.predict_proba(X[[0,50,100,70,133]]).tolist())"
 * (newton-cg at tol 1e-10 is the optimum itself; the default lbfgs scores the same.)
 */
const SKLEARN_OVR = {
  coef: [
    [-0.44502709509967175, 0.9000067940641293, -2.3235363215958946, -0.973450682228528],
    [-0.17931035108940246, -2.128649920080224, 0.6966734806966582, -1.2748065912561037],
    [-0.39442692134872176, -0.5133297020711601, 2.9308643702083437, 2.417064716107403],
  ],
  intercept: [6.690423621423841, 5.586215760727579, -14.431263897088364],
  accuracy: 0.9533333333333334,
  default_accuracy: 0.9533333333333334,
  probaRows: [0, 50, 100, 70, 133],
  proba: [
    [0.8968085591381282, 0.10319036858120365, 1.072280668160534e-6],
    [0.006804710965383826, 0.62769842123867, 0.3654968677959462],
    [6.309490034128666e-5, 0.14721831058994955, 0.8527185945097091],
    [0.0035115577908266305, 0.30781836068135765, 0.6886700815278157],
    [0.0009205560656875121, 0.490169595619752, 0.5089098483145604],
  ],
  // Same command with class_weight={0: 2, 2: 0.5}: predict_proba of the first three rows.
  weightedProba: [
    0.9596215317713844, 0.0403750691761803, 3.399052435179027e-6, 0.8889369446321517, 0.11105915974103604, 3.895626812255487e-6, 0.9272009950619899, 0.07279598287735607,
    3.022060653946997e-6,
  ],
};

function ovr(state: LogisticState): LogisticOvrState {
  if (!isLogisticOvr(state)) throw new Error(`expected the one-vs-rest state, got ${state.kind}`);
  return state;
}

function predict(state: LogisticState, X = irisX): { labels: Int32Array; proba: Float64Array } {
  const p = logisticRegression.predict(state, X);
  if (p.task !== "classification" || !p.proba) throw new Error("expected labels and probabilities");
  return { labels: p.labels, proba: p.proba };
}

describe("logistic_regression multiclass ovr through the multiclass wrapper", () => {
  const state = ovr(logisticRegression.fit(set, logisticRegression.params.parse({ multiclass: "ovr", ...tight }), ctx()));

  test("three classes: three binary models, class c positive against the rest in problem c", () => {
    assert.equal(state.model.strategy, "ovr");
    assert.equal(state.model.models.length, 3);
    assert.deepEqual(state.model.code, oneVsRest(3).code);
    assert.deepEqual(
      state.model.models.map((m) => [m.kind, ...m.classes]),
      [
        ["binary", "1|2", "0"],
        ["binary", "0|2", "1"],
        ["binary", "0|1", "2"],
      ],
    );
  });

  test("each binary model is scikit-learn's OvR row at the optimum (1e-5)", () => {
    state.model.models.forEach((m, c) => {
      assertClose(m.coef, SKLEARN_OVR.coef[c], 1e-5, 0, `coef ${c}`);
      assertClose(m.intercept, [SKLEARN_OVR.intercept[c]], 1e-5, 0, `intercept ${c}`);
    });
    assert.equal(state.diagnostics.converged, true);
  });

  test("probabilities are the K sigmoids normalised, as scikit-learn's OvR; accuracy equals scikit-learn's", () => {
    const { labels, proba } = predict(state);
    assert.equal(accuracy(labels, iris.y), SKLEARN_OVR.accuracy);
    const rows = SKLEARN_OVR.probaRows.flatMap((i) => [...proba.subarray(3 * i, 3 * i + 3)]);
    assertClose(rows, SKLEARN_OVR.proba.flat(), 0, 1e-6, "proba vs sklearn");
    const scores = state.model.models.map((m) => binaryLogistic.decision!(m, irisX));
    for (let i = 0; i < 150; i++) {
      const s = scores.map((f) => sigmoid(f[i]));
      const total = s[0] + s[1] + s[2];
      for (let c = 0; c < 3; c++) assert.ok(Math.abs(proba[3 * i + c] - s[c] / total) < 1e-15);
      // OvR labels follow the largest wᵀx + b.
      assert.equal(labels[i], s.indexOf(Math.max(...s)));
    }
  });

  test("default tolerance: scikit-learn's default accuracy", () => {
    const plain = logisticRegression.fit(set, logisticRegression.params.parse({ multiclass: "ovr" }), ctx());
    assert.ok(Math.abs(accuracy(predict(plain).labels, iris.y) - SKLEARN_OVR.default_accuracy) <= 0.01);
  });

  test("class_weight as a record applies per original class (scikit-learn's OvR), to 1e-6", () => {
    const weighted = logisticRegression.fit(set, logisticRegression.params.parse({ multiclass: "ovr", class_weight: { "0": 2, "2": 0.5 }, ...tight }), ctx());
    assertClose(predict(weighted).proba.subarray(0, 9), SKLEARN_OVR.weightedProba, 0, 1e-6, "weighted proba");
    assert.throws(() => logisticRegression.fit(set, logisticRegression.params.parse({ multiclass: "ovr", class_weight: { nine: 2 } }), ctx()), /nine/);
  });

  test("two classes with ovr stay one flat binary model, as in scikit-learn", () => {
    const rows = iris.X.slice(50);
    const two = logisticRegression.fit(classificationSet(frame(iris.features, rows), iris.y.slice(50).map((v) => v - 1)), logisticRegression.params.parse({ multiclass: "ovr" }), ctx());
    assert.equal(two.kind, "binary");
  });

  test("explain: coefficients and intercept per class, from the binary models", () => {
    const e = logisticRegression.explain!(state) as { coefficients: Record<string, Record<string, number>>; intercept: Record<string, number>; diagnostics: { converged: boolean } };
    assert.deepEqual(Object.keys(e.coefficients), ["0", "1", "2"]);
    assert.equal(e.coefficients["2"].x3, state.model.models[2].coef[3]);
    assert.equal(e.intercept["1"], state.model.models[1].intercept[0]);
    assert.equal(e.diagnostics.converged, true);
  });

  test("save → load → identical predictions; same seed → same state", () => {
    const back = roundTrip(logisticRegression, state);
    assert.deepEqual(back, state);
    assert.deepEqual(logisticRegression.predict(back, irisX), logisticRegression.predict(state, irisX));
    // A seeded stochastic solver: each binary problem draws from its own fork of the seed.
    const params = logisticRegression.params.parse({ multiclass: "ovr", solver: "adam", batch_size: 16, max_iter: 5 });
    const a = logisticRegression.fit(set, params, ctx(5));
    assert.deepEqual(logisticRegression.fit(set, params, ctx(5)), a);
    assert.notDeepEqual(ovr(logisticRegression.fit(set, params, ctx(6))).model.models[0].coef, ovr(a).model.models[0].coef);
  });

  test("an artifact of the earlier flat one-vs-rest state (K rows of coef) loads as the wrapped state, same predictions", () => {
    const p = iris.features.length;
    const coef = new Float64Array(3 * p);
    state.model.models.forEach((m, c) => coef.set(m.coef, c * p));
    const flat = {
      features: state.features,
      classes: state.model.classes,
      kind: "ovr",
      coef,
      intercept: Float64Array.from(state.model.models, (m) => m.intercept[0]),
      feature_std: state.model.models[0].feature_std,
      diagnostics: state.diagnostics,
    };
    const loaded = ovr(logisticRegression.state.parse(decodeState(JSON.parse(JSON.stringify(encodeState(flat))))));
    assert.deepEqual(predict(loaded), predict(state));
    assert.deepEqual(loaded.model.code, state.model.code);
  });
});
