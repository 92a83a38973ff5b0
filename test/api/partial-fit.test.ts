/**
 * POST /v1/models/{id}/partial-fit over HTTP: a naive_bayes model updated with new rows becomes a
 * new model (the next version of its name, its lineage recorded) whose predictions are those of a
 * model trained on all the rows; the parent is unchanged; every documented error.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openStore } from "../../src/store/store.js";
import { appStoreLocator, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;

// Two numeric features and one categorical; class "b" is absent from the first rows.
const first = Array.from({ length: 12 }, (_, i) => ({ x: i % 4, z: (i * 7) % 5, c: i % 2 ? "u" : "v", y: i % 3 === 0 ? "a" : "c" }));
const later = Array.from({ length: 10 }, (_, i) => ({ x: 10 + i, z: i % 3, c: i % 2 ? "v" : "u", y: i < 6 ? "b" : "c" }));
const seed = { x: 10, z: 0, c: "u", y: "b" };
const csvOf = (rows: { x: number; z: number; c: string; y: string }[]) => `x,z,c,y\n${rows.map((r) => `${r.x},${r.z},${r.c},${r.y}`).join("\n")}\n`;
const probe = [{ x: 12, z: 1, c: "u" }, { x: 1, z: 3, c: "v" }, { x: 15, z: 2, c: "v" }];

const inject = (method: "GET" | "POST", url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}) });

async function train(datasetId: string, algorithm: string, name?: string): Promise<{ id: string; version: number | null; status: string }> {
  const res = await inject("POST", "/v1/models", { dataset_id: datasetId, algorithm, target: "y", validation: { method: "none" }, seed: 1, ...(name ? { name } : {}) });
  assert.equal(res.statusCode, 202, res.body);
  const model = (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string; version: number | null; status: string };
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  return model;
}

const probabilities = async (id: string) => (await inject("POST", `/v1/models/${id}/predict`, { rows: probe, probabilities: true })).json().probabilities as Record<string, number>[];

let base: { id: string; version: number | null };
let firstDataset: string;
let allDataset: string;

before(async () => {
  t = await testApp();
  // The first dataset names class "b" once so the model knows it (a classifier's classes are fixed).
  firstDataset = (await uploadCsv(t.app, "first", csvOf([...first, seed]))).id;
  allDataset = (await uploadCsv(t.app, "all", csvOf([...first, seed, ...later]))).id;
  base = await train(firstDataset, "naive_bayes", "nb");
});
after(() => t.close());

describe("POST /v1/models/{id}/partial-fit", () => {
  test("201: a new model, the next version of the name, with its lineage; it predicts as a model trained on all the rows", async () => {
    const before = await probabilities(base.id);
    const res = await inject("POST", `/v1/models/${base.id}/partial-fit`, { rows: later });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json();
    assert.notEqual(made.id, base.id);
    assert.equal(res.headers.location, `/v1/models/${made.id}`);
    assert.equal(made.name, "nb");
    assert.equal(made.version, (base.version ?? 0) + 1);
    assert.equal(made.status, "succeeded");
    assert.equal(made.parent_model_id, base.id);
    assert.equal(made.partial_fit_rows, later.length);
    assert.equal((await inject("GET", `/v1/models/${made.id}`)).json().parent_model_id, base.id);
    // naive_bayes is scale-sensitive: its automatic scale step keeps the first rows' statistics here
    // (the next test compares with a batch fit without one).
    assert.notDeepEqual(await probabilities(made.id), before, "the update changes the predictions");
    assert.deepEqual(await probabilities(base.id), before, "the parent is unchanged");
  });

  test("without a scaler the update equals a fit on all the rows (naive_bayes, auto_scale off)", async () => {
    const trainUnscaled = async (datasetId: string) => {
      const res = await inject("POST", "/v1/models", { dataset_id: datasetId, algorithm: "naive_bayes", target: "y", validation: { method: "none" }, auto_scale: false });
      return (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string };
    };
    const part = await trainUnscaled(firstDataset);
    const all = await trainUnscaled(allDataset);
    const res = await inject("POST", `/v1/models/${part.id}/partial-fit`, { rows: later, name: "nb-updated" });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal(res.json().name, "nb-updated");
    assert.equal(res.json().version, 1);
    const updated = await probabilities(res.json().id);
    const batch = await probabilities(all.id);
    updated.forEach((row, i) => {
      for (const [cls, p] of Object.entries(row)) assert.ok(Math.abs(p - batch[i][cls]) < 1e-9, `row ${i} class ${cls}: ${p} vs ${batch[i][cls]}`);
    });
  });

  test("perceptron, mlp and an SGD ridge take a partial fit through their automatic steps; a closed-form ridge is 422 unusable_input", async () => {
    for (const [algorithm, params] of [["perceptron", { max_iter: 2 }], ["mlp", { max_iter: 3, hidden_layer_sizes: [4] }]] as const) {
      const res = await inject("POST", "/v1/models", { dataset_id: firstDataset, algorithm, target: "y", params, validation: { method: "none" }, seed: 1 });
      const model = (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string; status: string };
      assert.equal(model.status, "succeeded", JSON.stringify(model));
      const updated = await inject("POST", `/v1/models/${model.id}/partial-fit`, { rows: later });
      assert.equal(updated.statusCode, 201, `${algorithm}: ${updated.body}`);
      assert.equal(updated.json().algorithm, algorithm);
      assert.equal(updated.json().parent_model_id, model.id);
      const predicted = await inject("POST", `/v1/models/${updated.json().id}/predict`, { rows: probe });
      assert.equal(predicted.statusCode, 200, predicted.body);
    }
    const numeric = (await uploadCsv(t.app, "numeric", `a,b,t\n${Array.from({ length: 20 }, (_, i) => `${i % 5},${i % 3},${i % 5 - (i % 3)}`).join("\n")}\n`)).id;
    const fitRidge = async (params: object) => {
      const res = await inject("POST", "/v1/models", { dataset_id: numeric, algorithm: "ridge", target: "t", params, validation: { method: "none" } });
      return (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string };
    };
    const sgd = await fitRidge({ solver: "gd", max_iter: 2, batch_size: 4, learning_rate_init: 0.05 });
    const rows = [{ a: 4, b: 0, t: 4 }, { a: 0, b: 2, t: -2 }];
    const inputs = rows.map(({ a, b }) => ({ a, b }));
    const predictedBefore = await inject("POST", `/v1/models/${sgd.id}/predict`, { rows: inputs });
    assert.equal(predictedBefore.statusCode, 200, `${JSON.stringify(sgd)} ${predictedBefore.body}`);
    const before = predictedBefore.json().predictions as number[];
    const updated = await inject("POST", `/v1/models/${sgd.id}/partial-fit`, { rows });
    assert.equal(updated.statusCode, 201, updated.body);
    const after = (await inject("POST", `/v1/models/${updated.json().id}/predict`, { rows: inputs })).json().predictions as number[];
    const error = (p: number[]) => Math.abs(p[0] - 4) + Math.abs(p[1] + 2);
    assert.ok(error(after) < error(before), `one epoch on the rows brings their predictions closer: ${after} vs ${before}`);
    const closed = await fitRidge({});
    const refused = await inject("POST", `/v1/models/${closed.id}/partial-fit`, { rows });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, "unusable_input");
  });

  test("id3 with incremental: true: the updated tree is the one id3 grows on all the rows (same splits, same predictions); without it, 422 unusable_input", async () => {
    const trainId3 = async (datasetId: string, params: object) => {
      const res = await inject("POST", "/v1/models", { dataset_id: datasetId, algorithm: "id3", target: "y", params, validation: { method: "none" }, seed: 1 });
      assert.equal(res.statusCode, 202, res.body);
      const model = (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string; status: string };
      assert.equal(model.status, "succeeded", JSON.stringify(model));
      return model;
    };
    const part = await trainId3(firstDataset, { incremental: true });
    const all = await trainId3(allDataset, { incremental: true });
    const res = await inject("POST", `/v1/models/${part.id}/partial-fit`, { rows: later });
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json();
    assert.equal(made.algorithm, "id3");
    assert.equal(made.parent_model_id, part.id);
    const explainOf = async (id: string) => (await inject("GET", `/v1/models/${id}/explain`)).json();
    const tree = await explainOf(made.id);
    assert.deepEqual(tree, await explainOf(all.id), "the same tree, split by split, with the same class distributions");
    assert.notDeepEqual(tree, await explainOf(part.id), "the new rows changed the tree");
    const everyRow = [...first, seed, ...later].map(({ x, z, c }) => ({ x, z, c }));
    const predict = async (id: string) => {
      const { predictions, probabilities } = (await inject("POST", `/v1/models/${id}/predict`, { rows: everyRow, probabilities: true })).json();
      return { predictions, probabilities };
    };
    assert.deepEqual(await predict(made.id), await predict(all.id));
    // Saved and loaded: the exported artifact, imported again, predicts and updates as the model itself does.
    const exported = await inject("GET", `/v1/models/${made.id}/artifact`);
    assert.equal(exported.statusCode, 200, exported.body);
    const imported = await inject("POST", "/v1/models/import", exported.json());
    assert.equal(imported.statusCode, 201, imported.body);
    assert.deepEqual(await predict(imported.json().id), await predict(made.id));
    const extra = [{ x: 3, z: 4, c: "u", y: "b" }, { x: 11, z: 1, c: "v", y: "a" }];
    const again = await inject("POST", `/v1/models/${made.id}/partial-fit`, { rows: extra });
    const againImported = await inject("POST", `/v1/models/${imported.json().id}/partial-fit`, { rows: extra });
    assert.equal(againImported.statusCode, 201, againImported.body);
    assert.deepEqual(await explainOf(againImported.json().id), await explainOf(again.json().id));
    const plain = await trainId3(firstDataset, {});
    const refused = await inject("POST", `/v1/models/${plain.id}/partial-fit`, { rows: later });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, "unusable_input");
    assert.match(refused.json().detail, /incremental: true/);
  });

  test("dataset_id: a stored dataset's rows update the model as the same JSON rows do", async () => {
    const laterDataset = (await uploadCsv(t.app, "later", csvOf(later))).id;
    const byRows = await inject("POST", `/v1/models/${base.id}/partial-fit`, { rows: later, name: "by-rows" });
    const byDataset = await inject("POST", `/v1/models/${base.id}/partial-fit`, { dataset_id: laterDataset, name: "by-dataset" });
    assert.equal(byDataset.statusCode, 201, byDataset.body);
    assert.equal(byDataset.json().partial_fit_dataset_id, laterDataset);
    assert.equal(byDataset.json().partial_fit_rows, later.length);
    assert.deepEqual(await probabilities(byDataset.json().id), await probabilities(byRows.json().id));
  });

  test("dataset_id errors: 404 unknown dataset, 422 unknown_column, 422 invalid_data for a class the model lacks", async () => {
    const unknown = await inject("POST", `/v1/models/${base.id}/partial-fit`, { dataset_id: "ds_0000000000000000" });
    assert.equal(unknown.statusCode, 404, unknown.body);
    const noTarget = (await uploadCsv(t.app, "no-target", "x,z,c\n1,2,u\n")).id;
    const lacking = await inject("POST", `/v1/models/${base.id}/partial-fit`, { dataset_id: noTarget });
    assert.equal(lacking.statusCode, 422, lacking.body);
    assert.equal(lacking.json().code, "unknown_column");
    const newClass = (await uploadCsv(t.app, "new-class", "x,z,c,y\n1,2,u,a\n3,1,v,zzz\n")).id;
    const refused = await inject("POST", `/v1/models/${base.id}/partial-fit`, { dataset_id: newClass });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.json().code, "invalid_data");
    assert.match(refused.json().detail, /zzz/);
  });

  test("GET /v1/algorithms says which algorithms have a partial fit", async () => {
    const listed = (await inject("GET", "/v1/algorithms")).json() as { name: string; partial_fit: boolean }[] | { items: { name: string; partial_fit: boolean }[] };
    const items = Array.isArray(listed) ? listed : listed.items;
    assert.equal(items.find((a) => a.name === "naive_bayes")?.partial_fit, true);
    assert.equal(items.find((a) => a.name === "id3")?.partial_fit, true);
    assert.equal(items.find((a) => a.name === "cart")?.partial_fit, false);
  });

  test("404 for an unknown model", async () => {
    const res = await inject("POST", "/v1/models/md_0000000000000000/partial-fit", { rows: later });
    assert.equal(res.statusCode, 404, res.body);
  });

  test("409 for a model that has not succeeded", async () => {
    // A queued model written straight to the store (no job runs it), so it stays queued.
    const side = await openStore(appStoreLocator(t));
    try {
      const spec = { algorithm: "naive_bayes", params: {}, task: "classification", dataset_id: firstDataset, target: "y", features: ["x", "z", "c"], preprocessing: [], validation: { method: "none" }, seed: 0, positive_class: null, name: null };
      const queued = await side.models.insert(spec);
      const refused = await inject("POST", `/v1/models/${queued.id}/partial-fit`, { rows: later });
      assert.equal(refused.statusCode, 409, refused.body);
      assert.equal(refused.json().code, "wrong_state");
    } finally {
      await side.close();
    }
  });

  test("422 unusable_request for an algorithm without partial fit", async () => {
    const cart = await train(firstDataset, "cart");
    const res = await inject("POST", `/v1/models/${cart.id}/partial-fit`, { rows: later });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "unusable_request");
  });

  test("422 invalid_data: an unseen class, a missing target, a missing feature, a wrong value", async () => {
    const cases: [object, string][] = [
      [{ ...later[0], y: "zzz" }, "rows[0].y"],
      [{ x: 1, z: 1, c: "u" }, "rows[0].y"],
      [{ x: 1, c: "u", y: "a" }, "rows[0].z"],
      [{ x: "text", z: 1, c: "u", y: "a" }, "rows[0].x"],
    ];
    for (const [row, path] of cases) {
      const res = await inject("POST", `/v1/models/${base.id}/partial-fit`, { rows: [row] });
      assert.equal(res.statusCode, 422, `${JSON.stringify(row)}: ${res.body}`);
      assert.equal(res.json().code, "invalid_data");
      assert.equal(res.json().errors[0].path, path);
    }
  });

  test("400 for an empty or malformed body, or both rows and dataset_id", async () => {
    for (const payload of [{ rows: [] }, {}, { rows: later, extra: 1 }, { rows: later, dataset_id: firstDataset }]) {
      const res = await inject("POST", `/v1/models/${base.id}/partial-fit`, payload);
      assert.equal(res.statusCode, 400, res.body);
    }
  });
});
