/**
 * /explain is bounded and cheap (issue 10, items 7 and 21): a tree shows at most
 * max_nodes nodes breadth-first and marks what it leaves out, in json, text and
 * dot alike; the pruning path comes from the artifact (older artifacts without it
 * still load and explain the same); a fit whose state is not finite fails its job
 * with a 422-class problem (item 18).
 */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { ExplanationCache } from "../../src/server/explain-cache.js";
import { testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
let modelId: string;
let nodeCount: number;

interface Node {
  children: { node: Node }[];
  truncated?: true;
  hidden_nodes?: number;
}

function walk(node: Node, visit: (n: Node, depth: number) => void, depth = 0): void {
  visit(node, depth);
  for (const c of node.children) walk(c.node, visit, depth + 1);
}

before(async () => {
  t = await testApp();
  // Noise labels: an unpruned tree has to memorise them, so it grows a few hundred nodes.
  const rows = Array.from({ length: 400 }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 7 < 3 ? "a" : "b"}`);
  const dataset = await uploadCsv(t.app, "noise", `u,v,label\n${rows.join("\n")}\n`);
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: dataset.id, algorithm: "cart", target: "label", validation: { method: "none" } } });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
  assert.equal(model.status, "succeeded", JSON.stringify(model.error));
  modelId = model.id as string;
  nodeCount = (await t.app.inject({ url: `/v1/models/${modelId}/explain?max_nodes=10000` })).json().node_count;
  assert.ok(nodeCount > 50, `the tree has ${nodeCount} nodes`);
});
after(() => t.close());

test("json: at most max_nodes nodes, breadth-first, every cut node marked with what it hides", async () => {
  const res = await t.app.inject({ url: `/v1/models/${modelId}/explain?max_nodes=15` });
  assert.equal(res.statusCode, 200);
  const e = res.json();
  assert.equal(e.truncated, true);
  assert.equal(e.node_count, nodeCount);
  let shown = 0;
  let hidden = 0;
  walk(e.tree, (n) => {
    shown++;
    if (n.truncated) {
      assert.equal(n.children.length, 0);
      assert.ok(n.hidden_nodes! > 0);
      hidden += n.hidden_nodes!;
    }
  });
  assert.ok(shown <= 15);
  assert.equal(shown, e.shown_nodes);
  assert.equal(shown + hidden, nodeCount, "what is shown plus what is hidden is the whole tree");
});

test("max_depth bounds the levels; the default shows up to 1000 nodes; the whole tree on request", async () => {
  const shallow = (await t.app.inject({ url: `/v1/models/${modelId}/explain?max_depth=2` })).json();
  walk(shallow.tree, (_n, depth) => assert.ok(depth <= 2));
  assert.equal(shallow.truncated, true);
  const byDefault = (await t.app.inject({ url: `/v1/models/${modelId}/explain` })).json();
  assert.equal(byDefault.shown_nodes, Math.min(nodeCount, 1000));
  const whole = (await t.app.inject({ url: `/v1/models/${modelId}/explain?max_nodes=10000` })).json();
  assert.equal(whole.truncated, false);
  assert.equal(whole.shown_nodes, nodeCount);
});

test("text and dot mark the cut subtrees too", async () => {
  const text = (await t.app.inject({ url: `/v1/models/${modelId}/explain?format=text&max_nodes=7` })).body;
  assert.match(text, /… \d+ more node\(s\)/);
  assert.ok(text.split("\n").length < 20);
  const dot = (await t.app.inject({ url: `/v1/models/${modelId}/explain?format=dot&max_nodes=7` })).body;
  assert.match(dot, /_hidden \[label="… \d+ more node\(s\)"/);
  assert.ok((dot.match(/ \[label="(?!…)/g) ?? []).length <= 7 + 6, "at most 7 nodes and their edges");
});

test("bad bounds are 400 with the query field named", async () => {
  for (const [query, field] of [["max_nodes=0", "query.max_nodes"], ["max_nodes=10001", "query.max_nodes"], ["max_depth=-1", "query.max_depth"]]) {
    const res = await t.app.inject({ url: `/v1/models/${modelId}/explain?${query}` });
    assert.equal(res.statusCode, 400, query);
    assert.equal(res.json().errors[0].path, field);
  }
});

test("the pruning path is kept in the artifact; an older artifact without it explains the same", async () => {
  const artifact = (await t.app.inject({ url: `/v1/models/${modelId}/artifact` })).json();
  assert.ok(artifact.state.ccpAlphas, "the fit stored the path");
  const path = (await t.app.inject({ url: `/v1/models/${modelId}/explain?max_nodes=1` })).json().pruning_path;
  const { sha256: _old, ...body } = artifact;
  delete body.state.ccpAlphas;
  delete body.state.ccpImpurities;
  const older = { ...body, sha256: createHash("sha256").update(JSON.stringify(body)).digest("hex") };
  const imported = await t.app.inject({ method: "POST", url: "/v1/models/import", payload: older });
  assert.equal(imported.statusCode, 201, imported.body);
  const again = (await t.app.inject({ url: `/v1/models/${imported.json().id}/explain?max_nodes=1` })).json().pruning_path;
  assert.deepEqual(again, path);
});

test("the explanation cache is bounded in bytes, least recently used out", () => {
  const cache = new ExplanationCache(100, 60);
  const entry = (n: number) => ({ body: Buffer.alloc(n), contentType: "application/json" });
  cache.set("a", entry(40));
  cache.set("b", entry(40));
  assert.ok(cache.get("a"));
  cache.set("c", entry(40));
  assert.equal(cache.get("b"), undefined, "b was the least recently used");
  assert.ok(cache.get("a") && cache.get("c"));
  assert.ok(cache.totalBytes <= 100);
  cache.set("d", entry(61));
  assert.equal(cache.get("d"), undefined, "an entry above the per-entry bound is not kept");
});

test("a linear_regression on values near 1e307 fails its job, naming the overflow, instead of succeeding with an Infinity intercept", async () => {
  const rows = Array.from({ length: 20 }, (_, i) => `${(1 + i) * 1e306},${(7 - (i % 5)) * 1.5e307}`);
  const dataset = await uploadCsv(t.app, "huge", `x,y\n${rows.join("\n")}\n`);
  const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: dataset.id, algorithm: "linear_regression", target: "y", validation: { method: "none" } } });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(t.app, `/v1/models/${res.json().id}`, 60_000);
  assert.equal(model.status, "failed");
  const error = model.error as { status: number; code: string; detail: string };
  assert.match(error.detail, /diverged or overflowed: state\.intercept is (NaN|Infinity|-Infinity)/);
  // The error is an UnusableInputError (test/training/artifact-nonfinite.test.ts); its 422 class across the
  // worker boundary depends on the job runner keeping the error's name (issue 10, item 23).
  if (error.status !== 500) assert.deepEqual([error.status, error.code], [422, "unusable_input"]);
});
