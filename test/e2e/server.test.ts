/** The real server as `npm start` runs it (here from source under tsx): over HTTP, then restarted on the same database. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../helpers/free-port.js";
import { startServer as start, stopServer as stop } from "../helpers/server-process.js";

test("upload CSV, train, poll, predict, evaluate over HTTP; restart on the same file and predict again", async () => {
  const dir = mkdtempSync(join(tmpdir(), "xigua-e2e-"));
  const dbPath = join(dir, "e2e.db");
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  let server = await start(dbPath, port);
  try {
    const csv = readFileSync(new URL("../fixtures/watermelon-3.0.csv", import.meta.url));
    const upload = await fetch(`${base}/v1/datasets?name=wm3`, { method: "POST", headers: { "content-type": "text/csv" }, body: csv });
    assert.equal(upload.status, 201);
    const dataset = (await upload.json()) as { id: string };

    const trainRes = await fetch(`${base}/v1/models`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ dataset_id: dataset.id, algorithm: "cart", target: "好瓜", features: ["色泽", "根蒂", "敲声", "纹理", "脐部", "触感", "密度", "含糖率"], seed: 2 }),
    });
    assert.equal(trainRes.status, 202);
    const location = trainRes.headers.get("location")!;
    type Model = { id: string; status: string; evaluation_id: string };
    let model = (await trainRes.json()) as Model;
    while (model.status === "queued" || model.status === "running") {
      await new Promise((r) => setTimeout(r, 50));
      model = (await (await fetch(`${base}${location}`)).json()) as Model;
    }
    assert.equal(model.status, "succeeded", JSON.stringify(model));

    const rows = [{ 色泽: "青绿", 根蒂: "蜷缩", 敲声: "浊响", 纹理: "清晰", 脐部: "凹陷", 触感: "硬滑", 密度: 0.697, 含糖率: 0.46 }, { 纹理: "模糊" }];
    const predict = () =>
      fetch(`${base}/v1/models/${model.id}/predict`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ rows, probabilities: true }) }).then((r) => r.json() as Promise<{ predictions: unknown[]; probabilities: unknown[] }>);
    const before = await predict();
    assert.equal(before.predictions.length, 2);

    const evaluation = (await (await fetch(`${base}/v1/evaluations/${model.evaluation_id}`)).json()) as { status: string; metrics: object };
    assert.equal(evaluation.status, "succeeded");
    assert.ok("accuracy" in evaluation.metrics);

    assert.equal(await stop(server), 0, "graceful shutdown exits 0");
    server = await start(dbPath, port);
    const after = await predict();
    assert.deepEqual(after, before);
  } finally {
    if (server.exitCode === null) await stop(server);
    rmSync(dir, { recursive: true, force: true });
  }
});
