/** A failed job's problem: the client's own mistakes say why (4xx), anything else is generic; every code is in the catalogue. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { ApiError, problemFor, type ErrorCode } from "../../src/server/errors.js";
import { DataError } from "../../src/data/errors.js";
import { UnusableInputError } from "../../src/models/contract.js";
import { DatasetDeletedError, JOB_PROBLEMS, describeFailure, transportable } from "../../src/training/job-failure.js";
import type { Store } from "../../src/store/store.js";
import { testApp, uploadCsv } from "../helpers/app.js";

const context = { jobId: "md_test", memoryMb: 512, heapMb: 256 };
/** What the main thread receives: the worker's error after a structured clone (class name and fields are lost on a raw Error). */
const received = (error: unknown) => structuredClone(transportable(error));

test("every job problem code is in the error catalogue with the same status and title", () => {
  for (const [code, { status, title }] of Object.entries(JOB_PROBLEMS) as [ErrorCode, { status: number; title: string }][]) {
    assert.equal(new ApiError(code, "x").status, status, code);
    assert.equal(problemFor(code, status).title, title, code);
  }
});

test("an internal error becomes a generic training_failed 500; its message goes to the log only", () => {
  const { problem, internal } = describeFailure(received(new TypeError("Cannot read properties of undefined (reading 'x')")), context);
  assert.equal(problem.code, "training_failed");
  assert.equal(problem.status, 500);
  assert.doesNotMatch(problem.detail ?? "", /Cannot read|undefined/);
  assert.match(problem.detail ?? "", /md_test/);
  assert.match(internal ?? "", /Cannot read properties of undefined/);
});

test("the client's data errors cross the thread boundary and stay 422 with their path", () => {
  const unusable = describeFailure(received(new UnusableInputError("the training loss diverged")), context).problem;
  assert.equal(unusable.code, "unusable_input");
  assert.equal(unusable.status, 422);
  assert.equal(unusable.detail, "the training loss diverged");
  const data = describeFailure(received(new DataError("no rows left", "target")), context).problem;
  assert.equal(data.status, 422);
  assert.deepEqual(data.errors, [{ path: "target", message: "no rows left" }]);
  const deleted = describeFailure(received(new DatasetDeletedError("dataset ds_1 was deleted")), context).problem;
  assert.equal(deleted.code, "dataset_deleted");
  assert.equal(deleted.status, 409);
});

test("a refused allocation or a full heap is a memory problem naming the limit, not training_failed", () => {
  let refused: unknown;
  try {
    new ArrayBuffer(2 ** 53 - 1);
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof RangeError, "the engine refuses the allocation with a RangeError");
  const memory = describeFailure(received(refused), context).problem;
  assert.equal(memory.code, "memory_limit_exceeded");
  assert.equal(memory.status, 422);
  assert.match(memory.detail ?? "", /512 MiB/);
  const heap = describeFailure(Object.assign(new Error("Worker terminated due to reaching memory limit: JS heap out of memory"), { code: "ERR_WORKER_OUT_OF_MEMORY" }), context).problem;
  assert.equal(heap.code, "out_of_memory");
  assert.match(heap.detail ?? "", /256 MiB/);
});

test("an unusable input found inside a running job fails it with a 422 problem", { timeout: 60_000 }, async () => {
  const t = await testApp({ workers: 1 });
  try {
    const rows = Array.from({ length: 50 }, (_, i) => `${i},a`);
    const ds = (await uploadCsv(t.app, "one-class", `x,y\n${rows.join("\n")}\n`)).id;
    const store: Store = t.app.services.store;
    // Queued through the store, as if the data had changed under a queued job: the worker finds a single class.
    const spec = { algorithm: "cart", params: {}, task: "classification", dataset_id: ds, target: "y", features: ["x"], preprocessing: [], validation: { method: "none" }, seed: 1, positive_class: null, name: null };
    const id = (await store.models.insert(spec)).id;
    t.app.services.jobs.submitTraining(id);
    await t.app.services.jobs.whenDone(id);
    const failed = (await t.app.inject({ url: `/v1/models/${id}` })).json();
    assert.equal(failed.status, "failed");
    assert.equal(failed.error.code, "unusable_input", JSON.stringify(failed.error));
    assert.equal(failed.error.status, 422);
    assert.equal(failed.error.errors?.[0]?.path, "target");
  } finally {
    await t.close();
  }
});
