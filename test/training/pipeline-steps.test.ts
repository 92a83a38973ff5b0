/** The preprocessing steps inside the pipeline: option checks, error paths, resampling, artifacts, descriptions. */
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { DataError } from "../../src/data/errors.js";
import { makeFrame, type Frame } from "../../src/data/frame.js";
import { createRng } from "../../src/data/random.js";
import { readCsv } from "../../src/data/read-csv.js";
import type { Algorithm, Target, TrainingSet } from "../../src/models/contract.js";
import { getAlgorithm } from "../../src/models/registry.js";
import { loadArtifact, serializeArtifact } from "../../src/training/artifact.js";
import { applySteps, describePipeline, fitPipeline, planSteps, predictPipeline, resolveSteps, StepSpecError } from "../../src/training/pipeline.js";
import { listSteps } from "../../src/training/steps.js";
import { fixture } from "../data/helpers.js";
import { assertSameFrame } from "../data/transforms/sklearn.js";

function learning(frame: Frame, target: string): TrainingSet {
  const t = frame.columns.find((c) => c.name === target)!;
  if (t.type !== "categorical") throw new Error("classes expected");
  return { X: makeFrame(frame.columns.filter((c) => c.name !== target && c.name !== "编号")), target: { task: "classification", y: t.codes, classes: t.levels } };
}

const melons = learning(readCsv(fixture("watermelon-3.0.csv")), "好瓜");
const cart = getAlgorithm("cart")!;
const ctx = (seed = 0) => ({ rng: createRng(seed), progress: () => {} });

function fitError(steps: unknown[], train: TrainingSet = melons): DataError {
  try {
    fitPipeline(cart, cart.params.parse({}), resolveSteps(steps as never), train, ctx());
  } catch (e) {
    assert.ok(e instanceof DataError, String(e));
    return e;
  }
  assert.fail("expected a DataError");
}

function specError(fn: () => unknown): StepSpecError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StepSpecError, String(e));
    return e;
  }
  assert.fail("expected a StepSpecError");
}

describe("the step catalogue", () => {
  test("every step issue 5 names is registered, described, has all-default options, and a JSON Schema for the OpenAPI document", () => {
    const steps = listSteps();
    assert.deepEqual(
      steps.map((s) => s.name),
      ["binarize", "impute", "lda_projection", "lmnn", "mds", "nca", "one_hot", "ordinal", "pca", "polynomial", "rbm", "resample", "scale", "select", "target_encode", "transform"],
    );
    for (const s of steps) {
      assert.ok(s.description.length > 20, s.name);
      assert.ok(s.spec.safeParse({}).success, `${s.name} parses {}`);
      assert.equal(s.spec.safeParse({ no_such_option: 1 }).success, false, `${s.name} is strict`);
      const schema = z.toJSONSchema(s.spec, { io: "input" }) as { type: string; additionalProperties: boolean };
      assert.equal(schema.type, "object");
      assert.equal(schema.additionalProperties, false);
    }
  });
});

