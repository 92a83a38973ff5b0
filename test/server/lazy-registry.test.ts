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
import { WITHOUT_ALGORITHMS } from "../../src/server/plugins/load-registry.js";

/**
 * Every documented route the loading hook skips (WITHOUT_ALGORITHMS), taken from the app's own
 * OpenAPI document so that a route added under those prefixes is called here on arrival: with the
 * registry unloaded, none may answer 5xx (a lookup would throw "not loaded yet"), and none may
 * load it. Path ids are the uploaded dataset's; bodies are valid where the route computes
 * (feature scores), empty otherwise (a 4xx is fine: only the absence of a 5xx is asserted).
 * First in this file: the next test loads the registry, and it stays loaded in this process.
 */
test("every route the hook skips answers without the registry, and leaves it unloaded", async () => {
  const t = await testApp();
  try {
    const upload = await t.app.inject({ method: "POST", url: "/v1/datasets?name=wm3", headers: { "content-type": "text/csv" }, payload: fixture("watermelon-3.0.csv") });
    assert.equal(upload.statusCode, 201, upload.body);
    const id = upload.json().id as string;
    await t.app.ready();
    const document = t.app.swagger() as { paths: Record<string, Record<string, unknown>> };
    const bodies: Record<string, object> = { "/v1/datasets/{id}/feature-scores": { method: "info_gain", target: "好瓜" } };
    const called: string[] = [];
    const deletes: string[] = [];
    for (const [path, operations] of Object.entries(document.paths)) {
      if (!WITHOUT_ALGORITHMS.some((prefix) => path.startsWith(prefix))) continue;
      const url = path.replace(/\{[^}]+\}/g, id);
      for (const method of Object.keys(operations).map((m) => m.toUpperCase())) {
        if (!["GET", "POST", "PUT", "PATCH", "DELETE"].includes(method)) continue;
        if (method === "DELETE") {
          deletes.push(url);
          continue;
        }
        const res = await t.app.inject({ method: method as "GET", url, ...(method === "GET" ? {} : { payload: bodies[path] ?? {} }) });
        assert.ok(res.statusCode < 500, `${method} ${path}: ${res.statusCode} ${res.body.slice(0, 300)}`);
        called.push(`${method} ${path}`);
      }
    }
    for (const url of deletes) {
      const res = await t.app.inject({ method: "DELETE", url });
      assert.ok(res.statusCode < 500, `DELETE ${url}: ${res.statusCode} ${res.body.slice(0, 300)}`);
    }
    assert.ok(called.includes("POST /v1/datasets/{id}/feature-scores") && called.includes("GET /v1/datasets/{id}/rows"), called.join(", "));
    assert.equal(registryLoaded(), false, `one of these loaded the registry: ${called.join(", ")}`);
  } finally {
    await t.close();
  }
});

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
