import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, countRows, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
let wm2a: string;
let regression: string;
before(async () => {
  t = await testApp();
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  wm2a = (await uploadCsv(t.app, "wm2a", fixture("watermelon-2.0-alpha.csv"))).id;
  const rows = Array.from({ length: 60 }, (_, i) => `${i % 10},${(i * 7) % 13},${2 * (i % 10) + 0.5 * ((i * 7) % 13)}`);
  regression = (await uploadCsv(t.app, "linear", `x1,x2,y\n${rows.join("\n")}\n`)).id;
});
after(() => t.close());

const post = (url: string, payload: unknown) => t.app.inject({ method: "POST", url, payload: payload as object });

async function train(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  const res = await post("/v1/models", body);
  assert.equal(res.statusCode, 202, res.body);
  assert.equal(res.headers.location, `/v1/models/${res.json().id}`);
  assert.equal(res.json().status, "queued");
  return waitFor(t.app, res.headers.location as string);
}

function problem(res: { statusCode: number; json(): { errors?: { path: string }[]; status: number } }, status: number, path?: string) {
  assert.equal(res.statusCode, status, JSON.stringify(res.json()));
  assert.equal(res.json().status, status);
  if (path) assert.ok(res.json().errors?.some((e) => e.path === path), `errors name ${path}: ${JSON.stringify(res.json())}`);
}

