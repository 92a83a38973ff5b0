/**
 * Before a job is queued, its peak memory is estimated from the params and the
 * dataset's shape; past XIGUA_JOB_MEMORY_MB the request is a synchronous 422
 * `memory_budget_exceeded` naming the parameter to change. The same requests
 * under a larger budget pass the check (202; the jobs are cancelled at once).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let small: TestApp;
let large: TestApp;
const ids = new Map<FastifyInstance, Record<string, string>>();

/** n rows of p numeric columns `x0…`, a two-class target `y` and a `classes`-class target `k`. */
function table(n: number, p: number, classes: number): string {
  const header = [...Array.from({ length: p }, (_, j) => `x${j}`), "y", "k"].join(",");
  const lines = Array.from({ length: n }, (_, i) => [...Array.from({ length: p }, (_, j) => ((i * 7919 + j * 104729) % 1000) / 10), i % 2 ? "a" : "b", `c${i % classes}`].join(","));
  return `${header}\n${lines.join("\n")}\n`;
}

async function datasets(app: FastifyInstance): Promise<Record<string, string>> {
  return {
    iris: (await uploadCsv(app, "iris", fixture("iris.csv"))).id,
    rows8k: (await uploadCsv(app, "rows8k", table(8000, 3, 100))).id,
    wide: (await uploadCsv(app, "wide", table(1000, 100, 2))).id,
  };
}

before(async () => {
  small = await testApp({ jobMemoryMb: 64 });
  large = await testApp({ jobMemoryMb: 1_000_000 });
  ids.set(small.app, await datasets(small.app));
  ids.set(large.app, await datasets(large.app));
});
after(async () => {
  await small.close();
  await large.close();
});

interface Case {
  name: string;
  body: (d: Record<string, string>) => Record<string, unknown>;
  path: string;
}

const CASES: Case[] = [
  // Float32 kernel rows (as libsvm's): 6,000 training rows (8,000 less the holdout) need 4 · 6,000² bytes ≈ 137 MiB of cache.
  { name: "svm cache_size on 8,000 rows", body: (d) => ({ dataset_id: d.rows8k, algorithm: "svm", target: "y", features: ["x0", "x1", "x2"], params: { cache_size: 1000 } }), path: "params.cache_size" },
  {
    name: "mds on 8,000 rows",
    body: (d) => ({ dataset_id: d.rows8k, algorithm: "cart", target: "y", features: ["x0", "x1", "x2"], preprocessing: [{ step: "mds", n_components: 300, max_landmarks: 400 }] }),
    path: "preprocessing[0].n_components",
  },
  { name: "polynomial on 100 columns", body: (d) => ({ dataset_id: d.wide, algorithm: "cart", target: "y", features: Array.from({ length: 100 }, (_, j) => `x${j}`), preprocessing: [{ step: "polynomial", degree: 2 }] }), path: "preprocessing[0].degree" },
  { name: "one-vs-one over 100 classes", body: (d) => ({ dataset_id: d.rows8k, algorithm: "svm", target: "k", features: ["x0", "x1", "x2"], params: { multiclass: "ovo" } }), path: "params.multiclass" },
  { name: "random ECOC over 100 classes", body: (d) => ({ dataset_id: d.rows8k, algorithm: "svm", target: "k", features: ["x0", "x1", "x2"], params: { multiclass: "ecoc", code_size: 20 } }), path: "params.code_size" },
  { name: "mlp with three 1,024-unit layers", body: (d) => ({ dataset_id: d.iris, algorithm: "mlp", target: "target", params: { hidden_layer_sizes: [1024, 1024, 1024] } }), path: "params.hidden_layer_sizes" },
];

