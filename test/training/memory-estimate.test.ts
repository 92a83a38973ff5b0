/** The pre-queue memory estimate, on column metadata alone (no data, no app). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { polynomialTermCount, polynomialTerms } from "../../src/data/transforms/polynomial.js";
import { hasMemoryModel } from "../../src/models/memory-estimate.js";
import { listAlgorithms } from "../../src/models/registry.js";
import { DEFAULTS } from "../../src/server/config.js";
import { estimateJobMemory, MODELLED_STEPS } from "../../src/training/memory-estimate.js";
import { resolveSpec, SpecError, type DatasetColumns, type TrainRequest } from "../../src/training/spec.js";
import { listSteps } from "../../src/training/steps.js";

/** rows × numeric columns x0…, categorical columns c0… with the given level counts, and a target y (classes levels, or numeric when 0). */
function dataset(rows: number, numeric: number, levels: number[], classes: number): DatasetColumns {
  const names = (prefix: string, count: number) => Array.from({ length: count }, (_, k) => `${prefix}${k}`);
  return {
    row_count: rows,
    columns: [
      ...names("x", numeric).map((name) => ({ name, type: "numeric" as const })),
      ...levels.map((l, i) => ({ name: `c${i}`, type: "categorical" as const, levels: names("l", l) })),
      classes > 0 ? { name: "y", type: "categorical" as const, levels: names("k", classes) } : { name: "y", type: "numeric" as const },
    ],
  };
}

const MIB = 1024 * 1024;
const estimate = (request: Omit<TrainRequest, "target">, d: DatasetColumns) => estimateJobMemory(resolveSpec({ target: "y", ...request }, d), d);

function refusal(request: Omit<TrainRequest, "target">, d: DatasetColumns, budgetMb: number): SpecError {
  try {
    resolveSpec({ target: "y", ...request }, d, "train", { jobMemoryMb: budgetMb });
  } catch (e) {
    if (e instanceof SpecError) return e;
    throw e;
  }
  assert.fail("the request was not refused");
}

test("every registered algorithm family and every registered step has its own memory terms", () => {
  for (const a of listAlgorithms()) assert.ok(hasMemoryModel(a), `${a.name} (family ${a.family}) has no memory model in models/memory-estimate.ts`);
  for (const s of listSteps()) assert.ok(MODELLED_STEPS.includes(s.name), `step ${s.name} has no memory terms in training/memory-estimate.ts`);
});

test("the polynomial term count is the length of the term list, without building it", () => {
  for (let p = 0; p <= 7; p++) {
    for (let degree = 1; degree <= 5; degree++) {
      for (const interactionOnly of [false, true]) {
        for (const bias of [false, true]) assert.equal(polynomialTermCount(p, degree, interactionOnly, bias), polynomialTerms(p, degree, interactionOnly, bias).length, `p ${p} degree ${degree} ${interactionOnly} ${bias}`);
      }
    }
  }
  assert.equal(polynomialTermCount(9001, 2, false, false), 9001 + (9001 * 9002) / 2);
  assert.ok(polynomialTermCount(1e6, 10, false, true, 10_000) > 10_000, "stops past the cap with a count above it");
});

test("ordinary requests fit the default budget for every algorithm (50,000 rows × 30 columns; 2,000 rows × 1,000 columns, 10 classes)", () => {
  for (const [rows, columns, k] of [
    [50_000, 30, 5],
    [2000, 1000, 10],
  ]) {
    const classes = dataset(rows, columns, [], k);
    const values = dataset(rows, columns, [], 0);
    // Clustering, projection and anomaly algorithms train without a target: their terms are checked in test/models/cluster/memory.test.ts,
    // test/models/projection/memory.test.ts, test/models/neural/memory.test.ts and test/models/anomaly/memory.test.ts.
    for (const a of listAlgorithms().filter((x) => !x.tasks.includes("clustering") && !x.tasks.includes("projection") && !x.tasks.includes("anomaly"))) {
      // A method with a class limit (accepts.maxClasses: tsvm's 2) gets the most classes it takes.
      const most = a.accepts.maxClasses;
      const d = !a.tasks.includes("classification") ? values : most !== undefined && most < k ? dataset(rows, columns, [], most) : classes;
      const e = estimate({ algorithm: a.name }, d);
      assert.ok(e.bytes > 0 && e.bytes < DEFAULTS.jobMemoryMb * MIB, `${a.name} on ${rows} × ${columns}: ${Math.round(e.bytes / MIB)} MiB`);
    }
  }
});

