/**
 * The crafted-artifact battery (issue 10, items 1 and 19): artifacts a client
 * could send that are well-formed JSON with a valid checksum but are not
 * consistent models. Each is a 422 invalid_artifact at import, with the path of
 * the offending field, and is refused before anything large is allocated or any
 * walk over the model runs (an 81-node DAG tree, if it were accepted, would make
 * the import's own probe prediction run for hours). A stored artifact that no
 * longer loads is a 409 on predict, explain and artifact, never a 500.
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { decodeState, encodeState } from "../../src/models/state-codec.js";
import { serializeArtifact } from "../../src/training/artifact.js";
import { LEAF } from "../../src/models/tree/tree-state.js";
import { ladderTopology } from "../helpers/ladder-tree.js";
import { testApp, type TestApp } from "../helpers/app.js";
import { generatedTable, trainOn } from "../training/helpers-artifact.js";

type Doc = Record<string, unknown> & { state: unknown; schema: { features: { name: string }[]; classes: string[] | null } };

let t: TestApp;
const table = generatedTable();
const artifacts: Record<string, Doc> = {};

before(async () => {
  t = await testApp();
  const make = (name: string, request: Parameters<typeof trainOn>[1]) => {
    artifacts[name] = JSON.parse(serializeArtifact(trainOn(table, request).model).bytes.toString());
  };
  make("cart", { algorithm: "cart", target: "label", features: ["x1", "x2", "g"] });
  make("linear", { algorithm: "linear_regression", target: "y", features: ["x1", "x2"] });
  make("scaledLinear", { algorithm: "linear_regression", target: "y", features: ["x1", "x2"], preprocessing: [{ step: "scale", columns: ["x1", "x2"] }] });
  make("mlp", { algorithm: "mlp", target: "label", features: ["x1", "x2"], params: { hidden_layer_sizes: [3], max_iter: 20 } });
  make("svm", { algorithm: "svm", target: "label", features: ["x1", "x2"] });
});
after(() => t.close());

const copy = (doc: Doc): Doc => JSON.parse(JSON.stringify(doc));

/** A valid checksum over the edited content, so only the edit is wrong. */
function reseal(doc: Doc): Doc {
  const { sha256: _old, ...body } = doc;
  return { ...body, sha256: createHash("sha256").update(JSON.stringify(body)).digest("hex") } as Doc;
}

function withState(name: string, edit: (state: Record<string, unknown>) => void): Doc {
  const doc = copy(artifacts[name]);
  const state = decodeState(doc.state) as Record<string, unknown>;
  edit(state);
  doc.state = encodeState(state);
  return reseal(doc);
}

/** The cart artifact with its tree replaced by a ladder over x1: `shared` makes both nodes of each level split into the same pair (a DAG). */
function ladderTree(levels: number, shared: boolean, edit: (tree: Record<string, Int32Array | Float64Array | Uint8Array>) => void = () => {}): Doc {
  return withState("cart", (s) => {
    const K = (s.classes as string[]).length;
    const { n, kind, childStart, childCount } = ladderTopology(levels, shared);
    const tree = {
      kind,
      feature: Int32Array.from(kind, (k) => (k === LEAF ? -1 : 0)),
      threshold: Float64Array.from(kind, (k, i) => (k === LEAF ? NaN : i / 10)),
      childStart,
      childCount,
      mapOffset: new Int32Array(n).fill(-1),
      branchFraction: new Float64Array(n).fill(0.5),
      samples: new Float64Array(n).fill(4),
      impurity: new Float64Array(n).fill(0.3),
      score: new Float64Array(n),
      value: new Float64Array(n * K).fill(1),
      levelMap: new Int32Array(0),
      obliqueWeights: new Float64Array(0),
      candOffset: new Int32Array(n + 1),
      candFeature: new Int32Array(0),
      candScore: new Float64Array(0),
      candThreshold: new Float64Array(0),
    };
    edit(tree);
    Object.assign(s, tree);
    delete s.ccpAlphas;
    delete s.ccpImpurities;
  });
}

async function importing(doc: unknown) {
  return t.app.inject({ method: "POST", url: "/v1/models/import", payload: doc as Record<string, unknown> });
}

async function refused(doc: unknown, path: string | RegExp, message?: RegExp) {
  const res = await importing(doc);
  assert.equal(res.statusCode, 422, res.body);
  const body = res.json();
  assert.equal(body.code, "invalid_artifact");
  assert.equal(res.headers["content-type"], "application/problem+json; charset=utf-8");
  const at = body.errors?.[0]?.path as string;
  if (typeof path === "string") assert.equal(at, path, body.detail);
  else assert.match(at, path, body.detail);
  if (message) assert.match(body.detail, message);
  return body;
}

test("every exported artifact of the battery's models imports as it is (the edits below are what breaks them)", async () => {
  for (const doc of Object.values(artifacts)) assert.equal((await importing(doc)).statusCode, 201);
  assert.equal((await importing(ladderTree(40, false))).statusCode, 201, "the same ladder as a tree is fine");
});

