/**
 * Issue 20 over HTTP: `auto_scale` on train, evaluation and search requests; the
 * automatic scale step on the model; `scale_sensitive` in the algorithm listing;
 * `role_hint: "identifier"` in the dataset summary and its effect on default features.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let penguins: string;
let movies: string;
before(async () => {
  t = await testApp();
  penguins = (await uploadCsv(t.app, "penguins", fixture("penguins.csv"))).id;
  movies = (await uploadCsv(t.app, "movies", fixture("movies.csv"))).id;
});
after(() => t.close());

const post = (url: string, payload: object) => t.app.inject({ method: "POST", url, payload });

async function trained(payload: object): Promise<Record<string, unknown>> {
  const res = await post("/v1/models", payload);
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  return model;
}

type Step = { step: string; automatic: boolean; options: { columns?: string[] } };

describe("auto_scale", () => {
  const svm = () => ({ dataset_id: penguins, algorithm: "svm", target: "Species", validation: { method: "none" }, seed: 3 });

  test("by default a scale-sensitive model gets an automatic scale step of its numeric inputs, and predicts from raw rows", async () => {
    const model = await trained(svm());
    assert.equal(model.auto_scale, true);
    const scale = (model.pipeline as Step[]).find((s) => s.step === "scale");
    assert.ok(scale?.automatic, JSON.stringify(model.pipeline));
    assert.deepEqual(scale.options.columns, ["Beak Length (mm)", "Beak Depth (mm)", "Flipper Length (mm)", "Body Mass (g)"]);
    const rows = [{ Island: "Biscoe", "Beak Length (mm)": 47.5, "Beak Depth (mm)": 14.2, "Flipper Length (mm)": 217, "Body Mass (g)": 5300, Sex: "MALE" }];
    const p = await post(`/v1/models/${model.id}/predict`, { rows });
    assert.equal(p.statusCode, 200, p.body);
    assert.deepEqual(p.json().predictions, ["Gentoo"]);
  });

  test("auto_scale: false is recorded on the model and leaves the step out", async () => {
    const model = await trained({ ...svm(), auto_scale: false });
    assert.equal(model.auto_scale, false);
    assert.deepEqual(
      (model.pipeline as Step[]).map((s) => s.step),
      ["impute", "one_hot"],
    );
  });

  test("evaluations and searches take it; a value that is not a boolean is a 400 on all three", async () => {
    const evaluation = await post("/v1/evaluations", { ...svm(), validation: { method: "kfold", k: 3 }, auto_scale: false });
    assert.equal(evaluation.statusCode, 202, evaluation.body);
    assert.equal((await waitFor(t.app, evaluation.headers.location as string)).status, "succeeded");
    const search = await post("/v1/searches", { ...svm(), validation: { method: "kfold", k: 3 }, param_grid: { C: [1, 10] }, refit: false, auto_scale: true });
    assert.equal(search.statusCode, 202, search.body);
    assert.equal((await waitFor(t.app, search.headers.location as string, 60_000)).status, "succeeded");

    for (const url of ["/v1/models", "/v1/evaluations", "/v1/searches"]) {
      const extra = url === "/v1/searches" ? { param_grid: { C: [1] } } : {};
      const res = await post(url, { ...svm(), ...extra, auto_scale: "no" });
      assert.equal(res.statusCode, 400, `${url}: ${res.body}`);
      assert.equal(res.json().errors[0].path, "auto_scale", res.body);
    }
  });

  test("GET /v1/algorithms says which algorithms are scale-sensitive", async () => {
    const items = (await t.app.inject({ method: "GET", url: "/v1/algorithms" })).json().items as { name: string; scale_sensitive: boolean }[];
    const sensitive = (name: string) => items.find((a) => a.name === name)!.scale_sensitive;
    assert.equal(sensitive("svm"), true);
    assert.equal(sensitive("ridge"), true);
    assert.equal(sensitive("cart"), false);
    assert.equal(sensitive("linear_regression"), false);
  });
});

describe('role_hint "identifier"', () => {
  test("movies' Title is flagged in the dataset summary", async () => {
    const columns = (await t.app.inject({ method: "GET", url: `/v1/datasets/${movies}` })).json().columns as { name: string; role_hint?: string }[];
    assert.equal(columns.find((c) => c.name === "Title")!.role_hint, "identifier");
    assert.deepEqual(
      columns.filter((c) => c.role_hint).map((c) => c.name),
      ["Title"],
    );
  });

  test("left out of the default features with a warning naming it; used when named", async () => {
    const base = { dataset_id: movies, algorithm: "baseline", target: "Major Genre", validation: { method: "none" }, seed: 1 };
    const model = await trained(base);
    assert.equal((model.features as string[]).includes("Title"), false);
    assert.ok(
      (model.warnings as string[]).some((w) => w.includes('"Title"')),
      JSON.stringify(model.warnings),
    );

    // An evaluation split over several workers (the fold-parallel path) warns the same.
    const parallel = await testApp({ workers: 2 });
    try {
      const id = (await uploadCsv(parallel.app, "movies", fixture("movies.csv"))).id;
      const res = await parallel.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: id, algorithm: "baseline", target: "Major Genre", validation: { method: "kfold", k: 4 }, seed: 1 } });
      assert.equal(res.statusCode, 202, res.body);
      const evaluation = await waitFor(parallel.app, `/v1/evaluations/${res.json().id}`, 60_000);
      assert.equal(evaluation.status, "succeeded", JSON.stringify(evaluation.error));
      assert.ok((evaluation.warnings as string[]).some((w) => w.includes('"Title"')), JSON.stringify(evaluation.warnings));
    } finally {
      await parallel.close();
    }

    const named = await trained({ ...base, features: ["Title", "Director"] });
    assert.deepEqual(named.features, ["Title", "Director"]);
    assert.equal(
      ((named.warnings as string[] | undefined) ?? []).some((w) => w.includes("identifier")),
      false,
    );
  });
});
