/** The projection family's memory terms: ordinary requests fit the default budget; the terms grow with what they name. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateAlgorithmMemory, hasMemoryModel, type MemoryShape } from "../../../src/models/memory-estimate.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { DEFAULTS } from "../../../src/server/config.js";

const MIB = 1 << 20;
const shape = (rows: number, features: number): MemoryShape => ({ rows, features, levels: [], classes: 0 });
const total = (name: string, params: Record<string, unknown>, s: MemoryShape) => estimateAlgorithmMemory(listAlgorithms().find((a) => a.name === name)!, params, s).reduce((t, x) => t + x.bytes, 0);
const projections = listAlgorithms().filter((a) => a.tasks.includes("projection"));

test("every projection algorithm has terms, and its defaults fit the default budget on 50,000 × 30 and 2,000 × 1,000", () => {
  // Every algorithm with the task, whatever its family (som_projection is a neural network's).
  for (const name of ["isomap", "kernel_pca", "lda_projection", "lmnn_projection", "mds", "nca_projection", "pca"]) assert.ok(projections.some((a) => a.name === name), name);
  for (const a of projections) {
    assert.ok(hasMemoryModel(a), a.name);
    for (const s of [shape(50_000, 30), shape(2000, 1000)]) {
      const bytes = total(a.name, a.params.parse({}) as Record<string, unknown>, s);
      assert.ok(bytes > 0 && bytes < DEFAULTS.jobMemoryMb * MIB, `${a.name}: ${Math.round(bytes / MIB)} MiB`);
    }
  }
});

test("the terms grow with rows and with the size parameters, and the n × n ones stop at their row limits", () => {
  for (const a of projections) assert.ok(total(a.name, {}, shape(100, 5)) < total(a.name, {}, shape(1000, 5)), a.name);
  assert.ok(total("pca", {}, shape(1000, 10)) < total("pca", {}, shape(1000, 100)));
  assert.ok(total("mds", { max_landmarks: 100 }, shape(5000, 5)) < total("mds", { max_landmarks: 1000 }, shape(5000, 5)));
  assert.ok(total("isomap", { n_neighbors: 5 }, shape(500, 5)) < total("isomap", { n_neighbors: 50 }, shape(500, 5)));
  const matrix = (name: string, rows: number) => estimateAlgorithmMemory(listAlgorithms().find((a) => a.name === name)!, {}, shape(rows, 5)).find((t) => t.what.includes("eigendecomposed"))!.bytes;
  assert.equal(matrix("kernel_pca", 10_000), matrix("kernel_pca", 100_000));
  assert.equal(matrix("isomap", 10_000), matrix("isomap", 100_000));
  // lda_projection's scatter matrices grow with the classes; nca_projection's n × n matrix with max_rows, and not past it.
  const withClasses = (classes: number): MemoryShape => ({ ...shape(1000, 20), classes });
  assert.ok(total("lda_projection", {}, withClasses(3)) < total("lda_projection", {}, withClasses(30)));
  assert.ok(total("nca_projection", { max_rows: 1000 }, shape(5000, 5)) < total("nca_projection", { max_rows: 4000 }, shape(5000, 5)));
  assert.equal(total("nca_projection", { max_rows: 5000 }, shape(3000, 5)), total("nca_projection", { max_rows: 20_000 }, shape(3000, 5)));
});
