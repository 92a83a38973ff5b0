/** Models for the interoperability tests (MLflow, OIP v2, CSV predict). */
import assert from "node:assert/strict";
import type { FastifyInstance } from "fastify";
import { uploadCsv, waitFor } from "./app.js";

export async function train(app: FastifyInstance, body: object): Promise<string> {
  const res = await app.inject({ method: "POST", url: "/v1/models", payload: body });
  assert.equal(res.statusCode, 202, res.body);
  const model = await waitFor(app, res.headers.location as string);
  assert.equal(model.status, "succeeded", JSON.stringify(model));
  return model.id as string;
}

/**
 * A model that never succeeds: queued behind a slow job on the only worker, then
 * cancelled while still queued (as test/api/models.test.ts does). The slow job is
 * cancelled too, and awaited, so it does not hold the worker.
 */
export async function cancelledModel(app: FastifyInstance): Promise<string> {
  const n = 20000;
  const lines = Array.from({ length: n }, (_, i) => `${(i * 7919) % 1000},${(i * 104729) % 997},${(i * 31) % 2 === 0 ? "a" : "b"}`);
  const ds = (await uploadCsv(app, "slow", `x1,x2,y\n${lines.join("\n")}\n`)).id;
  const slow = { dataset_id: ds, algorithm: "cart", target: "y", validation: { method: "kfold", k: 20 } };
  const first = (await app.inject({ method: "POST", url: "/v1/models", payload: slow })).json();
  const second = (await app.inject({ method: "POST", url: "/v1/models", payload: slow })).json();
  const cancel = await app.inject({ method: "POST", url: `/v1/models/${second.id}/cancel` });
  assert.equal(cancel.statusCode, 202, cancel.body);
  await app.inject({ method: "POST", url: `/v1/models/${first.id}/cancel` });
  await waitFor(app, `/v1/models/${first.id}`);
  return second.id as string;
}

/** The `predict` route's answer for the same rows, the reference every other format must equal. */
export async function predictRows(app: FastifyInstance, id: string, rows: object[], probabilities = false): Promise<{ predictions: unknown[]; probabilities?: Record<string, number>[]; projections?: number[][] }> {
  const res = await app.inject({ method: "POST", url: `/v1/models/${id}/predict`, payload: { rows, ...(probabilities ? { probabilities } : {}) } });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}
