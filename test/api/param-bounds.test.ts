/**
 * Through the HTTP API: for every algorithm and every step (from the registries),
 * one past each declared maximum is a synchronous 422 naming the field —
 * `invalid_params` at `params.<name>`, `invalid_step` at `preprocessing[0].<name>`.
 * And the requests the hostile-input probe found (mds.n_components 5e9 / 3e6,
 * polynomial on 9,001 columns) are 422s, never a 500.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp, uploadCsv, type TestApp } from "../helpers/app.js";
import { everySchema, numericFields, type NumericField } from "../helpers/schema-bounds.js";

let t: TestApp;
let iris: string;
before(async () => {
  t = await testApp();
  iris = (await uploadCsv(t.app, "iris", fixture("iris.csv"))).id;
});
after(() => t.close());

/**
 * A value one past the field's maximum under its top-level key, and the request path the refusal must name (record values are
 * skipped: no single key to name). A nested field (`init.rows`) is sent inside its object, with that object's tags (`kind`).
 */
function pastMaximum(field: NumericField): { key: string; value: unknown; path: string } | null {
  if (field.max === null || field.key.includes("{}")) return null;
  const items = field.key.endsWith("[]");
  const base = items ? field.key.slice(0, -2) : field.key;
  const leaf = field.kind === "length" ? Array.from({ length: field.max + 1 }, () => 1) : items ? [field.max + 1] : field.max + 1;
  const [key, ...inner] = base.split(".");
  const value = inner.reduceRight<unknown>((acc, k, i) => ({ ...(i === inner.length - 1 ? field.inner : {}), [k]: acc }), leaf);
  return { key, value, path: items ? `${base}.0` : base };
}

const post = (payload: object) => t.app.inject({ method: "POST", url: "/v1/models", payload });

for (const { owner, kind, name, schema } of everySchema()) {
  const bounded = numericFields(schema)
    .map((f) => ({ field: f, past: pastMaximum(f) }))
    .filter((x): x is { field: NumericField; past: NonNullable<ReturnType<typeof pastMaximum>> } => x.past !== null);
  if (bounded.length === 0) continue;
  test(`${owner}: one past each maximum is a 422 at the field (${bounded.map((b) => b.field.key).join(", ")})`, async () => {
    for (const { field, past } of bounded) {
      const res =
        kind === "algorithm"
          ? await post({ dataset_id: iris, algorithm: name, target: "target", params: { ...field.branch, [past.key]: past.value } })
          : await post({ dataset_id: iris, algorithm: "cart", target: "target", preprocessing: [{ step: name, ...field.branch, [past.key]: past.value }] });
      assert.equal(res.statusCode, 422, `${owner} ${field.key} = ${JSON.stringify(past.value)}: ${res.statusCode} ${res.body}`);
      const body = res.json();
      assert.equal(body.code, kind === "algorithm" ? "invalid_params" : "invalid_step", `${owner} ${field.key}: ${res.body}`);
      const expected = kind === "algorithm" ? `params.${past.path}` : `preprocessing[0].${past.path}`;
      assert.equal(body.errors?.[0]?.path, expected, `${owner} ${field.key}: ${res.body}`);
    }
  });
}

test("mds n_components of 5e9 and 3e6 are 422 at the field, not a 500 or a long block", async () => {
  for (const n of [5e9, 3e6, 1e9]) {
    const res = await post({ dataset_id: iris, algorithm: "cart", target: "target", preprocessing: [{ step: "mds", n_components: n }] });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "invalid_step");
    assert.equal(res.json().errors[0].path, "preprocessing[0].n_components");
  }
  // Within the schema's maximum but not below max_landmarks: refused before any output column is named.
  const res = await post({ dataset_id: iris, algorithm: "cart", target: "target", preprocessing: [{ step: "mds", n_components: 1500, max_landmarks: 1000 }] });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().errors[0].path, "preprocessing[0].n_components");
});

test("lda_projection n_components above the columns is 422 before any output column is named", async () => {
  const res = await post({ dataset_id: iris, algorithm: "cart", target: "target", preprocessing: [{ step: "lda_projection", n_components: 90_000 }] });
  assert.equal(res.statusCode, 422, res.body);
  assert.equal(res.json().errors[0].path, "preprocessing[0].n_components");
});

test("polynomial degree 2 on a 9,001-column table is a 422 at degree (counted, not built)", async () => {
  const columns = Array.from({ length: 9001 }, (_, j) => `x${j}`);
  const rows = [0, 1, 2].map((i) => [...columns.map((_, j) => (i * 31 + j) % 7), i % 2 ? "a" : "b"].join(","));
  const wide = (await uploadCsv(t.app, "wide", `${[...columns, "y"].join(",")}\n${rows.join("\n")}\n`)).id;
  for (const step of [{ step: "polynomial", degree: 2 }, { step: "polynomial", degree: 10, interaction_only: true }]) {
    const res = await post({ dataset_id: wide, algorithm: "cart", target: "y", preprocessing: [step] });
    assert.equal(res.statusCode, 422, res.body);
    assert.equal(res.json().code, "invalid_step");
    assert.equal(res.json().errors[0].path, "preprocessing[0].degree");
  }
});
