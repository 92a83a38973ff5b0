/** GET /v1/models/{id}/explain?max_values bounds the coefficients an SVR lists (the model-level bounds are in test/models/explain-bounds.test.ts). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { EXPLAIN_DEFAULT_MAX_VALUES, EXPLAIN_MAX_VALUES } from "../../src/models/explain-bounds.js";
import { testApp, uploadCsv, waitFor } from "../helpers/app.js";

test("explain lists at most max_values dual coefficients (default 1000); out-of-range values are 400", async () => {
  const t = await testApp({ workers: 1 });
  try {
    const lines = Array.from({ length: 1200 }, (_, i) => `${Math.sin(i * 12.9898) * 3},${Math.cos(i * 78.233) * 3},${(Math.sin(i * 37.719) * 43758.5453) % 1}`);
    const ds = (await uploadCsv(t.app, "noise", `a,b,y\n${lines.join("\n")}\n`)).id;
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: ds, algorithm: "svr", target: "y", params: { epsilon: 0.0001 }, validation: { method: "none" } } });
    assert.equal(res.statusCode, 202, res.body);
    const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
    assert.equal(model.status, "succeeded", JSON.stringify(model.error));
    const url = `/v1/models/${model.id}/explain`;
    const all = (await t.app.inject({ url })).json();
    assert.ok(all.n_support > EXPLAIN_DEFAULT_MAX_VALUES, `${all.n_support} support vectors`);
    assert.deepEqual([all.dual_coef.length, all.dual_coef_truncated], [EXPLAIN_DEFAULT_MAX_VALUES, true]);
    const few = (await t.app.inject({ url: `${url}?max_values=5` })).json();
    assert.deepEqual([few.dual_coef.length, few.dual_coef_truncated, few.n_support], [5, true, all.n_support]);
    assert.deepEqual(few.dual_coef, all.dual_coef.slice(0, 5));
    for (const bad of [0, EXPLAIN_MAX_VALUES + 1]) {
      const r = await t.app.inject({ url: `${url}?max_values=${bad}` });
      assert.equal(r.statusCode, 400, r.body);
      assert.equal(r.json().errors[0].path, "query.max_values");
    }
  } finally {
    await t.close();
  }
});
