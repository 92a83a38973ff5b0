/**
 * Every algorithm of GET /v1/algorithms trained on small tables of hostile
 * numbers (near the double range, near zero, constant), then predicted with
 * extreme rows, explained, exported and imported again. A fit whose state is
 * not finite must fail as a 4xx-class job, a prediction that overflows must not
 * be a 500 (issue 10 item 18). Invariant (test/helpers/fuzz-harness.ts): no 5xx,
 * errors are catalogue problems, /health/ready answers within a second.
 */
import { after, before, test } from "node:test";
import fc from "fast-check";
import { testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";
import { FuzzHarness } from "../helpers/fuzz-harness.js";

let t: TestApp;
let fuzz: FuzzHarness;
let algorithms: { name: string; tasks: string[] }[];

/** Tables of 12 rows: two numeric features, one categorical, a numeric and a class target. */
const TABLES: Record<string, { rows: number; values: (i: number) => [number, number]; validation: object }> = {
  huge: { rows: 12, values: (i) => [(i % 2 ? 1 : -1) * 1e307 * (1 + i / 10), 1e307 * ((i * 7) % 5)], validation: { method: "none" } },
  tiny: { rows: 12, values: (i) => [1e-300 * (i + 1), -1e-310 * i], validation: { method: "none" } },
  constant: { rows: 12, values: () => [3, 3], validation: { method: "none" } },
  spread: { rows: 12, values: (i) => [i % 3 === 0 ? 1e300 : -i, i % 4 === 0 ? -1e-300 : 1e15], validation: { method: "none" } },
  // Folds of two training rows, sometimes of one class only.
  three_rows: { rows: 3, values: (i) => [i, 2 * i], validation: { method: "kfold", k: 3, stratify: false } },
};
const datasets: Record<string, string> = {};

before(async () => {
  t = await testApp({ workers: 1 });
  fuzz = new FuzzHarness(t.app);
  algorithms = (await t.app.inject({ url: "/v1/algorithms" })).json().items;
  for (const [name, table] of Object.entries(TABLES)) {
    const lines = Array.from({ length: table.rows }, (_, i) => {
      const [a, b] = table.values(i);
      return `${a},${b},${i % 3 === 0 ? "p" : "q"},${a / 2 + b / 4},${i % 2 ? "yes" : "no"}`;
    });
    datasets[name] = (await uploadCsv(t.app, name, `x1,x2,c,y,k\n${lines.join("\n")}\n`)).id;
  }
});
after(async () => {
  for (const line of fuzz.report()) console.log(`# ${line}`);
  await t.close();
});

const extreme = fc.constantFrom(1e308, -1e308, 1e300, 5e-324, 0, -1, null, "p", "zzz");

test("every algorithm on hostile numbers: train, predict extreme rows, explain, export, import", async () => {
  for (const algorithm of algorithms) {
    const target = algorithm.tasks.includes("classification") ? "k" : algorithm.tasks.includes("regression") ? "y" : null;
    for (const [table, dataset] of Object.entries(datasets)) {
      const tags = [`table:${table}`, `algorithm:${algorithm.name}`];
      const body = { dataset_id: dataset, algorithm: algorithm.name, ...(target ? { target, features: ["x1", "x2", "c"] } : {}), validation: TABLES[table].validation, seed: 1 };
      const created = await fuzz.send({ method: "POST", url: "/v1/models", body, tags, keepJob: true }, "/v1/models");
      if (created?.statusCode !== 202) continue;
      const id = created.json().id as string;
      const model = await waitFor(t.app, `/v1/models/${id}`, 30_000);
      const error = model.error as { status?: number; code?: string } | undefined;
      await fuzz.checkJob(`${algorithm.name} on ${table}`, model.status as string, error, tags);
      if (model.status !== "succeeded") continue;
      const rows = fc.sample(fc.array(fc.record({ x1: extreme, x2: extreme, c: extreme }, { requiredKeys: [] }), { minLength: 1, maxLength: 3 }), { numRuns: 3, seed: 30 });
      for (const r of rows) await fuzz.send({ method: "POST", url: `/v1/models/${id}/predict`, body: { rows: r, probabilities: target === "k" }, tags }, "/v1/models/{id}/predict");
      await fuzz.send({ method: "GET", url: `/v1/models/${id}/explain`, tags }, "/v1/models/{id}/explain");
      const exported = await fuzz.send({ method: "GET", url: `/v1/models/${id}/artifact`, tags }, "/v1/models/{id}/artifact");
      if (exported?.statusCode === 200) await fuzz.send({ method: "POST", url: "/v1/models/import", body: exported.json(), tags }, "/v1/models/import");
    }
  }
});
