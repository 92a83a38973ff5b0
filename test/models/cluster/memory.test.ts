/** The clustering family's memory terms: ordinary requests fit the default budget; the terms grow with what they name. */
import { test } from "node:test";
import assert from "node:assert/strict";
import { estimateAlgorithmMemory, hasMemoryModel, type MemoryShape } from "../../../src/models/memory-estimate.js";
import { listAlgorithms } from "../../../src/models/registry.js";
import { DEFAULTS } from "../../../src/server/config.js";

const MIB = 1 << 20;
const shape = (rows: number, features: number): MemoryShape => ({ rows, features, levels: [], classes: 0 });
const total = (name: string, params: Record<string, unknown>, s: MemoryShape) => estimateAlgorithmMemory(listAlgorithms().find((a) => a.name === name)!, params, s).reduce((t, x) => t + x.bytes, 0);
const clustering = listAlgorithms().filter((a) => a.tasks.includes("clustering"));

test("every clustering algorithm has terms, and its defaults fit the default budget on 50,000 × 30 and 2,000 × 1,000", () => {
  assert.ok(clustering.length > 0);
  for (const a of clustering) {
    assert.ok(hasMemoryModel(a), a.name);
    for (const s of [shape(50_000, 30), shape(2000, 1000)]) {
      const bytes = total(a.name, a.params.parse({}) as Record<string, unknown>, s);
      assert.ok(bytes > 0 && bytes < DEFAULTS.jobMemoryMb * MIB, `${a.name}: ${Math.round(bytes / MIB)} MiB`);
    }
  }
});

test("the terms grow with rows and with the size parameters", () => {
  for (const a of clustering) assert.ok(total(a.name, {}, shape(1000, 5)) < total(a.name, {}, shape(10_000, 5)), a.name);
  assert.ok(total("kmeans", { n_clusters: 10 }, shape(1000, 50)) < total("kmeans", { n_clusters: 1000 }, shape(1000, 50)));
});