test("the estimate grows with the parameter it names", () => {
  const d = dataset(3000, 4, [], 2);
  const cache = (mb: number) => estimate({ algorithm: "svm", params: { cache_size: mb } }, d).bytes;
  assert.ok(cache(10) < cache(50), "a larger cache costs more");
  assert.equal(cache(1000), cache(16_000), "beyond rows² kernel values the cache cannot grow");
  const layers = (units: number) => estimate({ algorithm: "mlp", params: { hidden_layer_sizes: [units, units] } }, d).bytes;
  assert.ok(layers(64) < layers(512));
  const classes = (k: number) => estimate({ algorithm: "svm", params: { multiclass: "ovo" } }, dataset(3000, 4, [], k)).bytes;
  assert.ok(classes(10) < classes(100));
});

test("one-hot of a 100,000-level column is refused at that feature, automatic or asked for", () => {
  const d = dataset(10_000, 4, [3, 100_000], 2);
  const automatic = refusal({ algorithm: "logistic_regression" }, d, DEFAULTS.jobMemoryMb);
  assert.equal(automatic.code, "memory_budget_exceeded");
  assert.equal(automatic.path, "features.5", "c1 is the sixth feature");
  const asked = refusal({ algorithm: "cart", preprocessing: [{ step: "one_hot", columns: ["c1"] }] }, d, DEFAULTS.jobMemoryMb);
  assert.equal(asked.path, "preprocessing[0].columns");
  // A tree takes the categorical column as it is: no indicator columns, no refusal.
  assert.doesNotThrow(() => resolveSpec({ target: "y", algorithm: "cart" }, d, "train", { jobMemoryMb: DEFAULTS.jobMemoryMb }));
});

test("a 16 × 4096 mlp and mds on a million rows are refused under the default budget", () => {
  const iris = dataset(150, 4, [], 3);
  assert.equal(refusal({ algorithm: "mlp", params: { hidden_layer_sizes: Array(16).fill(4096) } }, iris, DEFAULTS.jobMemoryMb).path, "params.hidden_layer_sizes");
  const many = dataset(1_000_000, 4, [], 2);
  assert.equal(refusal({ algorithm: "cart", preprocessing: [{ step: "mds", n_components: 1000, max_landmarks: 2000 }] }, many, DEFAULTS.jobMemoryMb).path, "preprocessing[0].n_components");
});

test("oversampling grows the rows the later steps and the algorithm see", () => {
  const d = dataset(20_000, 10, [], 10);
  const plain = estimate({ algorithm: "cart" }, d).bytes;
  const balanced = estimate({ algorithm: "cart", preprocessing: [{ step: "resample", method: "oversample" }] }, d).bytes;
  const under = estimate({ algorithm: "cart", preprocessing: [{ step: "resample", method: "undersample" }] }, d).bytes;
  assert.ok(balanced > 5 * plain, `${balanced} vs ${plain}`);
  assert.equal(under, plain);
});

test("a selection step's estimator counts, at preprocessing[i].estimator_params", () => {
  const d = dataset(20_000, 10, [], 2);
  const e = refusal({ algorithm: "cart", preprocessing: [{ step: "select", method: "rfe", estimator: "svm", estimator_params: { cache_size: 4000 } }] }, d, 1024);
  assert.equal(e.code, "memory_budget_exceeded");
  assert.equal(e.path, "preprocessing[0].estimator_params.cache_size");
});

test("id3 with incremental: true counts the training rows it keeps for partial_fit", () => {
  const d = dataset(100_000, 20, [], 3);
  const plain = estimate({ algorithm: "id3" }, d).bytes;
  const kept = estimate({ algorithm: "id3", params: { incremental: true } }, d).bytes;
  assert.ok(kept - plain >= 100_000 * 20 * 8, `${kept} − ${plain}`);
});

test("oblique_tree with perceptron leaves counts the leaf models, at params.leaf_model", () => {
  const d = dataset(100_000, 20, [], 3);
  const plain = estimate({ algorithm: "oblique_tree" }, d).bytes;
  const leaves = estimate({ algorithm: "oblique_tree", params: { leaf_model: "perceptron" } }, d).bytes;
  // At most one plane per class of a leaf over every feature, plus its cells: rows × (features + 1 + classes) values.
  assert.ok(leaves - plain >= 100_000 * (20 + 1 + 3) * 8, `${leaves} − ${plain}`);
  // With many classes the leaf models are the largest term, and the one a refusal names.
  assert.equal(refusal({ algorithm: "oblique_tree", params: { leaf_model: "perceptron" } }, dataset(100_000, 20, [], 500), 512).path, "params.leaf_model");
});