describe("step options are checked before a job is queued", () => {
  test("resolveSteps: unknown step, bad option, option check against the registry — each at preprocessing[i].<field>", () => {
    assert.equal(specError(() => resolveSteps([{ step: "standardise" }])).path, "preprocessing[0].step");
    assert.equal(specError(() => resolveSteps([{ step: "scale" }, { step: "select", method: "pearson" }])).path, "preprocessing[1].k");
    assert.equal(specError(() => resolveSteps([{ step: "pca", n_components: 2, explained_variance: 0.9 }])).path, "preprocessing[0].explained_variance");
    assert.equal(specError(() => resolveSteps([{ step: "select", method: "rfe", estimator: "oracle" }])).path, "preprocessing[0].estimator");
  });

  const columns = melons.X.columns.map((c) => ({ name: c.name, type: c.type, ...(c.type === "categorical" ? { levels: c.levels } : { min: 0.042 }) }));
  const target = { type: "categorical" as const, levels: ["否", "是"] };

  test("planSteps over the dataset's columns: a categorical column given to scale, a column consumed earlier, box_cox on non-positive values, k above the feature count, n_components above K − 1", () => {
    const plan = (steps: unknown[], cols = columns) => planSteps(resolveSteps(steps as never), cols, target);
    assert.equal(specError(() => plan([{ step: "scale", columns: ["密度", "色泽"] }])).path, "preprocessing[0].columns[1]");
    assert.equal(specError(() => plan([{ step: "one_hot" }, { step: "scale", columns: ["色泽"] }])).path, "preprocessing[1].columns[0]");
    const withZero = columns.map((c) => (c.name === "含糖率" ? { ...c, min: 0 } : c));
    assert.equal(specError(() => plan([{ step: "transform", method: "box_cox" }], withZero)).path, "preprocessing[0].method");
    assert.equal(specError(() => plan([{ step: "select", method: "chi2", k: 9 }])).path, "preprocessing[0].k");
    assert.equal(specError(() => plan([{ step: "one_hot" }, { step: "lda_projection", n_components: 2 }])).path, "preprocessing[1].n_components");
    assert.equal(specError(() => plan([{ step: "select", method: "pearson", k: 1 }])).path, "preprocessing[0].method");
    const planned = plan([{ step: "one_hot" }, { step: "scale" }, { step: "pca", n_components: 3 }]);
    assert.deepEqual(
      planned?.map((c) => c.name),
      ["pc1", "pc2", "pc3"],
    );
    assert.equal(plan([{ step: "select", method: "chi2", k: 2 }, { step: "scale", columns: ["nothing"] }]), null, "after select the columns depend on the data");
  });
});

describe("fit-time DataErrors carry the step's place", () => {
  test("a categorical column given to scale, box_cox on non-positive values, k above the features, pca on gaps", () => {
    assert.equal(fitError([{ step: "impute" }, { step: "scale", columns: ["色泽"] }]).path, "preprocessing[1].columns[0]");
    const zero = learning(readCsv("x,y,c\n0,1,a\n2,3,b\n3,1,a\n"), "c");
    assert.equal(fitError([{ step: "transform", method: "box_cox" }], zero).path, "preprocessing[0].method");
    assert.equal(fitError([{ step: "select", method: "chi2", k: 9 }]).path, "preprocessing[0].k");
    const gaps = learning(readCsv("x,y,c\n1,-,a\n2,3,b\n3,1,a\n"), "c");
    const e = fitError([{ step: "scale" }, { step: "pca" }], gaps);
    assert.equal(e.path, "preprocessing[1].columns");
    assert.match(e.message, /impute/);
  });
});

/** Records what reaches the learner. */
function spy(): { algorithm: Algorithm; seen: { rows: number; weights?: Float64Array; y: Int32Array }[] } {
  const seen: { rows: number; weights?: Float64Array; y: Int32Array }[] = [];
  const algorithm: Algorithm = {
    name: "spy",
    family: "test",
    tasks: ["classification"],
    description: "records its training rows",
    params: z.object({}).strict(),
    state: z.object({}),
    accepts: { categorical: true, missing: true, weights: true },
    scaleSensitive: false,
    fit(train) {
      seen.push({ rows: train.X.rowCount, weights: train.weights, y: (train.target as Extract<Target, { task: "classification" }>).y });
      return {};
    },
    predict: (_state, X) => ({ task: "classification", labels: new Int32Array(X.rowCount) }),
  };
  return { algorithm, seen };
}