test("a DAG tree (nodes sharing children): 81 nodes that would walk 2^40 paths for one missing value", async () => {
  await refused(ladderTree(40, true), "state.childStart.2", /two parents/);
});

test("a cycle and an out-of-range child", async () => {
  await refused(ladderTree(5, false, (tr) => (tr.childStart[3] = 1)), "state.childStart.3", /children/);
  await refused(ladderTree(5, false, (tr) => (tr.childStart[5] = 10)), "state.childStart.5", /children/);
  await refused(ladderTree(5, false, (tr) => (tr.feature[0] = 7)), "state.feature.0", /feature/);
});

test("coefficient shapes that disagree with the features", async () => {
  await refused(withState("linear", (s) => (s.coef = Float64Array.of(1, 2, 3))), "state.coef", /3 entries/);
  await refused(withState("svm", (s) => ((s.model as { models: { support_vectors: Float64Array }[] }).models[0].support_vectors = new Float64Array(3))), /^state\.model\.models\.0\.support_vectors$/);
  await refused(withState("mlp", (s) => ((s.sizes as number[])[0] = 5)), "state.sizes.0", /input layer/);
});

test("huge declared sizes are refused from the shapes, nothing of that size is allocated", async () => {
  const before = process.memoryUsage().arrayBuffers;
  await refused(withState("mlp", (s) => ((s.sizes as number[])[1] = 1e9)), "state.params", /layers/);
  await refused(withState("mlp", (s) => (s.sizes = [2, 4e8, 4e8, 3])), "state.params", /layers/);
  await refused(withState("svm", (s) => ((s.model as { models: { n_features: number }[] }).models[0].n_features = 2e9)), /^state\.model\.models\.0\./);
  const doc = copy(artifacts.linear);
  (doc.state as Record<string, unknown>).coef = { $typed: "f64", base64: "AAAA" };
  await refused(reseal(doc), "state", /cannot decode/);
  assert.ok(process.memoryUsage().arrayBuffers - before < 64 * 1024 * 1024, "no large buffer was allocated");
});

test("a NaN weight or an infinite support vector", async () => {
  await refused(withState("mlp", (s) => ((s.params as Float64Array)[3] = NaN)), "state.params.3", /NaN/);
  await refused(withState("svm", (s) => ((s.model as { models: { coef: Float64Array }[] }).models[0].coef[0] = Infinity)), "state.model.models.0.coef.0", /Infinity/);
  await refused(withState("linear", (s) => (s.coef as Float64Array).fill(NaN)), "state.coef.0", /NaN/);
});

test("repeated feature names, repeated or 100,000 classes", async () => {
  const repeated = copy(artifacts.linear);
  repeated.schema.features[1].name = repeated.schema.features[0].name;
  await refused(reseal(repeated), "schema.features.1", /appears twice/);
  const many = copy(artifacts.cart);
  many.schema.classes = Array.from({ length: 100_000 }, (_, i) => `c${i}`);
  await refused(reseal(many), "schema.classes");
  const twice = copy(artifacts.cart);
  twice.schema.classes = ["hi", "hi", "lo"];
  await refused(reseal(twice), "schema.classes", /appears twice/);
  await refused(withState("cart", (s) => (s.classes = ["hi", "lo"])), "state.value", /value/);
  await refused(withState("cart", (s) => (s.classes as string[]).reverse()), "state.classes", /artifact's classes/);
});

test("a wrong sha256 and a wrong format version", async () => {
  const tampered = copy(artifacts.linear);
  tampered.trained_at = "2020-01-01T00:00:00.000Z";
  await refused(tampered, "sha256", /checksum/);
  await refused(reseal({ ...copy(artifacts.linear), version: 2 }), "version");
  await refused(reseal({ ...copy(artifacts.linear), format: "other-model" }), "format");
});

test("a pipeline whose step columns do not chain into the state", async () => {
  await refused(withState("scaledLinear", (s) => ((s.features as string[])[0] = "not a column")), "pipeline", /do not fit together/);
});

test("a stored artifact that no longer loads is a 409 on predict, explain and artifact, not a 500", async () => {
  const broken = ladderTree(12, true);
  const store = t.app.services.store;
  const record = await store.models.insertImported(
    { algorithm: "cart", params: {}, task: "classification", dataset_id: "", target: "label", features: ["x1", "x2", "g"], preprocessing: [], validation: { method: "none" }, seed: 0, positive_class: null, name: null },
    Buffer.from(JSON.stringify(broken)),
    broken.sha256 as string,
    broken.schema.classes,
    [],
  );
  const calls = [
    t.app.inject({ method: "POST", url: `/v1/models/${record.id}/predict`, payload: { rows: [{ x1: null }] } }),
    t.app.inject({ url: `/v1/models/${record.id}/explain` }),
    t.app.inject({ url: `/v1/models/${record.id}/artifact` }),
  ];
  for (const res of await Promise.all(calls)) {
    assert.equal(res.statusCode, 409, res.body);
    assert.equal(res.json().code, "wrong_state");
    assert.match(res.json().detail, /no longer loads/);
    assert.equal(res.json().errors[0].path, "artifact.state.childStart.2");
  }
});
