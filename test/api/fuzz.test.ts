/** Property tests: whatever a client sends, the answer is never a 5xx and the server stays healthy. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";

let t: TestApp;
let wm3: string;
before(async () => {
  t = await testApp();
  wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
});
after(() => t.close());

const cell = fc.oneof(fc.string({ maxLength: 6 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom("?", "-", "NA", ""));
const key = fc.oneof(fc.string({ maxLength: 5 }), fc.constantFrom("色泽", "__proto__", "constructor", "a", "b"));
const anything = fc.anything({ maxDepth: 3, withNullPrototype: false });

test("random dataset bodies never produce a 5xx", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        fc.record({ name: fc.oneof(fc.string({ maxLength: 8 }), anything), rows: fc.oneof(fc.array(fc.dictionary(key, cell, { maxKeys: 4 }), { maxLength: 6 }), anything) }, { requiredKeys: [] }),
        anything,
      ),
      async (body) => {
        const res = await t.app.inject({ method: "POST", url: "/v1/datasets", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) ?? "null" });
        assert.ok(res.statusCode < 500, `${res.statusCode} ${res.body}`);
        assert.ok([201, 400, 413, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`);
      },
    ),
    { numRuns: 150, seed: 42 },
  );
});

test("random CSV bodies never produce a 5xx", async () => {
  const csvChar = fc.constantFrom("a", "1", ",", '"', "\n", "\r\n", " ", "-", "?", "色", ".", "e");
  await fc.assert(
    fc.asyncProperty(fc.array(csvChar, { maxLength: 60 }).map((cs) => cs.join("")), async (csv) => {
      const res = await t.app.inject({ method: "POST", url: "/v1/datasets?name=f", headers: { "content-type": "text/csv" }, payload: csv });
      assert.ok([201, 400, 413, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`);
    }),
    { numRuns: 200, seed: 7 },
  );
});

test("random train requests never produce a 5xx", async () => {
  const params = fc.dictionary(fc.constantFrom("max_depth", "min_samples_split", "min_samples_leaf", "criterion", "x"), anything, { maxKeys: 3 });
  const validation = fc.oneof(
    fc.record({ method: fc.constantFrom("holdout", "kfold", "bootstrap", "none", "loo"), test_size: fc.double(), k: fc.integer({ min: -3, max: 30 }), rounds: fc.integer({ min: -1, max: 3 }) }, { requiredKeys: ["method"] }),
    anything,
  );
  await fc.assert(
    fc.asyncProperty(
      fc.record(
        {
          dataset_id: fc.oneof(fc.constant(wm3), fc.string({ maxLength: 4 })),
          algorithm: fc.oneof(fc.constantFrom("cart", "baseline", "nope"), anything),
          target: fc.oneof(fc.constantFrom("好瓜", "密度", "色泽", "nope"), anything),
          features: fc.oneof(fc.array(fc.constantFrom("色泽", "密度", "好瓜", "x"), { maxLength: 3 }), anything),
          params,
          validation,
          seed: fc.oneof(fc.integer(), fc.double(), anything),
          preprocessing: fc.oneof(fc.array(fc.record({ step: fc.constantFrom("impute", "one_hot", "x"), numeric: anything }), { maxLength: 2 }), anything),
          positive_class: fc.oneof(fc.constantFrom("是", "否", "x"), anything),
        },
        { requiredKeys: [] },
      ),
      async (body) => {
        const res = await t.app.inject({ method: "POST", url: "/v1/models", headers: { "content-type": "application/json" }, payload: JSON.stringify(body) });
        assert.ok([202, 400, 404, 422].includes(res.statusCode), `${res.statusCode} ${res.body}`);
        if (res.statusCode === 202) await t.app.inject({ method: "POST", url: `/v1/models/${res.json().id}/cancel` });
      },
    ),
    { numRuns: 150, seed: 3 },
  );
  assert.equal((await t.app.inject({ url: "/health/ready" })).statusCode, 200);
});
