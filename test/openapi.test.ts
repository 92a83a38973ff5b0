import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { generateOpenApi } from "../scripts/openapi-document.js";

test("openapi/openapi.json is what the routes generate (run `npm run openapi` after changing a route)", async () => {
  const committed = readFileSync(new URL("../openapi/openapi.json", import.meta.url), "utf8");
  const generated = await generateOpenApi();
  assert.ok(committed === generated, "openapi/openapi.json is stale: run `npm run openapi` and commit the result");
  const doc = JSON.parse(generated);
  assert.equal(doc.openapi, "3.1.0");
  for (const path of ["/v1/datasets", "/v1/models", "/v1/models/{id}/predict", "/v1/evaluations", "/health/ready"]) assert.ok(doc.paths[path], `${path} documented`);
  assert.ok(doc.paths["/v1/datasets"].post.requestBody.content["text/csv"], "CSV upload documented");
});
