/**
 * Every algorithm of GET /v1/algorithms and every step of GET /v1/steps, fed
 * each parameter's boundary and hostile values (derived from the published
 * JSON Schema, never a hand-picked list), then random parameter sets, then
 * random search grids over those values. Invariant (test/helpers/fuzz-harness.ts):
 * no 5xx, errors are catalogue problems, /health/ready answers within a second.
 */
import { after, before, test } from "node:test";
import fc from "fast-check";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";
import { FuzzHarness } from "../helpers/fuzz-harness.js";
import { arbitraryFor, boundaryValues, type JsonSchema } from "../helpers/schema-values.js";

interface AlgorithmInfo {
  name: string;
  tasks: string[];
  params_schema: JsonSchema;
}
interface StepInfo {
  name: string;
  options_schema: JsonSchema;
}

let t: TestApp;
let fuzz: FuzzHarness;
let dataset: string;
let algorithms: AlgorithmInfo[];
let steps: StepInfo[];
before(async () => {
  // One worker, a 17-row dataset: accepted requests queue real jobs, which the harness cancels at once.
  t = await testApp({ workers: 1 });
  fuzz = new FuzzHarness(t.app);
  dataset = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  algorithms = (await t.app.inject({ url: "/v1/algorithms" })).json().items;
  steps = (await t.app.inject({ url: "/v1/steps" })).json().items;
});
after(async () => {
  for (const line of fuzz.report()) console.log(`# ${line}`);
  await t.close();
});

/** A supervised request the algorithm can take: watermelon's class, or its sugar content as a number. */
function trainBody(algorithm: AlgorithmInfo, extra: object): object {
  const target = algorithm.tasks.includes("classification") ? "好瓜" : algorithm.tasks.includes("regression") ? "含糖率" : null;
  return { dataset_id: dataset, algorithm: algorithm.name, ...(target ? { target } : {}), validation: { method: "none" }, seed: 1, ...extra };
}

test("every algorithm: each parameter at each boundary and hostile value", async () => {
  let field = 0;
  for (const algorithm of algorithms) {
    for (const [name, schema] of Object.entries(algorithm.params_schema.properties ?? {})) {
      for (const value of boundaryValues(schema, { wrongTypes: 2, offset: 2 * field++ })) {
        await fuzz.send({ method: "POST", url: "/v1/models", body: trainBody(algorithm, { params: { [name]: value } }) }, "/v1/models");
      }
    }
  }
});

test("every step: each option at each boundary and hostile value", async () => {
  const baseline = algorithms.find((a) => a.name === "baseline") ?? algorithms[0];
  let field = 0;
  for (const step of steps) {
    for (const [name, schema] of Object.entries(step.options_schema.properties ?? {})) {
      for (const value of boundaryValues(schema, { wrongTypes: 2, offset: 2 * field++ })) {
        await fuzz.send({ method: "POST", url: "/v1/models", body: trainBody(baseline, { preprocessing: [{ step: step.name, [name]: value }] }) }, "/v1/models");
      }
    }
  }
});

test("every algorithm: random parameter sets, with random steps before it", async () => {
  const algorithm = fc.constantFrom(...algorithms);
  const step = fc.constantFrom(...steps).chain((s) => arbitraryFor(s.options_schema).map((options) => ({ step: s.name, ...(typeof options === "object" && options && !Array.isArray(options) ? options : {}) })));
  await fc.assert(
    fc.asyncProperty(
      algorithm.chain((a) => fc.tuple(fc.constant(a), arbitraryFor(a.params_schema), fc.array(step, { maxLength: 2 }))),
      async ([a, params, preprocessing]) => {
        await fuzz.send({ method: "POST", url: "/v1/models", body: trainBody(a, { params, preprocessing }) }, "/v1/models");
      },
    ),
    { numRuns: 250, seed: 10 },
  );
});

test("every algorithm: search grids and distributions over boundary values", async () => {
  const grid = fc.constantFrom(...algorithms.filter((a) => Object.keys(a.params_schema.properties ?? {}).length > 0)).chain((a) => {
    const fields = Object.entries(a.params_schema.properties ?? {});
    const list = fc.constantFrom(...fields).chain(([name, schema]) => fc.tuple(fc.constant(name), fc.subarray(boundaryValues(schema, { wrongTypes: 4 }), { minLength: 1, maxLength: 3 })));
    return fc.tuple(fc.constant(a), fc.array(list, { minLength: 1, maxLength: 2 }), fc.constantFrom("grid", "random"));
  });
  await fc.assert(
    fc.asyncProperty(grid, async ([a, lists, method]) => {
      const space = Object.fromEntries(lists);
      const search = method === "grid" ? { method, param_grid: space } : { method, param_distributions: space, n_iter: 3 };
      const body = { ...trainBody(a, search), validation: { method: "kfold", k: 2 } };
      await fuzz.send({ method: "POST", url: "/v1/searches", body }, "/v1/searches");
    }),
    { numRuns: 120, seed: 11 },
  );
});
