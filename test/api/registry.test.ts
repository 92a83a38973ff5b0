/**
 * The registry over HTTP: versions per name (also under concurrent creates), aliases
 * set / moved / deleted, every reference form on the model routes (raw and
 * percent-encoded), the bare name skipping versions that did not succeed, and an alias
 * moved through one app seen by the next request to a second app on the same store.
 */
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openStore, type Store } from "../../src/store/store.js";
import { predictResponse } from "../../src/server/schemas/models.js";
import { resolveModelRef, resolveNameVersion } from "../../src/server/model-ref.js";
import { appStoreLocator, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let dataset: string;

const rows = Array.from({ length: 24 }, (_, i) => `${i},${i % 3},${i < 12 ? "lo" : "hi"}`);
const CSV = `x,z,y\n${rows.join("\n")}\n`;

before(async () => {
  t = await testApp({ maxJobs: 100 });
  dataset = (await uploadCsv(t.app, "reg", CSV)).id;
});
after(() => t.close());

const inject = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: object) => t.app.inject({ method, url, ...(payload ? { payload } : {}) });

/** Trains a small cart named `name` (its split depth picks what it predicts) and waits for it. */
async function train(name: string | undefined, maxDepth = 2): Promise<{ id: string; version: number | null; name: string | null; status: string }> {
  const res = await inject("POST", "/v1/models", { dataset_id: dataset, algorithm: "cart", target: "y", params: { max_depth: maxDepth }, validation: { method: "none" }, seed: 1, ...(name ? { name } : {}) });
  assert.equal(res.statusCode, 202, res.body);
  const model = (await waitFor(t.app, `/v1/models/${res.json().id}`)) as { id: string; version: number | null; name: string | null; status: string };
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  return model;
}

/** The store the app uses, opened beside it (a second writer on the same SQLite file or PostgreSQL schema). */
async function sideStore(): Promise<Store> {
  return openStore(appStoreLocator(t));
}

const predictOne = (ref: string) => inject("POST", `/v1/models/${ref}/predict`, { rows: [{ x: 3, z: 0 }] });

describe("versions", () => {
  test("each model with a name gets 1 + the highest version of it; unnamed models have none", async () => {
    const a1 = await train("churn");
    const a2 = await train("churn");
    const b1 = await train("fraud");
    const plain = await train(undefined);
    assert.deepEqual([a1.version, a2.version, b1.version], [1, 2, 1]);
    assert.equal(plain.version, null);
    assert.equal(plain.name, null);
    const listed = (await inject("GET", "/v1/models?limit=500")).json().items as { id: string; version: number | null }[];
    assert.equal(listed.find((m) => m.id === a2.id)!.version, 2);
  });

  test("10 concurrent creates with one name take versions 1..10, each once", async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => inject("POST", "/v1/models", { dataset_id: dataset, algorithm: "cart", target: "y", validation: { method: "none" }, name: "burst" })),
    );
    for (const r of responses) assert.equal(r.statusCode, 202, r.body);
    const versions = responses.map((r) => r.json().version as number).sort((x, y) => x - y);
    assert.deepEqual(versions, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    for (const r of responses) await waitFor(t.app, `/v1/models/${r.json().id}`);
  });

  test("an imported artifact with ?name= becomes the next version of the name", async () => {
    const source = await train("exported");
    const artifact = (await inject("GET", `/v1/models/${source.id}/artifact`)).json();
    const imported = await inject("POST", "/v1/models/import?name=exported", artifact);
    assert.equal(imported.statusCode, 201, imported.body);
    assert.equal(imported.json().version, 2);
    assert.equal(imported.json().name, "exported");
    const unnamed = await inject("POST", "/v1/models/import", artifact);
    assert.equal(unnamed.json().version, null);
  });

  test("names and aliases that references could not tell apart are refused", async () => {
    for (const name of ["a@b", "a:1", "a/b", "", "x".repeat(65), "-lead", "md_0123456789abcdef"]) {
      const res = await inject("POST", "/v1/models", { dataset_id: dataset, algorithm: "cart", target: "y", name });
      assert.equal(res.statusCode, 400, `${name}: ${res.body}`);
      assert.ok(res.json().errors.some((e: { path: string }) => e.path === "name"), res.body);
    }
    const badImport = await inject("POST", "/v1/models/import?name=a%40b", {});
    assert.equal(badImport.statusCode, 400);
    for (const alias of ["123", "9lives", "a@b", "x".repeat(33), "a%3Ab"]) {
      const res = await inject("PUT", `/v1/registry/churn/aliases/${alias}`, { version: 1 });
      assert.equal(res.statusCode, 400, `${alias}: ${res.body}`);
    }
    for (const body of [{}, { version: 0 }, { version: 1.5 }, { version: "1" }, { version: 1, extra: true }]) {
      assert.equal((await inject("PUT", "/v1/registry/churn/aliases/prod", body)).statusCode, 400, JSON.stringify(body));
    }
  });
});

