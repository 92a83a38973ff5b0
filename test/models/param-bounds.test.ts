/**
 * Every numeric field of every algorithm's params and every step's options (from
 * the registries, as GET /v1/algorithms and GET /v1/steps publish them) has a
 * maximum, unless it is listed below as unbounded by nature, with the reason.
 * A new size or count parameter without `.max()` fails here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { everySchema, numericFields } from "../helpers/schema-bounds.js";

/** Fields whose value sizes nothing: any finite value costs the same memory and no more iterations than the bounded fields allow. */
const UNBOUNDED_BY_NATURE: Readonly<Record<string, string>> = {
  tol: "a stopping tolerance: it decides when an iteration stops, within max_iter",
  alpha: "a penalty strength: continuous, sizes nothing",
  C: "a penalty strength (inverse): continuous, sizes nothing",
  epsilon: "svr's tube half-width or an optimiser's denominator guard: a value, not a size",
  coef0: "the poly / sigmoid kernel's offset: a value, not a size",
  "gamma.value": "a kernel width: a value, not a size",
  learning_rate_init: "a step size: a value, not a size",
  power_t: "the invscaling schedule's exponent: a value, not a size",
  eta0: "the perceptron's step size: a value, not a size",
  "class_weight{}": "a per-class weight: a value, not a size",
  "priors{}": "a per-class prior: a value, not a size",
  "thresholds{}": "binarize's per-column threshold: a value, not a size",
  threshold: "a cut on a value or a score: sizes nothing",
  eps: "dbscan's neighbourhood radius: a value, not a size (neighbourhoods are queried, never stored)",
  reg_covar: "gmm's covariance regularisation: a value added to a diagonal, not a size",
  "init.variance": "gmm's initial covariance scale (v·I): a value, not a size",
  C_u_initial: "tsvm's first penalty of the unlabelled rows: a value; the rounds it costs are log₂(C / C_u_initial), bounded by its minimum 1e-9 and C's maximum",
  max_eps: "optics's neighbourhood radius limit: a value, not a size (a larger one only lets a query find more rows, at most all of them, which the rows bound)",
  "cluster_method.eps": "optics's dbscan-style cut of the reachability distances: a value, not a size",
  "cut.distance_threshold": "agnes's dendrogram cut height: a value, not a size (the clusters it gives never exceed the rows)",
  numeric_fill_value: "the value imputed into missing cells",
  min_impurity_decrease: "a stopping threshold: larger values only stop growth sooner",
  ccp_alpha: "a pruning threshold: larger values only prune more",
  min_samples_split: "a stopping threshold: larger values only stop growth sooner",
  min_samples_leaf: "a stopping threshold: larger values only stop growth sooner",
  batch_size: "rows per update, capped at the training rows when used: it cannot size anything beyond the data",
  n_iter_no_change: "patience: only ends training sooner; epochs stay within max_iter",
};

test("every numeric field of every algorithm and step has a maximum, or a reason why not", () => {
  const missing: string[] = [];
  let checked = 0;
  for (const { owner, schema } of everySchema()) {
    for (const field of numericFields(schema)) {
      checked++;
      if (field.max === null && !Object.hasOwn(UNBOUNDED_BY_NATURE, field.key)) missing.push(`${owner}: ${field.key} (${field.kind})`);
    }
  }
  assert.ok(checked > 50, `only ${checked} numeric fields found: the schema walk is broken`);
  assert.deepEqual(missing, [], `fields without a maximum:\n${missing.join("\n")}`);
});

test("the allow-list names only fields some schema has", () => {
  const keys = new Set<string>();
  for (const { schema } of everySchema()) for (const field of numericFields(schema)) keys.add(field.key);
  const stale = Object.keys(UNBOUNDED_BY_NATURE).filter((key) => !keys.has(key));
  assert.deepEqual(stale, [], "allow-list entries that match no field");
});

test("the schema walk sees bounds where they are declared (svm cache_size, mlp hidden_layer_sizes, mds n_components)", () => {
  const fields = new Map(everySchema().map(({ owner, schema }) => [owner, new Map(numericFields(schema).map((f) => [`${f.key}:${f.kind}`, f]))]));
  assert.equal(fields.get("algorithm svm")?.get("cache_size:number")?.max, 16_384);
  assert.ok(typeof fields.get("algorithm mlp")?.get("hidden_layer_sizes:length")?.max === "number", "layers counted as a length");
  assert.ok(typeof fields.get("algorithm mlp")?.get("hidden_layer_sizes[]:integer")?.max === "number", "units per layer seen inside the array");
  assert.equal(fields.get("step mds")?.get("n_components:integer")?.max, 1999);
  assert.equal(fields.get("algorithm cart")?.get("max_depth:integer")?.max, 1000);
  assert.equal(fields.get("algorithm cart")?.get("min_samples_leaf:integer")?.max, null);
});
