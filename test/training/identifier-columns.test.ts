/**
 * A categorical column flagged role_hint "identifier" (movies' Title) is left out of the
 * default features with a warning naming it, is used when named, and the warning
 * survives the stored spec (whose features are explicit) that the worker resolves again.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readCsv } from "../../src/data/read-csv.js";
import { summarizeColumn } from "../../src/data/summary.js";
import { resolveSpec, SpecError, storedSpecExtras } from "../../src/training/spec.js";
import { trainModel } from "../../src/training/train.js";
import { fixture } from "../data/helpers.js";

const movies = readCsv(fixture("movies.csv"));
const dataset = { row_count: movies.rowCount, columns: movies.columns.map(summarizeColumn) };
const request = { algorithm: "baseline", target: "Major Genre", seed: 1, validation: { method: "none" } };

test("default features leave Title out; the model's warnings name it", () => {
  const spec = resolveSpec(request, dataset);
  assert.equal(spec.features.includes("Title"), false);
  assert.equal(spec.features.length, movies.columns.length - 2);
  assert.deepEqual(spec.leftOutIdentifiers, ["Title"]);
  const { warnings } = trainModel(movies, spec, { progress: () => {} });
  assert.ok(
    warnings.some((w) => w.includes('"Title"') && w.includes("identifier")),
    JSON.stringify(warnings),
  );
});

test("the worker resolves the stored spec (explicit features) with the same warning", () => {
  const first = resolveSpec(request, dataset);
  const again = resolveSpec({ ...request, features: first.features, ...storedSpecExtras(first) }, dataset);
  assert.deepEqual(again.features, first.features);
  assert.deepEqual(again.leftOutIdentifiers, ["Title"]);
});

test("named in features, Title is used and nothing is said", () => {
  const spec = resolveSpec({ ...request, features: ["Title", "Director"] }, dataset);
  assert.deepEqual(spec.features, ["Title", "Director"]);
  assert.deepEqual(spec.leftOutIdentifiers, []);
  const { warnings, model } = trainModel(movies, spec, { progress: () => {} });
  assert.deepEqual(
    model.features.map((f) => f.name),
    ["Title", "Director"],
  );
  assert.equal(
    warnings.some((w) => w.includes("identifier")),
    false,
  );
});

test("a table of identifiers alone: no default features, and the error says why", () => {
  const ids = readCsv(`code,label\n${Array.from({ length: 30 }, (_, i) => `c${i},${i % 2 ? "a" : "b"}`).join("\n")}\n`);
  const columns = { row_count: ids.rowCount, columns: ids.columns.map(summarizeColumn) };
  assert.throws(
    () => resolveSpec({ algorithm: "baseline", target: "label" }, columns),
    (e: unknown) => e instanceof SpecError && e.code === "no_features" && e.message.includes('"code" looks like an identifier'),
  );
  assert.deepEqual(resolveSpec({ algorithm: "baseline", target: "label", features: ["code"] }, columns).features, ["code"]);
});