describe("aliases and references", () => {
  let v1: { id: string };
  let v2: { id: string };
  before(async () => {
    v1 = await train("iris", 1);
    v2 = await train("iris", 3);
  });

  test("PUT sets and moves an alias (200, the mapping); the registry lists it; DELETE removes it (204), then 404", async () => {
    const set = await inject("PUT", "/v1/registry/iris/aliases/production", { version: 1 });
    assert.equal(set.statusCode, 200, set.body);
    assert.deepEqual(set.json(), { name: "iris", alias: "production", version: 1, model_id: v1.id });
    assert.equal((await inject("GET", "/v1/models/iris@production")).json().id, v1.id);

    const moved = await inject("PUT", "/v1/registry/iris/aliases/production", { version: 2 });
    assert.equal(moved.json().model_id, v2.id);
    assert.equal((await inject("GET", "/v1/models/iris@production")).json().id, v2.id);

    await inject("PUT", "/v1/registry/iris/aliases/staging", { version: 1 });
    const entry = (await inject("GET", "/v1/registry/iris")).json();
    assert.equal(entry.name, "iris");
    assert.equal(entry.latest_version, 2);
    assert.equal(entry.latest_succeeded_version, 2);
    assert.deepEqual(entry.aliases, { production: 2, staging: 1 });
    assert.deepEqual(entry.versions.map((m: { id: string; version: number }) => [m.id, m.version]), [[v2.id, 2], [v1.id, 1]]);
    assert.equal(entry.next_cursor, null);

    const deleted = await inject("DELETE", "/v1/registry/iris/aliases/staging");
    assert.equal(deleted.statusCode, 204);
    assert.equal((await inject("DELETE", "/v1/registry/iris/aliases/staging")).statusCode, 404);
    assert.equal((await inject("GET", "/v1/models/iris@staging")).statusCode, 404);
    assert.deepEqual((await inject("GET", "/v1/registry/iris")).json().aliases, { production: 2 });
  });

  test("an alias to a version the name lacks is 422; on an unknown name 404", async () => {
    const missing = await inject("PUT", "/v1/registry/iris/aliases/production", { version: 99 });
    assert.equal(missing.statusCode, 422, missing.body);
    assert.equal(missing.json().errors[0].path, "version");
    assert.equal((await inject("PUT", "/v1/registry/nobody/aliases/production", { version: 1 })).statusCode, 404);
    assert.equal((await inject("DELETE", "/v1/registry/nobody/aliases/production")).statusCode, 404);
    assert.equal((await inject("GET", "/v1/registry/nobody")).statusCode, 404);
  });

  test("every reference form, raw and percent-encoded, on get, predict, explain, artifact and labels' neighbours", async () => {
    await inject("PUT", "/v1/registry/iris/aliases/champion", { version: 1 });
    const forms: [string, string][] = [
      [v1.id, v1.id],
      ["iris", v2.id],
      ["iris:1", v1.id],
      ["iris%3A1", v1.id],
      ["iris:2", v2.id],
      ["iris@champion", v1.id],
      ["iris%40champion", v1.id],
    ];
    for (const [ref, id] of forms) {
      const got = await inject("GET", `/v1/models/${ref}`);
      assert.equal(got.statusCode, 200, `${ref}: ${got.body}`);
      assert.equal(got.json().id, id, ref);

      const predicted = await predictOne(ref);
      assert.equal(predicted.statusCode, 200, `${ref}: ${predicted.body}`);
      const body = predictResponse.parse(predicted.json());
      assert.equal(body.model_id, id);
      assert.equal(body.name, "iris");
      assert.equal(body.version, id === v1.id ? 1 : 2);

      const explained = await inject("GET", `/v1/models/${ref}/explain`);
      assert.equal(explained.statusCode, 200, `${ref}: ${explained.body}`);
      assert.equal(explained.body, (await inject("GET", `/v1/models/${id}/explain`)).body);

      const artifact = await inject("GET", `/v1/models/${ref}/artifact`);
      assert.equal(artifact.statusCode, 200, `${ref}: ${artifact.body}`);
      assert.equal(artifact.body, (await inject("GET", `/v1/models/${id}/artifact`)).body);
    }
    // Labels answer only for clustering models: a reference reaches that 422, not a 404.
    assert.equal((await inject("GET", "/v1/models/iris@champion/labels")).statusCode, 422);
  });

  test("a large batch predicted on the compute pool carries the name and version too", async () => {
    const many = Array.from({ length: 1500 }, (_, i) => ({ x: i % 24, z: i % 3 }));
    const res = await inject("POST", "/v1/models/iris:1/predict", { rows: many });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    const body = predictResponse.parse(res.json());
    assert.deepEqual([body.model_id, body.name, body.version, body.predictions!.length], [v1.id, "iris", 1, 1500]);
  });

  test("references to nothing are 404 on every model route", async () => {
    for (const ref of ["iris:7", "iris@nothing", "nobody", "nobody:1", "nobody@prod", "iris:0", "iris:01", "iris@", "@prod", ":1", "iris:1:2", "iris%40", "md_zzzzzzzzzzzzzzzz"]) {
      assert.equal((await inject("GET", `/v1/models/${ref}`)).statusCode, 404, `GET ${ref}`);
      assert.equal((await predictOne(ref)).statusCode, 404, `predict ${ref}`);
      assert.equal((await inject("GET", `/v1/models/${ref}/explain`)).statusCode, 404, `explain ${ref}`);
      assert.equal((await inject("GET", `/v1/models/${ref}/artifact`)).statusCode, 404, `artifact ${ref}`);
      assert.equal((await inject("POST", `/v1/models/${ref}/cancel`)).statusCode, 404, `cancel ${ref}`);
    }
  });

  test("the bare name skips newer versions that did not succeed; a version that is not succeeded answers 409 to predict", async () => {
    const store = await sideStore();
    try {
      const spec = { algorithm: "cart", params: {}, task: "classification", dataset_id: dataset, target: "y", features: ["x", "z"], preprocessing: [], validation: { method: "none" }, seed: 1, positive_class: null, name: "iris" };
      const failed = await store.models.insert(spec);
      await store.models.finishUnsuccessfully(failed.id, "failed", { type: "urn:x", title: "Failed", status: 500, code: "training_failed" });
      const queued = await store.models.insert(spec);
      assert.deepEqual([failed.version, queued.version], [3, 4]);
      assert.equal((await inject("GET", "/v1/models/iris")).json().id, v2.id);
      const entry = (await inject("GET", "/v1/registry/iris")).json();
      assert.deepEqual([entry.latest_version, entry.latest_succeeded_version], [4, 2]);
      assert.equal((await predictOne("iris:3")).statusCode, 409);
      assert.equal((await inject("PUT", "/v1/registry/iris/aliases/next", { version: 4 })).statusCode, 200, "any existing version may be aliased");
      assert.equal((await predictOne("iris@next")).statusCode, 409);
      await store.models.finishUnsuccessfully(queued.id, "cancelled", { type: "urn:x", title: "Cancelled", status: 409, code: "cancelled" });
    } finally {
      await store.close();
    }
  });

  test("deleting a model by reference deletes it and the aliases that named it", async () => {
    const doomed = await train("iris", 2);
    await inject("PUT", "/v1/registry/iris/aliases/doomed", { version: doomed.version! });
    const deleted = await inject("DELETE", `/v1/models/iris:${doomed.version}`);
    assert.equal(deleted.statusCode, 204);
    assert.equal((await inject("GET", `/v1/models/${doomed.id}`)).statusCode, 404);
    assert.equal("doomed" in (await inject("GET", "/v1/registry/iris")).json().aliases, false);
  });
});

