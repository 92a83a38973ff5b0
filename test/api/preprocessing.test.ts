import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
before(async () => {
  t = await testApp();
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
});
after(() => t.close());

test("user steps are fitted on training rows, shown on the model, and applied to raw rows at predict time", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/models",
    payload: {
      dataset_id: wm3,
      algorithm: "logistic_regression",
      target: "好瓜",
      features: ["色泽", "纹理", "密度", "含糖率"],
      preprocessing: [
        { step: "scale", method: "standard", columns: ["密度", "含糖率"] },
        { step: "one_hot", columns: ["色泽", "纹理"] },
        { step: "pca", n_components: 3 },
      ],
      validation: { method: "kfold", k: 3 },
      seed: 1,
    },
  });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  const steps = model.pipeline as { step: string; automatic: boolean; fitted: Record<string, unknown> | null }[];
  assert.deepEqual(steps.filter((s) => !s.automatic).map((s) => s.step), ["scale", "one_hot", "pca"]);
  assert.ok(steps.find((s) => s.step === "pca")!.fitted, "pca describes itself (explained variance)");
  const p = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/predict`, payload: { rows: [{ 色泽: "青绿", 纹理: "清晰", 密度: 0.7, 含糖率: 0.4 }, { 纹理: "模糊" }], probabilities: true } });
  assert.equal(p.statusCode, 200, p.body);
  assert.equal(p.json().predictions.length, 2);
});

test("resampling touches training rows only: SMOTE in a k-fold evaluation still tests every original row once", async () => {
  const res = await t.app.inject({
    method: "POST",
    url: "/v1/evaluations",
    payload: { dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["密度", "含糖率"], preprocessing: [{ step: "resample", method: "smote", k_neighbors: 2 }], validation: { method: "kfold", k: 3 }, seed: 2 },
  });
  assert.equal(res.statusCode, 202, res.body);
  const e = await waitFor(t.app, res.headers.location as string);
  assert.equal(e.status, "succeeded", JSON.stringify(e.error));
  const matrix = (e.confusion_matrix as { matrix: number[][] }).matrix;
  assert.equal(matrix.flat().reduce((a, b) => a + b, 0), 17);
});
