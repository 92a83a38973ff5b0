import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { decodeState, encodeState } from "../../../src/models/state-codec.js";
import { svm, svmParams, type SvmState } from "../../../src/models/svm/svm.js";
import { svr, svrParams } from "../../../src/models/svm/svr.js";
import { accuracy, labelsOf, probaOf, valuesOf, context, loadDataset, r2, readFixture, split, standardised } from "../../fixtures/svm-mlp/load.js";

const reference = readFixture<{ svc_accuracy: Record<string, number>; svr_r2: { diabetes: number } }>("svm-reference.json");
const sklearn = reference.svc_accuracy;

function roundTrip<S>(state: S, schema: { parse(v: unknown): S }): S {
  return schema.parse(decodeState(JSON.parse(JSON.stringify(encodeState(state)))));
}

describe("svm accuracy against scikit-learn's SVC on the same split (floor: theirs − 0.03)", () => {
  test("breast cancer, standardised, rbf C=1", () => {
    const ds = loadDataset("breast_cancer");
    const s = split(ds, standardised(ds));
    const state = svm.fit(s.train, svmParams.parse({}), context());
    const acc = accuracy(labelsOf(svm.predict(state, s.testX)), s.testY);
    assert.ok(acc >= sklearn.breast_cancer - 0.03, `accuracy ${acc} vs scikit-learn ${sklearn.breast_cancer}`);
  });

  test("breast cancer, standardised, linear C=1", () => {
    const ds = loadDataset("breast_cancer");
    const s = split(ds, standardised(ds));
    const state = svm.fit(s.train, svmParams.parse({ kernel: "linear" }), context());
    const acc = accuracy(labelsOf(svm.predict(state, s.testX)), s.testY);
    assert.ok(acc >= sklearn.breast_cancer_linear - 0.03, `accuracy ${acc} vs scikit-learn ${sklearn.breast_cancer_linear}`);
  });

  test("digits (10 classes, 45 one-vs-one problems), standardised, rbf C=1", () => {
    const ds = loadDataset("digits");
    const s = split(ds, standardised(ds));
    const state = svm.fit(s.train, svmParams.parse({}), context());
    assert.equal(state.model.models.length, 45);
    const acc = accuracy(labelsOf(svm.predict(state, s.testX)), s.testY);
    assert.ok(acc >= sklearn.digits - 0.03, `accuracy ${acc} vs scikit-learn ${sklearn.digits}`);
  });
});

describe("svm multiclass strategies", () => {
  const iris = loadDataset("iris");
  const s = split(iris, standardised(iris));
  for (const [multiclass, models] of [["ovo", 3], ["ovr", 3], ["ecoc", 4]] as const) {
    test(`${multiclass} on iris trains ${models} binary SVMs and classifies well`, () => {
      const state = svm.fit(s.train, svmParams.parse({ multiclass }), context());
      assert.equal(state.model.models.length, models);
      const acc = accuracy(labelsOf(svm.predict(state, s.testX)), s.testY);
      assert.ok(acc >= 0.92, `${multiclass}: ${acc}`);
    });
  }
});

describe("svm probabilities (Platt scaling on internal 5-fold decisions)", () => {
  const ds = loadDataset("breast_cancer");
  const s = split(ds, standardised(ds));
  const withProba = svm.fit(s.train, svmParams.parse({ probability: true }), context(3));
  const plain = svm.fit(s.train, svmParams.parse({}), context(3));

  test("labels come from the decision function, unchanged by probability", () => {
    assert.deepEqual(labelsOf(svm.predict(withProba, s.testX)), labelsOf(svm.predict(plain, s.testX)));
  });

  test("P(class 1) is increasing in f(x), rows sum to 1, and the log loss is low", () => {
    const proba = probaOf(svm.predict(withProba, s.testX));
    const f = svm.decision(withProba, s.testX);
    const order = Array.from(f.keys()).sort((a, b) => f[a] - f[b]);
    for (let r = 1; r < order.length; r++) assert.ok(proba[2 * order[r] + 1] >= proba[2 * order[r - 1] + 1]);
    let logLoss = 0;
    for (let i = 0; i < s.testY.length; i++) {
      assert.ok(Math.abs(proba[2 * i] + proba[2 * i + 1] - 1) < 1e-12);
      logLoss -= Math.log(proba[2 * i + s.testY[i]]);
    }
    logLoss /= s.testY.length;
    assert.ok(logLoss < 0.15, `log loss ${logLoss}`);
    const sigmoid = withProba.model.models[0].sigmoid!;
    assert.ok(sigmoid.A < 0, "a larger f means a larger P(class 1)");
  });

  test("multiclass probabilities by pairwise coupling sum to 1 and agree with the labels on iris", () => {
    const iris = loadDataset("iris");
    const si = split(iris, standardised(iris));
    const state = svm.fit(si.train, svmParams.parse({ probability: true }), context());
    const pred = svm.predict(state, si.testX);
    assert.equal(pred.task, "classification");
    if (pred.task !== "classification") return;
    let agree = 0;
    for (let i = 0; i < si.testY.length; i++) {
      const p = Array.from(pred.proba!.subarray(3 * i, 3 * i + 3));
      assert.ok(Math.abs(p[0] + p[1] + p[2] - 1) < 1e-6);
      if (p.indexOf(Math.max(...p)) === pred.labels[i]) agree++;
    }
    assert.ok(agree / si.testY.length >= 0.95);
  });
});