describe("limits and the OIP helper", () => {
  test("the longest name with the longest alias fits the router's path parameter, even percent-encoded", async () => {
    const name = `n${"x".repeat(63)}`;
    const alias = `a${"y".repeat(31)}`;
    const model = await train(name);
    assert.equal((await inject("PUT", `/v1/registry/${name}/aliases/${alias}`, { version: 1 })).statusCode, 200);
    for (const ref of [`${name}@${alias}`, `${name}%40${alias}`]) {
      const res = await inject("GET", `/v1/models/${ref}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.json().id, model.id);
    }
  });

  test("resolveNameVersion takes a version number or an alias for OIP's /versions/{v}", async () => {
    const store = await sideStore();
    try {
      const v1 = await store.registry.byVersion("iris", 1);
      assert.ok(v1);
      assert.equal(await resolveNameVersion(store, "iris", "1"), v1);
      assert.equal(await resolveNameVersion(store, "iris", "champion"), v1);
      for (const v of ["0", "01", "99", "nothing", "1a", "", "a@b"]) assert.equal(await resolveNameVersion(store, "iris", v), undefined, v);
      assert.equal(await resolveNameVersion(store, "a@b", "1"), undefined);
      assert.equal(await resolveModelRef(store, "iris:1"), v1);
    } finally {
      await store.close();
    }
  });
});

describe("listing", () => {
  test("GET /v1/registry pages names in byte order with latest versions and aliases", async () => {
    for (const name of ["page-b", "page-a", "Page-C", "page-a"]) await train(name);
    await inject("PUT", "/v1/registry/page-a/aliases/live", { version: 2 });
    const seen: { name: string; latest_version: number; aliases: Record<string, number> }[] = [];
    let cursor: string | null = null;
    do {
      const res = await inject("GET", `/v1/registry?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(res.statusCode, 200, res.body);
      assert.ok(res.json().items.length <= 2);
      seen.push(...res.json().items);
      cursor = res.json().next_cursor;
    } while (cursor);
    const names = seen.map((e) => e.name);
    assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    assert.equal(new Set(names).size, names.length);
    for (const name of ["page-a", "page-b", "Page-C", "churn", "burst", "iris"]) assert.ok(names.includes(name), name);
    const a = seen.find((e) => e.name === "page-a")!;
    assert.deepEqual([a.latest_version, a.aliases], [2, { live: 2 }]);
    assert.equal((await inject("GET", "/v1/registry?cursor=bm90LW91cnM")).statusCode, 400);
  });

  test("GET /v1/registry/{name} pages versions, highest first", async () => {
    const first = (await inject("GET", "/v1/registry/burst?limit=4")).json();
    assert.deepEqual(first.versions.map((m: { version: number }) => m.version), [10, 9, 8, 7]);
    const second = (await inject("GET", `/v1/registry/burst?limit=4&cursor=${first.next_cursor}`)).json();
    assert.deepEqual(second.versions.map((m: { version: number }) => m.version), [6, 5, 4, 3]);
  });
});

describe("two API processes on one store", () => {
  test("an alias moved through one app resolves to the new version on the next request to the other", async () => {
    const m1 = await train("shared", 1);
    const m2 = await train("shared", 3);
    await inject("PUT", "/v1/registry/shared/aliases/production", { version: 1 });
    // A second app on the first one's directory opens the same SQLite file (or PostgreSQL schema).
    const other = await testApp({}, t.dir);
    try {
      const ask = async () => (await other.app.inject({ method: "POST", url: "/v1/models/shared@production/predict", payload: { rows: [{ x: 3, z: 0 }] } })).json().model_id;
      assert.equal(await ask(), m1.id);
      await inject("PUT", "/v1/registry/shared/aliases/production", { version: 2 });
      assert.equal(await ask(), m2.id);
      await other.app.inject({ method: "DELETE", url: "/v1/registry/shared/aliases/production" });
      assert.equal((await predictOne("shared@production")).statusCode, 404);
    } finally {
      // Not other.close(): that would remove the directory and schema the first app still uses.
      await other.app.close();
    }
  });
});