describe("training", () => {
  test("cart on watermelon 3.0: 202, then succeeded with params, metrics and an evaluation", async () => {
    const model = await train({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], seed: 7 });
    assert.equal(model.status, "succeeded", JSON.stringify(model));
    assert.equal(model.task, "classification");
    assert.deepEqual(model.classes, ["否", "是"]);
    assert.equal(model.positive_class, "是");
    assert.equal((model.params as { min_samples_split: number }).min_samples_split, 2, "defaults filled in");
    assert.equal(model.progress, 1);
    assert.ok(typeof (model.metrics as { accuracy: number }).accuracy === "number");
    const evaluation = (await t.app.inject({ url: `/v1/evaluations/${model.evaluation_id}` })).json();
    assert.equal(evaluation.model_id, model.id);
    assert.equal(evaluation.method, "holdout");
    assert.equal(evaluation.test_rows, 4, "a quarter of each class, rounded: round(8/4) + round(9/4)");
    assert.deepEqual(evaluation.confusion_matrix.labels, ["否", "是"]);
  });

  test("regression with k-fold: per-fold metrics, mean and std; the model is refitted on all rows", async () => {
    const model = await train({ dataset_id: regression, algorithm: "cart", target: "y", validation: { method: "kfold", k: 4 }, seed: 1 });
    assert.equal(model.status, "succeeded", JSON.stringify(model));
    assert.equal(model.task, "regression");
    const evaluation = (await t.app.inject({ url: `/v1/evaluations/${model.evaluation_id}` })).json();
    assert.equal(evaluation.folds.length, 4);
    assert.ok("r2" in evaluation.metrics && "rmse" in evaluation.metrics_std);
    const mean = evaluation.folds.reduce((s: number, f: { metrics: { mse: number } }) => s + f.metrics.mse, 0) / 4;
    assert.ok(Math.abs(mean - evaluation.metrics.mse) < 1e-12);
  });

  test("bootstrap validation reports the out-of-bag share", async () => {
    const model = await train({ dataset_id: regression, algorithm: "baseline", target: "y", validation: { method: "bootstrap", rounds: 20 }, seed: 3 });
    const evaluation = (await t.app.inject({ url: `/v1/evaluations/${model.evaluation_id}` })).json();
    assert.equal(evaluation.folds.length, 20);
    assert.ok(evaluation.oob_fraction > 0.3 && evaluation.oob_fraction < 0.45, String(evaluation.oob_fraction));
  });

  test("validation none keeps no evaluation", async () => {
    const model = await train({ dataset_id: wm3, algorithm: "cart", target: "好瓜", validation: { method: "none" } });
    assert.equal(model.status, "succeeded");
    assert.equal(model.evaluation_id, undefined);
  });

  test("same request and seed → the same artifact", async () => {
    const body = { dataset_id: wm2a, algorithm: "cart", target: "好瓜", seed: 11, validation: { method: "holdout", test_size: 0.3 } };
    const a = await train(body);
    const b = await train(body);
    const strip = (text: string) => {
      const { trained_at: _t, sha256: _s, ...rest } = JSON.parse(text);
      return rest;
    };
    const artA = (await t.app.inject({ url: `/v1/models/${a.id}/artifact` })).body;
    const artB = (await t.app.inject({ url: `/v1/models/${b.id}/artifact` })).body;
    assert.deepEqual(strip(artA), strip(artB));
  });

  test("a default seed is drawn and recorded", async () => {
    const res = await post("/v1/models", { dataset_id: wm3, algorithm: "baseline", target: "好瓜" });
    assert.ok(Number.isInteger(res.json().seed));
    await waitFor(t.app, `/v1/models/${res.json().id}`);
  });

  const bad: [string, Record<string, unknown>, number, string?][] = [
    ["unknown dataset", { dataset_id: "ds_nope", algorithm: "cart", target: "好瓜" }, 404, "dataset_id"],
    ["unknown algorithm", { algorithm: "deep_magic", target: "好瓜" }, 422, "algorithm"],
    ["unknown parameter", { algorithm: "cart", target: "好瓜", params: { max_dpeth: 3 } }, 422, "params.max_dpeth"],
    ["out-of-range parameter", { algorithm: "cart", target: "好瓜", params: { min_samples_split: 1 } }, 422, "params.min_samples_split"],
    ["wrongly typed parameter", { algorithm: "cart", target: "好瓜", params: { max_depth: "deep" } }, 422, "params.max_depth"],
    ["target not a column", { algorithm: "cart", target: "甜度" }, 422, "target"],
    ["feature not a column", { algorithm: "cart", target: "好瓜", features: ["色泽", "重量"] }, 422, "features.1"],
    ["target given as a feature", { algorithm: "cart", target: "好瓜", features: ["好瓜"] }, 422, "features.0"],
    ["supervised without target", { algorithm: "cart" }, 422, "target"],
    ["test_size outside (0,1)", { algorithm: "cart", target: "好瓜", validation: { method: "holdout", test_size: 1.5 } }, 400, "validation.test_size"],
    ["k above the row count", { algorithm: "cart", target: "好瓜", validation: { method: "kfold", k: 40 } }, 422, "validation.k"],
    ["non-integer seed", { algorithm: "cart", target: "好瓜", seed: 1.5 }, 400, "seed"],
    ["unknown positive class", { algorithm: "cart", target: "好瓜", positive_class: "maybe" }, 422, "positive_class"],
    ["unknown step", { algorithm: "cart", target: "好瓜", preprocessing: [{ step: "magic" }] }, 422, "preprocessing[0].step"],
    ["bad step option", { algorithm: "baseline", target: "好瓜", preprocessing: [{ step: "impute", numeric: "sometimes" }] }, 422],
    ["unknown body field", { algorithm: "cart", target: "好瓜", colour: "red" }, 400],
    ["scale given a categorical column", { algorithm: "svm", target: "好瓜", preprocessing: [{ step: "scale", method: "standard", columns: ["色泽"] }] }, 422],
    ["box_cox on values that are not positive", { algorithm: "ridge", target: "密度", features: ["编号", "含糖率"], preprocessing: [{ step: "transform", method: "box_cox", columns: ["编号"] }, { step: "transform", method: "log", columns: ["含糖率"] }, { step: "scale", columns: ["色泽"] }] }, 422],
    ["select k above the feature count", { algorithm: "cart", target: "好瓜", features: ["密度", "含糖率"], preprocessing: [{ step: "select", method: "variance", k: 5 }] }, 422],
  ];
  for (const [name, body, status, path] of bad) {
    test(`${name} → ${status} before anything is queued`, async () => {
      const before = await countRows(t, "SELECT count(*) AS n FROM models");
      problem(await post("/v1/models", { dataset_id: wm3, ...body }), status, path);
      assert.equal(await countRows(t, "SELECT count(*) AS n FROM models"), before);
    });
  }

  test("a target with a single class → 422", async () => {
    const one = (await uploadCsv(t.app, "one", "x,y\n1,a\n2,a\n3,a\n")).id;
    problem(await post("/v1/models", { dataset_id: one, algorithm: "cart", target: "y" }), 422, "target");
  });
});