describe("svm class weights", () => {
  test("balanced weights raise the recall of the rare class", () => {
    const ds = loadDataset("breast_cancer");
    const X = standardised(ds);
    // Keep 30 of the malignant (class 0) training rows so class 0 becomes rare.
    let kept = 0;
    const train = ds.train.filter((i) => ds.y[i] === 1 || kept++ < 30);
    const s = split(ds, X, { train });
    const recall0 = (state: SvmState) => {
      const labels = labelsOf(svm.predict(state, s.testX));
      let hit = 0;
      let all = 0;
      s.testY.forEach((y, i) => {
        if (y === 0) {
          all++;
          if (labels[i] === 0) hit++;
        }
      });
      return hit / all;
    };
    const plain = recall0(svm.fit(s.train, svmParams.parse({ kernel: "linear", C: 0.01 }), context()));
    const balanced = recall0(svm.fit(s.train, svmParams.parse({ kernel: "linear", C: 0.01, class_weight: "balanced" }), context()));
    assert.ok(balanced > plain + 0.05, `recall of the rare class ${plain} → ${balanced}`);
  });

  test("an unknown class in class_weight is refused", () => {
    const ds = loadDataset("toy-classification");
    assert.throws(() => svm.fit(split(ds).train, svmParams.parse({ class_weight: { nope: 2 } }), context()), /not a class/);
  });
});

describe("svm explain", () => {
  test("linear kernel: primal weights are Σ coef·sv, support counts per class, dual coefficients and intercept", () => {
    const ds = loadDataset("toy-classification");
    const s = split(ds);
    const state = svm.fit(s.train, svmParams.parse({ kernel: "linear" }), context());
    const e = svm.explain!(state) as {
      n_support: Record<string, number>;
      problems: { coefficients: Record<string, number>; dual_coef: number[]; intercept: number; n_support: { negative: number; positive: number } }[];
    };
    const model = state.model.models[0];
    assert.deepEqual(e.n_support, { "0": 9, "1": 10 });
    assert.equal(e.problems[0].dual_coef.length, 19);
    assert.equal(e.problems[0].intercept, model.intercept);
    for (let t = 0; t < 3; t++) {
      let w = 0;
      for (let k = 0; k < model.coef.length; k++) w += model.coef[k] * model.support_vectors[k * 3 + t];
      assert.ok(Math.abs(e.problems[0].coefficients[`x${t}`] - w) < 1e-12);
    }
  });
});

describe("svm and svr artifacts", () => {
  test("save → load gives identical predictions and probabilities (svm, 3 classes, probability)", () => {
    const iris = loadDataset("iris");
    const s = split(iris, standardised(iris));
    const state = svm.fit(s.train, svmParams.parse({ probability: true }), context());
    const loaded = roundTrip(state, svm.state);
    assert.deepEqual(svm.predict(loaded, s.testX), svm.predict(state, s.testX));
  });

  test("save → load gives identical predictions (svr, linear: primal weights travel too)", () => {
    const ds = loadDataset("diabetes");
    const s = split(ds, standardised(ds));
    const state = svr.fit(s.train, svrParams.parse({ kernel: "linear", C: 100, epsilon: 5 }), context());
    const loaded = roundTrip(state, svr.state);
    assert.deepEqual(svr.predict(loaded, s.testX), svr.predict(state, s.testX));
  });

  test("same seed → identical state; the seed only moves Platt's folds", () => {
    const ds = loadDataset("toy-classification");
    const s = split(ds);
    const params = svmParams.parse({ probability: true });
    assert.deepEqual(svm.fit(s.train, params, context(5)), svm.fit(s.train, params, context(5)));
    const a = svm.fit(s.train, params, context(5)).model.models[0];
    const b = svm.fit(s.train, params, context(6)).model.models[0];
    assert.deepEqual(a.coef, b.coef);
    assert.notDeepEqual(a.sigmoid, b.sigmoid);
  });

  test("params parse to every default", () => {
    const p = svmParams.parse({});
    assert.equal(p.kernel, "rbf");
    assert.deepEqual(p.gamma, { kind: "scale" });
    assert.equal(p.multiclass, "ovo");
    assert.throws(() => svmParams.parse({ gamma: 0.5 }));
    assert.throws(() => svmParams.parse({ unknown: 1 }));
  });
});

describe("svr on a real dataset", () => {
  test("diabetes, standardised, rbf C=10 ε=10: R² at least scikit-learn's SVR − 0.03", () => {
    const ds = loadDataset("diabetes");
    const s = split(ds, standardised(ds));
    const state = svr.fit(s.train, svrParams.parse({ C: 10, epsilon: 10 }), context());
    const score = r2(valuesOf(svr.predict(state, s.testX)), s.testY);
    assert.ok(score >= reference.svr_r2.diabetes - 0.03, `R² ${score} vs scikit-learn ${reference.svr_r2.diabetes}`);
  });
});
