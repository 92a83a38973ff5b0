/**
 * The OpenAPI document as a client contract (issue 19): the README's quick-start flow,
 * driven through openapi-fetch with the types openapi-typescript generates from the
 * committed document (scripts/generate-client-types.ts, run before every typecheck),
 * against a real listening server. A route whose real shape drifts from the document
 * breaks `tsc --strict` here, or a check below.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import createClient from "openapi-fetch";
import type { paths } from "./generated/xigua-api.js";
import { freePort } from "../helpers/free-port.js";
import { startServer, stopServer } from "../helpers/server-process.js";

test("the quick start through a client generated from openapi/openapi.json", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-client-"));
  const port = await freePort();
  const server = await startServer(join(dir, "client.db"), port);
  try {
    const client = createClient<paths>({ baseUrl: `http://127.0.0.1:${port}` });

    const csv = readFileSync(new URL("../fixtures/watermelon-3.0.csv", import.meta.url), "utf8");
    const upload = await client.POST("/v1/datasets", {
      params: { query: { name: "wm3" } },
      body: csv,
      bodySerializer: (body) => body,
      headers: { "content-type": "text/csv" },
    });
    assert.equal(upload.response.status, 201, JSON.stringify(upload.error));
    const dataset = upload.data!;
    assert.equal(dataset.row_count, 17);

    const features = ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"];
    const created = await client.POST("/v1/models", { body: { dataset_id: dataset.id, algorithm: "cart", target: "好瓜", features, seed: 2 } });
    assert.equal(created.response.status, 202, JSON.stringify(created.error));
    let model = created.data!;
    while (model.status === "queued" || model.status === "running") {
      await new Promise((r) => setTimeout(r, 50));
      const polled = await client.GET("/v1/models/{id}", { params: { path: { id: model.id } } });
      model = polled.data!;
    }
    assert.equal(model.status, "succeeded", JSON.stringify(model.error));

    const predicted = await client.POST("/v1/models/{id}/predict", {
      params: { path: { id: model.id } },
      body: { rows: [{ 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑", 密度: 0.697, 含糖率: 0.46 }], probabilities: true },
    });
    assert.equal(predicted.response.status, 200, JSON.stringify(predicted.error));
    const probabilities = predicted.data!.probabilities!;
    assert.ok(["是", "否"].includes(predicted.data!.predictions![0] as string));
    assert.ok(Math.abs(Object.values(probabilities[0]).reduce<number>((a, b) => a + (b ?? 0), 0) - 1) < 1e-9);

    const evaluated = await client.POST("/v1/evaluations", { body: { dataset_id: dataset.id, algorithm: "cart", target: "好瓜", features, validation: { method: "kfold", k: 5 }, seed: 1 } });
    assert.equal(evaluated.response.status, 202, JSON.stringify(evaluated.error));
    let evaluation = evaluated.data!;
    let etag: string | null = null;
    while (evaluation.status === "queued" || evaluation.status === "running") {
      await new Promise((r) => setTimeout(r, 50));
      const polled = await client.GET("/v1/evaluations/{id}", { params: { path: { id: evaluation.id }, query: {} } });
      evaluation = polled.data!;
    }
    assert.equal(evaluation.status, "succeeded");
    assert.ok(typeof evaluation.metrics.accuracy === "number");

    // A dashboard polls the list with If-None-Match: unchanged → 304 and no body.
    const listed = await client.GET("/v1/evaluations", { params: { query: { dataset_id: dataset.id } } });
    assert.equal(listed.response.status, 200);
    etag = listed.response.headers.get("etag");
    assert.ok(etag, "the list sends an ETag");
    const again = await client.GET("/v1/evaluations", { params: { query: { dataset_id: dataset.id } }, headers: { "if-none-match": etag } });
    assert.equal(again.response.status, 304);

    // Errors arrive as the documented problem+json.
    const missing = await client.GET("/v1/models/{id}", { params: { path: { id: "md_nope" } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.response.headers.get("content-type")?.split(";")[0], "application/problem+json");
    assert.equal(missing.error?.code, "not_found");
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