describe("models as resources", () => {
  test("GET one, list with filters and cursor, DELETE, 404s", async () => {
    const local = await testApp();
    try {
      const ds = (await uploadCsv(local.app, "wm3", fixture("watermelon-3.0.csv"))).id;
      const ids: string[] = [];
      for (const algorithm of ["baseline", "cart", "cart"]) {
        const res = await local.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm, target: "好瓜" } });
        ids.push(res.json().id);
      }
      for (const id of ids) await waitFor(local.app, `/v1/models/${id}`);
      const carts = (await local.app.inject({ url: "/v1/models?algorithm=cart" })).json();
      assert.deepEqual(carts.items.map((m: { id: string }) => m.id), [ids[2], ids[1]]);
      const page1 = (await local.app.inject({ url: `/v1/models?limit=2&dataset_id=${ds}&status=succeeded` })).json();
      assert.equal(page1.items.length, 2);
      const page2 = (await local.app.inject({ url: `/v1/models?limit=2&dataset_id=${ds}&status=succeeded&cursor=${page1.next_cursor}` })).json();
      assert.deepEqual(page2.items.map((m: { id: string }) => m.id), [ids[0]]);
      problem(await local.app.inject({ url: "/v1/models?status=sleeping" }), 400, "query.status");
      assert.equal((await local.app.inject({ method: "DELETE", url: `/v1/models/${ids[0]}` })).statusCode, 204);
      problem(await local.app.inject({ url: `/v1/models/${ids[0]}` }), 404);
      problem(await local.app.inject({ method: "DELETE", url: `/v1/models/${ids[0]}` }), 404);
      problem(await local.app.inject({ method: "POST", url: `/v1/models/${ids[0]}/predict`, payload: { rows: [{}] } }), 404);
    } finally {
      await local.close();
    }
  });
});

