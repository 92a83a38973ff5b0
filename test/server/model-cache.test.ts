/** The model cache is bounded in bytes as well as in count, least recently used first out. */
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { estimateModelBytes, ModelCache } from "../../src/server/model-cache.js";
import { loadArtifact } from "../../src/training/artifact.js";
import { fixture, testApp, uploadCsv, waitFor, type TestApp } from "../helpers/app.js";

let t: TestApp;
const ids: string[] = [];
const sha: Record<string, string> = {};
before(async () => {
  t = await testApp();
  const wm3 = (await uploadCsv(t.app, "wm3", fixture("watermelon-3.0.csv"))).id;
  for (const algorithm of ["cart", "id3", "logistic_regression", "lda"]) {
    const res = await t.app.inject({ method: "POST", url: "/v1/models", payload: { dataset_id: wm3, algorithm, target: "好瓜", validation: { method: "none" } } });
    const model = await waitFor(t.app, res.headers.location as string);
    assert.equal(model.status, "succeeded", JSON.stringify(model));
    ids.push(model.id as string);
    sha[model.id as string] = (await t.app.services.store.models.getArtifact(model.id as string))!.sha256;
  }
});
after(() => t.close());

async function sizes(): Promise<Record<string, number>> {
  const unbounded = new ModelCache(t.app.services.store.models, { maxModels: 100, maxBytes: Number.MAX_SAFE_INTEGER });
  return Object.fromEntries(await Promise.all(ids.map(async (id) => [id, (await unbounded.get(id, sha[id]))!.bytes])));
}

test("a model's size estimate covers at least its artifact", async () => {
  for (const id of ids) {
    const stored = (await t.app.services.store.models.getArtifact(id))!;
    assert.ok(estimateModelBytes(stored.artifact.byteLength, loadArtifact(stored.artifact)) >= stored.artifact.byteLength);
  }
});

test("loading past the byte budget evicts the least recently used models, not the recently used one", async () => {
  const size = await sizes();
  const [a, b, c, d] = ids;
  // Room for a, b and c exactly: d can only come in by pushing out the least recently used.
  const cache = new ModelCache(t.app.services.store.models, { maxModels: 100, maxBytes: size[a] + size[b] + size[c] });
  await cache.get(a, sha[a]);
  await cache.get(b, sha[b]);
  await cache.get(c, sha[c]);
  assert.equal(cache.size, 3);
  assert.equal(cache.bytes, size[a] + size[b] + size[c]);
  await cache.get(a, sha[a]); // a is now the most recently used; b the least
  await cache.get(d, sha[d]);
  assert.ok(!cache.has(b), "b, the least recently used, went first");
  assert.ok(cache.has(d) && cache.has(a));
  assert.ok(cache.bytes <= size[a] + size[b] + size[c], `${cache.bytes} bytes held`);
  assert.equal(cache.has(c), size[a] + size[c] + size[d] <= size[a] + size[b] + size[c], "c stays only if it still fits");
});

test("the count bound still holds, and a model larger than the whole budget is served and kept alone", async () => {
  const [a, b, c] = ids;
  const byCount = new ModelCache(t.app.services.store.models, { maxModels: 2, maxBytes: Number.MAX_SAFE_INTEGER });
  for (const id of [a, b, c]) await byCount.get(id, sha[id]);
  assert.deepEqual([byCount.has(a), byCount.has(b), byCount.has(c)], [false, true, true]);

  const tiny = new ModelCache(t.app.services.store.models, { maxModels: 100, maxBytes: 1 });
  assert.ok(await tiny.get(a, sha[a]));
  assert.ok(await tiny.get(b, sha[b]));
  assert.deepEqual([tiny.has(a), tiny.has(b), tiny.size], [false, true, 1]);
  tiny.evict(b);
  assert.deepEqual([tiny.size, tiny.bytes], [0, 0]);
});