for (const c of CASES) {
  test(`${c.name}: 422 memory_budget_exceeded at ${c.path} under 64 MiB; accepted under a larger budget`, async () => {
    const refused = await small.app.inject({ method: "POST", url: "/v1/models", payload: c.body(ids.get(small.app)!) });
    assert.equal(refused.statusCode, 422, refused.body);
    const problem = refused.json();
    assert.equal(problem.code, "memory_budget_exceeded", refused.body);
    assert.equal(problem.errors[0].path, c.path, refused.body);
    assert.match(problem.detail, /\d[\d,]* MiB, over the 64 MiB/);

    const accepted = await large.app.inject({ method: "POST", url: "/v1/models", payload: c.body(ids.get(large.app)!) });
    assert.equal(accepted.statusCode, 202, accepted.body);
    await large.app.inject({ method: "POST", url: `/v1/models/${accepted.json().id}/cancel` });
  });
}

test("the check also guards evaluations and every search candidate", async () => {
  const d = ids.get(small.app)!;
  const evaluation = await small.app.inject({ method: "POST", url: "/v1/evaluations", payload: { dataset_id: d.rows8k, algorithm: "svm", target: "y", features: ["x0", "x1", "x2"], params: { cache_size: 1000 } } });
  assert.equal(evaluation.statusCode, 422, evaluation.body);
  assert.equal(evaluation.json().code, "memory_budget_exceeded");
  assert.equal(evaluation.json().errors[0].path, "params.cache_size");

  const search = await small.app.inject({
    method: "POST",
    url: "/v1/searches",
    payload: { dataset_id: d.iris, algorithm: "mlp", target: "target", param_grid: { hidden_layer_sizes: [[8], [1024, 1024, 1024]] } },
  });
  assert.equal(search.statusCode, 422, search.body);
  assert.equal(search.json().code, "memory_budget_exceeded");
  assert.equal(search.json().errors[0].path, "param_grid.hidden_layer_sizes");
  assert.equal((await small.app.inject({ url: "/v1/searches" })).json().items.length, 0, "nothing was queued");
});

/** Trains `algorithm` on `datasetId`'s target y (no hold-out) and waits for it. */
async function trained(app: FastifyInstance, datasetId: string, algorithm: string, params: Record<string, unknown> = {}): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: datasetId, algorithm, target: "y", params, validation: { method: "none" } } });
  assert.equal(res.statusCode, 202, res.body);
  const model = (await waitFor(app, `/v1/models/${res.json().id}`)) as { id: string; status: string };
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  return model.id;
}

test("partial-fit is checked too: an incremental id3 updated over 40,000 × 20 rows is 422 at dataset_id; a naive_bayes update of the same rows passes", async () => {
  // The tree's estimate is ≈ 1.9 KB a row at 20 features (sorted columns, nodes, the rows it keeps): ≈ 75 MiB for 40,000 rows.
  const seedRows = (await uploadCsv(small.app, "seed20", table(200, 20, 2))).id;
  const many = (await uploadCsv(small.app, "many20", table(40_000, 20, 2))).id;
  const tree = await trained(small.app, seedRows, "id3", { incremental: true });
  const refused = await small.app.inject({ method: "POST", url: `/v1/models/${tree}/partial-fit`, payload: { dataset_id: many } });
  assert.equal(refused.statusCode, 422, refused.body);
  assert.equal(refused.json().code, "memory_budget_exceeded", refused.body);
  assert.equal(refused.json().errors[0].path, "dataset_id");
  assert.match(refused.json().detail, /over the 64 MiB .*the model keeps 200 training rows/);
  // The same 200 seed rows as an update fit easily: the check is about the size, not the algorithm.
  assert.equal((await small.app.inject({ method: "POST", url: `/v1/models/${tree}/partial-fit`, payload: { dataset_id: seedRows } })).statusCode, 201);

  const bayes = await trained(small.app, seedRows, "naive_bayes");
  const accepted = await small.app.inject({ method: "POST", url: `/v1/models/${bayes}/partial-fit`, payload: { dataset_id: many } });
  assert.equal(accepted.statusCode, 201, accepted.body);
  assert.equal(accepted.json().partial_fit_rows, 40_000);
});
