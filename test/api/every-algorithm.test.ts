/**
 * Every registered algorithm through the service: train on raw rows with missing
 * and categorical values (the pipeline adds imputation / one-hot where the
 * algorithm needs them), predict, export the artifact, import it, and get the
 * same predictions; training twice with one seed gives the same artifact. Projections
 * (no target) the same way, and they transform the dataset.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { listAlgorithms } from "../../src/models/registry.js";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let classification: string;
let regression: string;
before(async () => {
  t = await testApp({ workers: 2 });
  // Watermelon 3.0 with a few cells blanked: categorical, numeric and missing values at once.
  const text = fixture("watermelon-3.0.csv").toString().split("\n");
  text[3] = text[3].replace("沉闷", "");
  text[7] = text[7].replace(/0\.\d+,(0\.\d+,[^,]+)$/, ",$1");
  classification = (await uploadCsv(t.app, "wm3-holes", text.join("\n"))).id;
  const rows = Array.from({ length: 60 }, (_, i) => `${i % 10},${["a", "b", "c"][i % 3]},${(i % 10) * 1.5 + (i % 3) + ((i * 7) % 5) * 0.1}`);
  regression = (await uploadCsv(t.app, "reg", `x,g,y\n${rows.join("\n")}\n`)).id;
});
after(() => t.close());

const rowsFor = {
  classification: [{ 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑", 密度: 0.697, 含糖率: 0.46 }, { 纹理: "模糊", 密度: null }, { 色泽: "未见过" }],
  regression: [{ x: 3, g: "b" }, { x: null, g: "a" }, { g: "z" }],
};

/** Export → import answers `first` again; a second fit with the same seed stores the same artifact (timestamps aside). */
async function assertRoundTripAndSeed(id: unknown, first: object, predict: (id: unknown) => Promise<unknown>, train: () => Promise<Record<string, unknown>>): Promise<void> {
  const artifact = (await t.app.inject({ url: `/v1/models/${id}/artifact` })).json();
  const imported = await t.app.inject({ method: "POST", url: "/v1/models/import", payload: artifact });
  assert.equal(imported.statusCode, 201, imported.body);
  assert.deepEqual(await predict(imported.json().id), { ...first, model_id: imported.json().id });
  const again = await train();
  const strip = (a: Record<string, unknown>) => ({ ...a, trained_at: null, sha256: null });
  assert.deepEqual(strip((await t.app.inject({ url: `/v1/models/${again.id}/artifact` })).json()), strip(artifact));
}

for (const algorithm of listAlgorithms()) {
  const task = algorithm.tasks.includes("classification") ? "classification" : algorithm.tasks.includes("regression") ? "regression" : null;
  if (!task) continue;
  test(`${algorithm.name}: train → predict → export → import → same predictions; same seed → same artifact`, async () => {
    const body =
      task === "classification"
        ? { dataset_id: classification, algorithm: algorithm.name, target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], seed: 3 }
        : { dataset_id: regression, algorithm: algorithm.name, target: "y", seed: 3 };
    const train = async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { ...body, validation: { method: "none" } } });
      assert.equal(res.statusCode, 202, res.body);
      return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
    };
    const model = await train();
    assert.equal(model.status, "succeeded", JSON.stringify(model.error));
    const rows = rowsFor[task];
    const withProba = task === "classification";
    const predict = async (id: unknown) => {
      const res = await t.app.inject({ method: "POST", url: `/v1/models/${id}/predict`, payload: { rows } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const first = await predict(model.id);
    assert.equal(first.predictions.length, rows.length);
    if (withProba) for (const p of first.predictions) assert.ok(["是", "否"].includes(p));
    else for (const p of first.predictions) assert.ok(Number.isFinite(p));

    await assertRoundTripAndSeed(model.id, first, predict, train);

    const steps = (model.pipeline as { step: string; automatic: boolean }[] | undefined) ?? [];
    if (!algorithm.accepts.missing) assert.ok(steps.some((s) => s.step === "impute" && s.automatic), "imputation added in front");
    if (!algorithm.accepts.categorical) assert.ok(steps.some((s) => s.step === "one_hot" && s.automatic), "one-hot added in front");
    if (algorithm.explain) {
      const explained = await t.app.inject({ url: `/v1/models/${model.id}/explain` });
      assert.equal(explained.statusCode, 200, explained.body);
    }
  });
}

// Projections train without a target (the supervised ones against 好瓜) on the same raw rows (impute and one-hot in front), answer
// `projections` as wide as their output names, and transform the dataset they were trained on.
for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("projection"))) {
  test(`${algorithm.name} (projection): train → predict → export → import → same projections; same seed → same artifact; transform`, async () => {
    // A supervised projection (lda_projection, nca_projection) is fitted against the classes.
    const body = { dataset_id: classification, algorithm: algorithm.name, ...(algorithm.accepts.classes ? { target: "好瓜" } : {}), features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], seed: 3 };
    const train = async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: body });
      assert.equal(res.statusCode, 202, res.body);
      return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
    };
    const model = await train();
    assert.equal(model.status, "succeeded", JSON.stringify(model.error));
    const predict = async (id: unknown) => {
      const res = await t.app.inject({ method: "POST", url: `/v1/models/${id}/predict`, payload: { rows: rowsFor.classification } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const first = await predict(model.id);
    assert.equal(first.projections.length, rowsFor.classification.length);
    for (const p of first.projections) assert.ok(p.length > 0 && p.every(Number.isFinite));
    await assertRoundTripAndSeed(model.id, first, predict, train);
    assert.equal((await t.app.inject({ url: `/v1/models/${model.id}/explain` })).statusCode, 200);
    const made = await t.app.inject({ method: "POST", url: `/v1/models/${model.id}/transform`, payload: { dataset_id: classification } });
    assert.equal(made.statusCode, 201, made.body);
    assert.equal(made.json().columns.length, first.projections[0].length + 2, "the projections, then the columns that were not features (编号, 好瓜)");
  });
}

// Anomaly detectors train without a target on the same raw rows (impute and one-hot in front) and answer
// `predictions` ("outlier" / "inlier") with `scores` in (0, 1].
for (const algorithm of listAlgorithms().filter((a) => a.tasks.includes("anomaly"))) {
  test(`${algorithm.name} (anomaly): train → predict → export → import → same scores; same seed → same artifact`, async () => {
    const body = { dataset_id: classification, algorithm: algorithm.name, features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], seed: 3 };
    const train = async () => {
      const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: body });
      assert.equal(res.statusCode, 202, res.body);
      return waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
    };
    const model = await train();
    assert.equal(model.status, "succeeded", JSON.stringify(model.error));
    assert.equal(model.task, "anomaly");
    const predict = async (id: unknown) => {
      const res = await t.app.inject({ method: "POST", url: `/v1/models/${id}/predict`, payload: { rows: rowsFor.classification } });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const first = await predict(model.id);
    assert.equal(first.predictions.length, rowsFor.classification.length);
    for (const p of first.predictions) assert.ok(["outlier", "inlier"].includes(p));
    for (const s of first.scores) assert.ok(s > 0 && s <= 1);
    await assertRoundTripAndSeed(model.id, first, predict, train);
    assert.equal((await t.app.inject({ url: `/v1/models/${model.id}/explain` })).statusCode, 200);
  });
}
