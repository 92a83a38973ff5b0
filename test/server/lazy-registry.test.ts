/**
 * The main thread loads the algorithm registry with the first request that may look an
 * algorithm up (models/lazy-registry.ts, server/plugins/load-registry.ts): health and
 * dataset uploads never load it, a model request does, before its handler runs. This file
 * imports nothing that imports registry.ts, so the registry starts unloaded here.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { fixture, testApp } from "../helpers/app.js";
import { registryLoaded } from "../../src/models/lazy-registry.js";
import { trainingModulesLoaded } from "../../src/server/training-modules.js";

test("health and dataset uploads leave the registry unloaded; the first model request loads it", async () => {
  const t = await testApp();
  try {
    assert.equal(registryLoaded(), false, "buildApp loaded the registry");
    assert.equal((await t.app.inject({ method: "GET", url: "/health/ready" })).statusCode, 200);
    const upload = await t.app.inject({ method: "POST", url: "/v1/datasets?name=wm3", headers: { "content-type": "text/csv" }, payload: fixture("watermelon-3.0.csv") });
    assert.equal(upload.statusCode, 201, upload.body);
    assert.equal((await t.app.inject({ method: "GET", url: "/v1/datasets" })).statusCode, 200);
    assert.equal(registryLoaded(), false, "health or a dataset route loaded the registry");

    // Validation and the handler both look the algorithm up.
    const body = { dataset_id: upload.json().id, algorithm: "cart", target: "好瓜" };
    const created = await t.app.inject({ method: "POST", url: "/v1/models", payload: body });
    assert.equal(created.statusCode, 202, created.body);
    assert.equal(registryLoaded(), true);
    assert.equal(trainingModulesLoaded(), true);
    const algorithms = await t.app.inject({ method: "GET", url: "/v1/algorithms" });
    assert.ok(algorithms.json().items.some((a: { name: string }) => a.name === "cart"));
  } finally {
    await t.close();
  }
});