describe("predict", () => {
  let modelId: string;
  before(async () => {
    modelId = (await train({ dataset_id: wm2a, algorithm: "cart", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感"], validation: { method: "none" } })).id as string;
  });

  test("labels and probabilities in class order; missing, absent and unseen values are accepted", async () => {
    const res = await post(`/v1/models/${modelId}/predict`, {
      rows: [{ 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑" }, { 纹理: null }, { 纹理: "模糊", 色泽: "紫色" }, {}],
      probabilities: true,
    });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.equal(body.model_id, modelId);
    assert.equal(body.predictions.length, 4);
    assert.equal(body.predictions[0], "是");
    assert.equal(body.predictions[2], "否", "纹理=模糊 is a leaf of 否 in the book's tree");
    for (const p of body.probabilities) {
      assert.deepEqual(Object.keys(p), ["否", "是"]);
      assert.ok(Math.abs(p["否"] + p["是"] - 1) < 1e-9);
    }
    const plain = (await post(`/v1/models/${modelId}/predict`, { rows: [{ 纹理: "清晰" }] })).json();
    assert.equal(plain.probabilities, undefined);
  });

  test("bad rows → 4xx with the field path", async () => {
    problem(await post(`/v1/models/${modelId}/predict`, { rows: [{ 纹理: "清晰" }, { 重量: 3 }] }), 422, "rows[1].重量");
    problem(await post(`/v1/models/${modelId}/predict`, { rows: [{ 纹理: { a: 1 } }] }), 400);
    problem(await post(`/v1/models/${modelId}/predict`, { rows: [] }), 400, "rows");
    problem(await post(`/v1/models/${modelId}/predict`, { rows: "nope" }), 400, "rows");
    problem(await post(`/v1/models/${modelId}/predict`, {}), 400, "rows");
  });

  test("a numeric feature given text → 422 naming the cell", async () => {
    const m = await train({ dataset_id: wm3, algorithm: "cart", target: "好瓜", features: ["密度", "含糖率"], validation: { method: "none" } });
    problem(await post(`/v1/models/${m.id}/predict`, { rows: [{ 密度: 0.5, 含糖率: "sweet" }] }), 422, "rows[0].含糖率");
    const ok = await post(`/v1/models/${m.id}/predict`, { rows: [{ 密度: "0.5", 含糖率: 0.1 }] });
    assert.equal(ok.statusCode, 200, ok.body);
  });

  test("regression predictions are numbers", async () => {
    const m = await train({ dataset_id: regression, algorithm: "cart", target: "y", validation: { method: "none" } });
    const res = (await post(`/v1/models/${m.id}/predict`, { rows: [{ x1: 3, x2: 8 }] })).json();
    assert.equal(typeof res.predictions[0], "number");
    assert.equal(res.predictions[0], 10, "a fully grown tree reproduces its (unique) training row x1=3, x2=8");
  });

  test("explain: the tree in API.md's node format, text and dot", async () => {
    const res = await t.app.inject({ url: `/v1/models/${modelId}/explain` });
    assert.equal(res.statusCode, 200, res.body);
    const { tree } = res.json();
    assert.equal(tree.split.feature, "纹理");
    assert.ok(Array.isArray(tree.children) && tree.children.length >= 2);
    assert.ok(typeof tree.samples === "number");
    const text = await t.app.inject({ url: `/v1/models/${modelId}/explain?format=text` });
    assert.equal(text.statusCode, 200);
    assert.match(text.headers["content-type"] as string, /text\/plain/);
    assert.match(text.body, /纹理/);
    const dot = await t.app.inject({ url: `/v1/models/${modelId}/explain?format=dot` });
    assert.match(dot.body, /digraph/);
    problem(await t.app.inject({ url: `/v1/models/${modelId}/explain?format=pdf` }), 400, "query.format");
  });

  test("artifact export → import → identical predictions; a tampered artifact is 422", async () => {
    const artifact = await t.app.inject({ url: `/v1/models/${modelId}/artifact` });
    assert.equal(artifact.statusCode, 200);
    const doc = artifact.json();
    assert.equal(doc.format, "xigua-model");
    const imported = await t.app.inject({ method: "POST", url: "/v1/models/import", payload: doc });
    assert.equal(imported.statusCode, 201, imported.body);
    assert.equal(imported.json().status, "succeeded");
    const rows = [{ 纹理: "清晰", 根蒂: "稍蜷" }, { 纹理: "稍糊", 触感: "软粘" }, {}];
    const a = (await post(`/v1/models/${modelId}/predict`, { rows, probabilities: true })).json();
    const b = (await post(`/v1/models/${imported.json().id}/predict`, { rows, probabilities: true })).json();
    assert.deepEqual(a.probabilities, b.probabilities);
    assert.deepEqual(a.predictions, b.predictions);

    problem(await t.app.inject({ method: "POST", url: "/v1/models/import", payload: { ...doc, params: { ...doc.params, max_depth: 2 } } }), 422, "sha256");
    problem(await t.app.inject({ method: "POST", url: "/v1/models/import", payload: { ...doc, format: "pickle" } }), 422);
    problem(await t.app.inject({ method: "POST", url: "/v1/models/import", payload: { hello: "world" } }), 422);
  });
});

describe("job states", () => {
  test("cancel: a queued job is cancelled (202), then 409; predict on it → 409", async () => {
    const local = await testApp({ workers: 1 });
    try {
      const n = 20000;
      const lines = Array.from({ length: n }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 2 === 0 ? "a" : "b"}`);
      const ds = (await uploadCsv(local.app, "big", `x1,x2,y\n${lines.join("\n")}\n`)).id;
      const slow = { dataset_id: ds, algorithm: "cart", target: "y", validation: { method: "kfold", k: 20 } };
      const first = (await local.app.inject({ method: "POST", url: "/v1/models", payload: slow })).json();
      const second = (await local.app.inject({ method: "POST", url: "/v1/models", payload: slow })).json();
      const queued = (await local.app.inject({ url: `/v1/models/${second.id}` })).json();
      assert.equal(queued.status, "queued");
      problem(await local.app.inject({ method: "POST", url: `/v1/models/${second.id}/predict`, payload: { rows: [{ x1: 1 }] } }), 409);
      const cancel = await local.app.inject({ method: "POST", url: `/v1/models/${second.id}/cancel` });
      assert.equal(cancel.statusCode, 202, cancel.body);
      assert.equal(cancel.json().status, "cancelled");
      problem(await local.app.inject({ method: "POST", url: `/v1/models/${second.id}/cancel` }), 409);
      const running = await local.app.inject({ method: "POST", url: `/v1/models/${first.id}/cancel` });
      assert.equal(running.statusCode, 202);
      const ended = await waitFor(local.app, `/v1/models/${first.id}`);
      assert.equal(ended.status, "cancelled");
      problem(await local.app.inject({ method: "POST", url: `/v1/models/nope/cancel` }), 404);
      assert.equal((await local.app.inject({ url: "/health/ready" })).statusCode, 200);
    } finally {
      await local.close();
    }
  });
});