describe("resample changes the training rows only", () => {
  test("the learner sees the balanced rows (weights follow their rows); prediction runs on every raw row", () => {
    const { algorithm, seen } = spy();
    const counts = melons.target!.task === "classification" ? [0, 1].map((c) => (melons.target as { y: Int32Array }).y.filter((v) => v === c).length) : [];
    assert.deepEqual(counts, [9, 8]);
    const weights = Float64Array.from({ length: 17 }, (_, i) => i + 1);
    const pipeline = fitPipeline(algorithm, {}, resolveSteps([{ step: "resample", method: "smote", k_neighbors: 3 }]), { ...melons, weights }, ctx(1));
    assert.equal(seen[0].rows, 18);
    assert.deepEqual([0, 1].map((c) => seen[0].y.filter((v) => v === c).length), [9, 9]);
    assert.equal(seen[0].weights?.length, 18);
    assert.deepEqual([...seen[0].weights!.subarray(0, 17)], [...weights]);
    const prediction = predictPipeline(algorithm, pipeline, melons.X);
    assert.equal(prediction.task === "classification" && prediction.labels.length, 17);
    assert.equal(applySteps(pipeline.steps, melons.X), melons.X, "apply is the identity");
    assert.deepEqual(describePipeline(pipeline)[0].fitted, { method: "smote", class_counts_before: { 否: 9, 是: 8 }, class_counts_after: { 否: 9, 是: 9 } });
  });
});

describe("save → load → identical transforms and predictions", () => {
  const pipelines: [string, unknown[]][] = [
    ["encoders and scalers", [{ step: "impute", add_indicator: true }, { step: "ordinal", categories: { 色泽: ["浅白", "青绿", "乌黑"] } }, { step: "one_hot" }, { step: "scale", method: "robust" }, { step: "binarize", thresholds: { 密度: 0.5 } }]],
    ["transforms", [{ step: "transform", method: "yeo_johnson", columns: ["密度"] }, { step: "transform", method: "discretize", n_bins: 3, columns: ["含糖率"] }, { step: "polynomial", columns: ["密度", "含糖率"] }]],
    ["projections", [{ step: "one_hot" }, { step: "scale" }, { step: "pca", n_components: 4, whiten: true }, { step: "mds", n_components: 2, columns: ["pc1", "pc2", "pc3"] }, { step: "lda_projection", columns: ["mds1", "mds2", "pc4"] }]],
    ["target encoding and rare levels", [{ step: "target_encode", columns: ["色泽", "根蒂"], cv: 3 }, { step: "one_hot", min_frequency: 4, max_categories: 3, handle_unknown: "infrequent_if_exist" }]],
    ["selection", [{ step: "select", method: "relief", k: 5 }, { step: "select", method: "rfe", k: 3 }, { step: "select", method: "lvw", max_tries: 3 }, { step: "resample", method: "oversample" }]],
  ];
  for (const [label, steps] of pipelines) {
    test(`${label}: the artifact round trip reproduces every step and the predictions; describe is JSON-safe`, () => {
      const pipeline = fitPipeline(cart, cart.params.parse({}), resolveSteps(steps as never), melons, ctx(2));
      const { bytes } = serializeArtifact({
        algorithm: cart,
        params: cart.params.parse({}) as Record<string, unknown>,
        task: "classification",
        features: melons.X.columns.map((c) => (c.type === "numeric" ? { name: c.name, type: "numeric" } : { name: c.name, type: "categorical", levels: [...c.levels] })),
        target: "好瓜",
        classes: ["否", "是"],
        positiveClass: "是",
        classCounts: [9, 8],
        pipeline,
        trainedAt: "2024-01-01T00:00:00.000Z",
      });
      const loaded = loadArtifact(bytes);
      assertSameFrame(applySteps(loaded.pipeline.steps, melons.X), applySteps(pipeline.steps, melons.X));
      assert.deepEqual(predictPipeline(cart, loaded.pipeline, melons.X), predictPipeline(cart, pipeline, melons.X));
      const described = describePipeline(pipeline);
      assert.equal(described.length, pipeline.steps.length);
      const text = JSON.stringify(described);
      assert.doesNotMatch(text, /NaN|Infinity/);
      assert.deepEqual(JSON.parse(text), described, "plain JSON values only");
    });
  }

  test("the same seed fits the same pipeline, bit for bit", () => {
    const steps = resolveSteps([{ step: "mds", max_landmarks: 6 }, { step: "resample", method: "smote" }, { step: "select", method: "lvw", max_tries: 3 }] as never);
    const a = fitPipeline(cart, cart.params.parse({}), steps, melons, ctx(9));
    const b = fitPipeline(cart, cart.params.parse({}), steps, melons, ctx(9));
    assert.deepEqual(a, b);
  });
});
